/**
 * `payexport verify --chain ROOT` (docs/audit.md#verify---chain): every published folder under an
 * output root checked as an auditor would — its files against its manifest (verify.ts), its
 * manifest's signature against the trusted public keys (folder-signature.ts), the evidence of its
 * pull (evidence-check.ts) — and every job's closes and amendments against the chain they record
 * (close-chain.ts). The answer is the first break, in one line, or what was checked.
 *
 * Folders are read one at a time and each file is streamed: memory holds the manifests' digests
 * and chain links, never a file.
 */
import type { KeyObject } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { chainLinkOf, isChainRecord, sha256Hex, type ChainLink } from '../audit/chain-link.js';
import { checkFolderEvidence } from './folder-evidence.js';
import { checkFolderSignature } from './folder-signature.js';
import { MANIFEST_FILE } from './manifest.js';
import { verify } from './verify.js';

export interface ChainVerdict {
  /** the first break, in one line; null when everything holds */
  firstBreak: string | null;
  folders: number;
  closes: number;
  amendments: number;
  /** the key ids whose signatures were checked and held */
  keysUsed: string[];
  /** per job with records: its last record */
  heads: Array<{ job: string; folder: string; seq: number; manifestSha256: string }>;
}

interface Record_ {
  folder: string;
  sha256: string;
  link: ChainLink;
  amendment: boolean;
}

export async function verifyChain(root: string, keys: ReadonlyMap<string, KeyObject>): Promise<ChainVerdict> {
  const verdict: ChainVerdict = { firstBreak: null, folders: 0, closes: 0, amendments: 0, keysUsed: [], heads: [] };
  const used = new Set<string>();
  for (const job of await subfolders(root)) {
    const digests = new Map<string, string>();
    const records: Record_[] = [];
    for (const folder of await subfolders(join(root, job))) {
      const where = `${job}/${folder}`;
      const dir = join(root, job, folder);
      const bytes = await readFile(join(dir, MANIFEST_FILE)).catch(() => null);
      if (bytes === null) return broken(verdict, `${where}: no ${MANIFEST_FILE}`);
      let manifest: Record<string, unknown>;
      try {
        manifest = JSON.parse(bytes.toString('utf8')) as Record<string, unknown>;
      } catch {
        return broken(verdict, `${where}: ${MANIFEST_FILE} is not JSON`);
      }
      const files = await verify(dir);
      const problem = files.problems[0];
      if (problem !== undefined) return broken(verdict, `${where}: ${problem.path} does not match the manifest (${problem.kind}: ${problem.message})${files.problems.length > 1 ? ` and ${files.problems.length - 1} more problem(s)` : ''}`);
      const signed = await checkFolderSignature(dir, bytes, manifest, keys);
      if (!signed.ok) return broken(verdict, `${where}: ${signed.why}`);
      used.add(signed.keyId);
      const evidence = await checkFolderEvidence(dir, manifest);
      if (evidence !== null) return broken(verdict, `${where}: ${evidence}`);
      verdict.folders++;
      digests.set(folder, sha256Hex(bytes));
      if (!isChainRecord(manifest)) continue;
      const link = chainLinkOf(manifest);
      if (link === null) return broken(verdict, `${where}: a ${recordWord(manifest)} that records no place in the chain of closes`);
      records.push({ folder, sha256: sha256Hex(bytes), link, amendment: typeof manifest['amendment'] === 'number' });
    }
    const chainBreak = checkChain(job, records, digests);
    if (chainBreak !== null) return broken(verdict, chainBreak);
    verdict.amendments += records.filter((r) => r.amendment).length;
    verdict.closes += records.filter((r) => !r.amendment).length;
    const head = records.reduce<Record_ | null>((a, r) => (a === null || r.link.seq > a.link.seq ? r : a), null);
    if (head !== null) verdict.heads.push({ job, folder: head.folder, seq: head.link.seq, manifestSha256: head.sha256 });
  }
  verdict.keysUsed = [...used].sort();
  return verdict;
}

/** The records of one job, by place: 1, 2, 3, … each naming the one before by its manifest's sha256. */
function checkChain(job: string, records: readonly Record_[], digests: ReadonlyMap<string, string>): string | null {
  const bySeq = [...records].sort((a, b) => a.link.seq - b.link.seq);
  for (let i = 0; i < bySeq.length; i++) {
    const r = bySeq[i] as Record_;
    const where = `${job}/${r.folder} (record #${r.link.seq})`;
    const twin = bySeq[i + 1];
    if (twin !== undefined && twin.link.seq === r.link.seq) return `${where}: ${job}/${twin.folder} claims the same place in the chain (two closes written from one head)`;
    const previous = r.link.previous;
    if (previous === null) {
      if (r.link.seq !== 1) return `${where}: records no close before it, but is not the first`;
      if (i !== 0) return `${where}: a second start of the chain`;
      continue;
    }
    const theirs = digests.get(previous.folder);
    if (theirs === undefined) return `${where}: follows ${job}/${previous.folder}, which is not under the root (a closed folder removed or renamed)`;
    if (theirs !== previous.manifest_sha256) return `${where}: follows ${job}/${previous.folder} with manifest sha256 ${previous.manifest_sha256.slice(0, 16)}…, but that folder's manifest is ${theirs.slice(0, 16)}… (another run put in its place)`;
    const before = bySeq[i - 1];
    if (before === undefined || before.folder !== previous.folder || before.link.seq !== r.link.seq - 1) {
      return `${where}: follows ${job}/${previous.folder}, which is ${before === undefined ? 'not a close of the chain' : `not record #${r.link.seq - 1}`} (a close removed or reordered)`;
    }
  }
  return null;
}

function recordWord(manifest: Record<string, unknown>): string {
  return typeof manifest['amendment'] === 'number' ? 'amendment' : 'close';
}

function broken(verdict: ChainVerdict, line: string): ChainVerdict {
  return { ...verdict, firstBreak: line };
}

async function subfolders(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true });
  return entries.filter((e) => e.isDirectory() && !e.name.startsWith('.')).map((e) => e.name).sort();
}
