/**
 * The evidence of sharded pulls (docs/audit.md#sharded-pulls): a shard writes no report, but it
 * keeps the journal of its pull under the output root (`.audit/runs/`), its first line naming the
 * organization, the window and the shard (`K/N`). The `report` that builds the files after the
 * shards copies those journals into its folder, so the pull's completeness is on record there as
 * it is for one export.
 *
 * Chosen: the shards of the organization and window whose shard count is that of the newest
 * journal (shards rerun with another count leave older journals behind); one journal per shard
 * (its run key names the file, so a shard pulled again replaced its own). A shard whose journal is
 * not under this root — pulled on a machine with another output root — is named in a warning, and
 * its requests are not on record in the folder.
 */
import { open, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { Window } from '../model/window.js';
import type { Logger } from '../util/log.js';

interface ShardJournal {
  file: string;
  index: number;
  count: number;
  at: string;
  ended: boolean;
}

const SHARD = /^(\d+)\/(\d+)$/;

export async function shardJournals(outRoot: string, organizationId: string, window: Window, log: Logger): Promise<string[]> {
  const dir = join(outRoot, '.audit', 'runs');
  const names = (await readdir(dir).catch(() => [] as string[])).filter((n) => n.endsWith('.jsonl')).sort();
  const found: ShardJournal[] = [];
  for (const name of names) {
    const file = join(dir, name);
    const { first, last } = await edges(file);
    const run = parse(first);
    const shard = typeof run?.['shard'] === 'string' ? SHARD.exec(run['shard']) : null;
    const w = run?.['window'] as { from?: unknown; to?: unknown } | null | undefined;
    if (run?.['t'] !== 'run' || shard === null || String(run['organization_id']).toLowerCase() !== organizationId.toLowerCase() || w?.from !== window.from || w?.to !== window.to) continue;
    found.push({ file, index: Number(shard[1]), count: Number(shard[2]), at: String(run['at']), ended: parse(last)?.['t'] === 'end' });
  }
  if (found.length === 0) return [];
  const newest = found.reduce((a, b) => (b.at > a.at ? b : a));
  const chosen = found.filter((j) => j.count === newest.count).sort((a, b) => a.index - b.index);
  const missing = Array.from({ length: newest.count }, (_, k) => k).filter((k) => !chosen.some((j) => j.index === k));
  if (missing.length > 0) log.warn({ shards: missing.map((k) => `${k}/${newest.count}`) }, `the evidence of shard(s) ${missing.map((k) => `${k}/${newest.count}`).join(', ')} is not under ${dir}: their requests are not on record in the folder (run the shards with this output root)`);
  const unfinished = chosen.filter((j) => !j.ended);
  if (unfinished.length > 0) log.warn({ shards: unfinished.map((j) => `${j.index}/${j.count}`) }, 'a shard\'s pull did not finish: its evidence ends without an end line, and payexport verify will say so');
  return chosen.map((j) => j.file);
}

function parse(line: string): Record<string, unknown> | null {
  try {
    const value = JSON.parse(line) as unknown;
    return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

/** The first and last lines of a journal, read from its two ends (a journal can be large). */
async function edges(file: string): Promise<{ first: string; last: string }> {
  const handle = await open(file, 'r');
  try {
    const { size } = await handle.stat();
    const span = Math.min(size, 64 * 1024);
    const head = Buffer.alloc(span);
    await handle.read(head, 0, span, 0);
    const tail = Buffer.alloc(span);
    await handle.read(tail, 0, span, size - span);
    const lines = tail.toString('utf8').split('\n').filter((l) => l !== '');
    return { first: head.toString('utf8').split('\n')[0] ?? '', last: lines[lines.length - 1] ?? '' };
  } finally {
    await handle.close();
  }
}
