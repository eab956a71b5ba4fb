/**
 * `payexport audit-pack` (docs/audit.md#the-audit-pack): one archive an auditor can take away — a
 * period's published folder and its amendments, the manifests and signatures of every close and
 * amendment of its job (the chain), the public keys kept under the root, what `verify --chain`
 * answered for the root, and a README saying how to reperform each check with sha256sum, openssl
 * and Python (audit-readme.ts). Files are streamed into the archive (tar-writer.ts).
 */
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { chainLinkOf } from '../audit/chain-link.js';
import { EVIDENCE_FILE } from '../audit/evidence-log.js';
import { KEYS_FOLDER, rootPublicKeys, SIGNATURE_FILE } from '../audit/manifest-signature.js';
import { usageError } from '../util/errors.js';
import { auditReadme } from './audit-readme.js';
import { chainReport } from './chain-report.js';
import { readJobFolders } from './close-chain.js';
import { existingVersions } from './folder-paths.js';
import { MANIFEST_FILE } from './manifest.js';
import { TarGzWriter } from './tar-writer.js';

export interface AuditPackInput {
  root: string;
  job: string;
  period: string;
  /** the archive to write (must not exist) */
  archive: string;
}

export interface AuditPackResult {
  archive: string;
  folders: string[];
  /** `verify --chain`'s line; `broken` when it named a break */
  verifyLine: string;
  broken: boolean;
}

export async function writeAuditPack(input: AuditPackInput): Promise<AuditPackResult> {
  const jobDir = join(input.root, input.job);
  const folders = await existingVersions(jobDir, input.period);
  if (folders.length === 0) throw usageError('no_such_period', `no published folder of ${input.job} ${input.period} under ${input.root}`);
  const report = await chainReport(input.root, []);
  const top = `audit-${input.job}-${input.period}`;
  const pack = new TarGzWriter(input.archive, 0);
  const signedBy = new Map<string, string>();
  const pulled: string[] = [];
  await pack.addFolder(top);
  for (const folder of folders) {
    const manifest = JSON.parse(await readFile(join(jobDir, folder, MANIFEST_FILE), 'utf8')) as { signature?: { key_id?: string }; files?: Array<{ path: string }> };
    if (typeof manifest.signature?.key_id === 'string') signedBy.set(folder, manifest.signature.key_id);
    if ((manifest.files ?? []).some((f) => f.path === EVIDENCE_FILE)) pulled.push(folder);
    await addTree(pack, join(jobDir, folder), `${top}/${input.job}/${folder}`);
  }
  await pack.addFolder(`${top}/chain`);
  for (const record of (await readJobFolders(jobDir)).filter((f) => chainLinkOf(f.manifest) !== null)) {
    await pack.addFolder(`${top}/chain/${record.name}`);
    for (const name of [MANIFEST_FILE, SIGNATURE_FILE]) await pack.addFile(`${top}/chain/${record.name}/${name}`, join(jobDir, record.name, name)).catch(() => undefined);
  }
  const keys: Array<{ file: string; keyId: string }> = [];
  await pack.addFolder(`${top}/public-keys`);
  const kept = await rootPublicKeys(input.root);
  for (const name of (await readdir(join(input.root, KEYS_FOLDER)).catch(() => [] as string[])).filter((n) => n.endsWith('.pem')).sort()) {
    const keyId = `ed25519:${name.replace(/^ed25519-/, '').replace(/\.pem$/, '')}`;
    if (!kept.keys.has(keyId)) continue;
    keys.push({ file: name, keyId });
    await pack.addFile(`${top}/public-keys/${name}`, join(input.root, KEYS_FOLDER, name));
  }
  await pack.addText(`${top}/verify-chain.txt`, `$ payexport verify --chain ${input.root}\n${report.line}\n`);
  await pack.addText(`${top}/README.txt`, auditReadme({ job: input.job, period: input.period, folders, keys, signedBy, pulled, verifyLine: report.line }));
  await pack.close();
  return { archive: input.archive, folders, verifyLine: report.line, broken: report.verdict.firstBreak !== null };
}

async function addTree(pack: TarGzWriter, dir: string, name: string): Promise<void> {
  await pack.addFolder(name);
  for (const entry of (await readdir(dir, { withFileTypes: true })).sort((a, b) => (a.name < b.name ? -1 : 1))) {
    if (entry.isDirectory()) await addTree(pack, join(dir, entry.name), `${name}/${entry.name}`);
    else if (entry.isFile()) await pack.addFile(`${name}/${entry.name}`, join(dir, entry.name));
  }
}
