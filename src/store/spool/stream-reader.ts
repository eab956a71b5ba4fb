/**
 * Reading the spool's stream files back (spool-store.ts): the selected streams one file at a time,
 * each cut at its checkpointed length (pages of other streams may be landing meanwhile), each line
 * decoded only when its hints do not already rule it out (stream-line.ts).
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { StreamState } from './spool-state.js';
import { decodeStreamLine, type LineFilter } from './stream-line.js';

export const ALL_ROWS: LineFilter = {};

/** The rows of each selected stream file, a file at a time, so a caller that keeps little holds one file, not all. */
export function* streamFileRows<T>(streamsDir: string, streams: readonly StreamState[], filter: LineFilter = ALL_ROWS): Generator<T[]> {
  const sorted = [...streams].sort((a, b) => cmp(a.checkpoint.stream, b.checkpoint.stream));
  for (const stream of sorted) {
    const path = join(streamsDir, stream.file);
    if (!existsSync(path)) continue;
    // `length` counts bytes: cut the bytes, then decode
    const text = readFileSync(path).subarray(0, stream.length).toString('utf8');
    const rows: T[] = [];
    for (let start = 0; start < text.length; ) {
      let end = text.indexOf('\n', start);
      if (end < 0) end = text.length;
      if (end > start) {
        const row = decodeStreamLine<T>(text.slice(start, end), filter);
        if (row !== undefined) rows.push(row);
      }
      start = end + 1;
    }
    yield rows;
  }
}

export function streamRows<T>(streamsDir: string, streams: readonly StreamState[], filter: LineFilter = ALL_ROWS): T[] {
  const out: T[] = [];
  for (const rows of streamFileRows<T>(streamsDir, streams, filter)) for (const row of rows) out.push(row);
  return out;
}

export function cmp(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
