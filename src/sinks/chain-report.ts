/**
 * `payexport verify --chain ROOT` in words (docs/audit.md#verify---chain): which keys are trusted
 * (those handed over with --key, else the ones kept under the root), the check itself, and the one
 * line that says what held — or the first break.
 */
import type { KeyObject } from 'node:crypto';
import { readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { KEYS_FOLDER, rootPublicKeys } from '../audit/manifest-signature.js';
import { publicKeyFromPem } from '../audit/public-key.js';
import { usageError } from '../util/errors.js';
import { verifyChain, type ChainVerdict } from './verify-chain.js';

export interface ChainReport {
  verdict: ChainVerdict;
  /** the closing line: what was checked, or the first break */
  line: string;
}

export async function chainReport(root: string, keyFiles: readonly string[]): Promise<ChainReport> {
  const info = await stat(root).catch(() => null);
  if (info === null || !info.isDirectory()) throw usageError('no_such_folder', `no folder '${root}': verify --chain needs an output root (e.g. reports/)`, { dir: root });
  const given = keyFiles.length > 0;
  const keys = given ? await keysFromFiles(keyFiles) : (await rootPublicKeys(root)).keys;
  const verdict = await verifyChain(root, keys);
  const source = given ? 'the keys given with --key' : `the keys kept in ${join(root, KEYS_FOLDER)} (compare their ids with the one handed to you, or pass it with --key)`;
  if (verdict.firstBreak !== null) return { verdict, line: `BREAK ${verdict.firstBreak}` };
  const heads = verdict.heads.map((h) => `${h.job} ends at ${h.folder} #${h.seq}, manifest sha256 ${h.manifestSha256}`).join('; ');
  const line =
    `chain verified under ${root}: ${verdict.folders} folder(s), ${verdict.closes} close(s) and ${verdict.amendments} amendment(s) in order` +
    `${heads === '' ? '' : ` (${heads})`}; ${verdict.keysUsed.length} key(s) checked: ${verdict.keysUsed.join(', ') || 'none'}, from ${source}`;
  return { verdict, line };
}

async function keysFromFiles(files: readonly string[]): Promise<Map<string, KeyObject>> {
  const keys = new Map<string, KeyObject>();
  for (const file of files) {
    const pem = await readFile(file, 'utf8').catch(() => null);
    if (pem === null) throw usageError('key_file_unreadable', `--key ${file}: the file cannot be read`);
    try {
      const { keyId, publicKey } = publicKeyFromPem(pem);
      keys.set(keyId, publicKey);
    } catch (error) {
      throw usageError('key_file_invalid', `--key ${file}: ${(error as Error).message.split('\n')[0] ?? 'not a public key'}`);
    }
  }
  return keys;
}
