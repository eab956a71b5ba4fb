/**
 * Reading the spool's stream files back (spool-store.ts): the selected streams one file at a time,
 * each cut at its checkpointed length (pages of other streams may be landing meanwhile), each line
 * decoded only when its hints do not already rule it out (stream-line.ts).
 */
import { closeSync, existsSync, fstatSync, openSync, readSync } from 'node:fs';
import { join } from 'node:path';
import { utf8Lines } from '../../util/utf8-text.js';
import type { StreamState } from './spool-state.js';
import { StreamLineReader, type LineFilter, type SplitLine } from './stream-line.js';

export const ALL_ROWS: LineFilter = {};

/**
 * The bytes of each selected stream file, cut at its checkpointed length (`length` counts bytes, and
 * pages of other streams may be landing meanwhile), in stream order. One buffer serves the whole
 * pass, grown to the largest file: the previous file's bytes are overwritten, so a caller takes
 * what it needs (lines decoded into their own strings) before asking for the next.
 */
function* streamFiles(streamsDir: string, streams: readonly StreamState[]): Generator<{ bytes: Buffer; end: number }> {
  const sorted = [...streams].sort((a, b) => cmp(a.checkpoint.stream, b.checkpoint.stream));
  let buffer = Buffer.alloc(0);
  for (const stream of sorted) {
    const path = join(streamsDir, stream.file);
    if (!existsSync(path)) continue;
    // the file is closed before its bytes are handed on: a caller may await between files
    const fd = openSync(path, 'r');
    let end = 0;
    try {
      const want = Math.min(stream.length, fstatSync(fd).size);
      if (buffer.length < want) buffer = Buffer.allocUnsafe(want);
      while (end < want) {
        const read = readSync(fd, buffer, end, want - end, end);
        if (read === 0) break;
        end += read;
      }
    } finally {
      closeSync(fd);
    }
    yield { bytes: buffer, end };
  }
}

/**
 * Each selected stream file as its lines, each decoded into its own string (util/utf8-text.ts), and
 * the reader they go through (a file's shape lines apply to its own rows only). Per file, not per
 * line: nothing is allocated per line to pair the two.
 */
function* streamFileLines(streamsDir: string, streams: readonly StreamState[]): Generator<{ lines: Iterable<string>; reader: StreamLineReader }> {
  for (const { bytes, end } of streamFiles(streamsDir, streams)) yield { lines: utf8Lines(bytes, end), reader: new StreamLineReader() };
}

/**
 * The last copy of each keyed row of `wallet` whose status hint passes `keep`, decoding only those
 * (the Open items sheet reads ~1 % of the payments); rows without a key hint are decoded and
 * returned first, in file order, for the caller's own de-duplication.
 */
export function latestRows<T>(streamsDir: string, streams: readonly StreamState[], wallet: string, keep: (status: string) => boolean): T[] {
  const loose: T[] = [];
  const latest = new Map<string, SplitLine>();
  for (const { lines, reader } of streamFileLines(streamsDir, streams)) {
    for (const line of lines) {
      const split = reader.split(line);
      if (split === null) continue;
      else if (split.wallet !== '' && split.wallet !== wallet) continue;
      else if (split.key === '' || split.status === '') loose.push(split.decode<T>());
      else latest.set(split.key, split);
    }
  }
  for (const split of latest.values()) if (keep(split.status)) loose.push(split.decode<T>());
  return loose;
}

/**
 * The payment ids that `wallet`'s ledger lines name at an effective time `within` accepts, read
 * from the lines' hints (stream-line.ts); a line without both hints (no payment named, an id that
 * could not be a hint) is decoded. Copies of one entry name the same
 * payment at the same time, so no de-duplication is needed.
 */
export function namedPaymentIds(streamsDir: string, streams: readonly StreamState[], wallet: string, within: (instant: string) => boolean): Set<string> {
  const named = new Set<string>();
  for (const { lines, reader } of streamFileLines(streamsDir, streams)) {
    for (const line of lines) {
      const split = reader.split(line);
      if (split === null) continue;
      if (split.wallet !== '' && split.wallet !== wallet) continue;
      if (split.wallet === wallet && split.key !== '' && split.status !== '') {
        if (within(split.status)) named.add(split.key);
        continue;
      }
      const row = split.decode<NamedPayment>();
      if (row.wallet_id === wallet && row.payment_id !== null && within(row.effective_time)) named.add(row.payment_id);
    }
  }
  return named;
}

interface NamedPayment {
  wallet_id: string;
  payment_id: string | null;
  effective_time: string;
}

/** The rows of each selected stream file, a file at a time, so a caller that keeps little holds one file, not all. */
export function* streamFileRows<T>(streamsDir: string, streams: readonly StreamState[], filter: LineFilter = ALL_ROWS): Generator<T[]> {
  for (const { bytes, end } of streamFiles(streamsDir, streams)) {
    const rows: T[] = [];
    const reader = new StreamLineReader();
    for (const line of utf8Lines(bytes, end)) {
      const row = reader.row<T>(line, filter);
      if (row !== undefined) rows.push(row);
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
