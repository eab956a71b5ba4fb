/**
 * `--shard K/N`: which wallets this worker pulls. A stable hash of the wallet id (sha256, first
 * 8 bytes, mod N) so N workers — a Kubernetes Indexed Job or N cron hosts — split the wallets
 * without overlap or coordination, and the split never depends on list order or on time.
 */
import { createHash } from 'node:crypto';
import { usageError } from './errors.js';

export interface Shard {
  index: number;
  count: number;
}

export function parseShard(text: string | undefined): Shard | undefined {
  if (text === undefined) return undefined;
  const m = /^(\d+)\/(\d+)$/.exec(text);
  const index = Number(m?.[1]);
  const count = Number(m?.[2]);
  if (!m || count < 1 || index >= count) throw usageError('bad_shard', `invalid --shard '${text}' (expected K/N with 0 <= K < N)`);
  return { index, count };
}

export function shardOf(walletId: string, count: number): number {
  const digest = createHash('sha256').update(walletId.toLowerCase()).digest();
  return Number(digest.readBigUInt64BE(0) % BigInt(count));
}

export function inShard(walletId: string, shard: Shard | undefined): boolean {
  return shard === undefined || shardOf(walletId, shard.count) === shard.index;
}
