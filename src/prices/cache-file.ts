/**
 * One file of the price cache (docs/prices.md#cache): `<source>.<BASE-QUOTE>.<interval>.csv` in the
 * price-file format the journal reads (`timestamp,price`, docs/journal.md#valuation), with extra
 * columns the journal ignores:
 *
 *   timestamp,price,source,interval,close_of,observed_at,fetched_at
 *   2026-10-01T04:00:00Z,61234.5,kraken,1h,UTC hour 2026-10-01T03,2026-10-01T04:00:00Z,2026-11-27T03:50:12Z
 *
 * `timestamp` is the bucket's END (the instant its close is known); `close_of` says which UTC hour
 * or day it closes. The file only grows: rows are appended (a new file written beside it and
 * renamed over it, so a killed fetch leaves the old file or the new one, never half of one), and a
 * row once written is never rewritten — so no price a closed period used can change.
 */
import { randomBytes } from 'node:crypto';
import { mkdirSync, openSync, closeSync, fsyncSync, readdirSync, readFileSync, renameSync, rmSync, writeSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { INTERVAL_SECONDS, closeOf, instantToSeconds, secondsToText, type PriceInterval } from './interval.js';
import { pairKey, type PricePair } from './pair.js';
import type { Candle } from './source.js';

export const CACHE_HEADER = 'timestamp,price,source,interval,close_of,observed_at,fetched_at';

export function cacheFileName(source: string, pair: PricePair, interval: PriceInterval): string {
  return `${source}.${pairKey(pair)}.${interval}.csv`;
}

export function cacheFilePath(cacheDir: string, source: string, pair: PricePair, interval: PriceInterval): string {
  return join(cacheDir, cacheFileName(source, pair, interval));
}

/** What the planner needs of a file: bucket start → the price written for it. */
export type CachedPrices = Map<number, string>;

/** The file's prices by bucket start; a missing file is an empty cache. A line it cannot read is an error naming it. */
export function readCachedPrices(path: string, interval: PriceInterval): CachedPrices {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return new Map();
    throw error;
  }
  const prices: CachedPrices = new Map();
  text.split('\n').forEach((line, index) => {
    if (line === '' || (index === 0 && line.startsWith('timestamp,'))) return;
    const [time, price] = line.split(',');
    const end = time === undefined ? NaN : instantToSeconds(time);
    if (!Number.isInteger(end) || price === undefined || price === '') throw new Error(`price cache '${path}' line ${index + 1} is not "timestamp,price,...": ${line.slice(0, 80)}`);
    prices.set(end - INTERVAL_SECONDS[interval], price);
  });
  return prices;
}

export interface CacheRowFacts {
  source: string;
  interval: PriceInterval;
  fetchedSec: number;
}

export function cacheRow(candle: Candle, facts: CacheRowFacts): string {
  const end = candle.startSec + INTERVAL_SECONDS[facts.interval];
  return [secondsToText(end), candle.close, facts.source, facts.interval, closeOf(candle.startSec, facts.interval), secondsToText(candle.observedSec ?? end), secondsToText(facts.fetchedSec)].join(',');
}

/**
 * Appends rows: the current bytes, then the new rows, written to a temp file in the same folder,
 * fsynced, renamed over the file, and the folder fsynced. A temp file a killed run left is removed.
 */
export function appendRows(path: string, rows: readonly string[]): void {
  if (rows.length === 0) return;
  const dir = dirname(path);
  mkdirSync(dir, { recursive: true });
  removeStaleTemps(dir, basename(path));
  let current: string;
  try {
    current = readFileSync(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    current = `${CACHE_HEADER}\n`;
  }
  if (!current.endsWith('\n')) current += '\n';
  const temp = join(dir, `.${basename(path)}.${randomBytes(4).toString('hex')}.tmp`);
  const fd = openSync(temp, 'w', 0o644);
  try {
    writeSync(fd, current + rows.join('\n') + '\n');
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  renameSync(temp, path);
  const dirFd = openSync(dir, 'r');
  try {
    fsyncSync(dirFd);
  } finally {
    closeSync(dirFd);
  }
}

function removeStaleTemps(dir: string, name: string): void {
  for (const entry of readdirSync(dir)) {
    if (entry.startsWith(`.${name}.`) && entry.endsWith('.tmp')) rmSync(join(dir, entry), { force: true });
  }
}
