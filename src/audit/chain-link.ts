/**
 * One link of the chain of closes (docs/audit.md#the-chain-of-closes), as a manifest records it:
 * its place in its job's sequence of records and the sha256 of the manifest of the record before.
 */
import { createHash } from 'node:crypto';

export interface ChainLink {
  /** 1 for the job's first record, then one more per record */
  seq: number;
  /** the record published just before this one (null for the first) */
  previous: { folder: string; manifest_sha256: string } | null;
}

export function sha256Hex(bytes: Buffer | string): string {
  return createHash('sha256').update(bytes).digest('hex');
}

/** The chain link of a manifest, when it has one of the right shape. */
export function chainLinkOf(manifest: Record<string, unknown>): ChainLink | null {
  const chain = manifest['chain'] as { seq?: unknown; previous?: unknown } | undefined;
  if (chain === undefined || chain === null || typeof chain !== 'object' || typeof chain.seq !== 'number' || !Number.isSafeInteger(chain.seq) || chain.seq < 1) return null;
  const previous = chain.previous as { folder?: unknown; manifest_sha256?: unknown } | null | undefined;
  if (previous === null) return { seq: chain.seq, previous: null };
  if (previous === undefined || typeof previous.folder !== 'string' || typeof previous.manifest_sha256 !== 'string') return null;
  return { seq: chain.seq, previous: { folder: previous.folder, manifest_sha256: previous.manifest_sha256 } };
}

/** Close states under which a folder is a signed record (src/sinks/close-status.ts). */
const CLOSED_STATES: ReadonlySet<string> = new Set(['closed', 'closed_with_open_items']);

/** A close or an amendment: a record that is never replaced, hence a link of the chain. */
export function isChainRecord(manifest: Record<string, unknown>): boolean {
  const state = (manifest['close'] as { state?: unknown } | undefined)?.state;
  return (typeof state === 'string' && CLOSED_STATES.has(state)) || (typeof manifest['amendment'] === 'number' && manifest['amendment'] > 0);
}
