/**
 * A user's price file: CSV `timestamp,price` (a header line is allowed), one row per observation,
 * the price in the books' currency per whole unit (1 BTC, 1 USD, 1 asset display unit). Lookup
 * follows the usual subledger rule: the last price at or before the movement, and none when the
 * movement precedes the file or the price is older than the allowed staleness — then the entry
 * "needs price" (an exception), never a silent zero.
 *
 * A bad file is a configuration error (exit 78) naming the line: a price table that is half read
 * would value some entries and not others. A header may name more columns after `timestamp,price`
 * (the price cache's source, interval and fetch time, docs/prices.md#cache): they are ignored, but
 * every row must have them all.
 */
import { readFileSync } from 'node:fs';
import type { UtcInstant } from '../model/rows.js';
import { configError } from '../util/errors.js';
import { toUtcInstant } from '../model/instant.js';

export interface PricePoint {
  at: UtcInstant;
  /** the price's digits and decimals: `86552.12` → { digits: 8655212n, decimals: 2 } */
  digits: bigint;
  decimals: number;
  text: string;
  /** what the journal's `rate_source` says of a price from this table */
  source: PriceLabel;
}

/** `price_file` for the user's file, `price_cache:<source>:<interval>` for the cache (docs/prices.md#policy). */
export type PriceLabel = 'price_file' | `price_cache:${string}`;

/** The last price at or before an instant: one table, or several tried in order (price-chain.ts). */
export interface PriceLookup {
  at(at: UtcInstant): PricePoint | null;
  /** the first instant in [fromMs, toMs) without a usable price, or null when the span is covered */
  firstUncoveredMs(fromMs: number, toMs: number): number | null;
}

const PRICE = /^(0|[1-9][0-9]*)(?:\.([0-9]{1,18}))?$/;

export class PriceTable implements PriceLookup {
  private constructor(
    readonly currency: string,
    private readonly points: readonly PricePoint[],
    private readonly maxStalenessMs: number,
  ) {}

  static parse(currency: string, text: string, shownPath: string, maxStalenessSeconds: number, source: PriceLabel = 'price_file'): PriceTable {
    const points: PricePoint[] = [];
    const lines = text.replace(/^\uFEFF/, '').split(/\r?\n/);
    const header = /^timestamp\s*,\s*price\s*(,|$)/i.test(lines[0]?.trim() ?? '') ? (lines[0] as string).split(',').length : null;
    lines.forEach((raw, index) => {
      const line = raw.trim();
      if (line === '' || (index === 0 && /^timestamp\s*,/i.test(line))) return;
      const [timeText, priceText, ...rest] = line.split(',').map((s) => s.trim());
      const at = timeText === undefined ? null : toUtcInstant(timeText);
      const m = priceText === undefined ? null : PRICE.exec(priceText);
      if (at === null || m === null || rest.length !== (header ?? 2) - 2 || (m[1] === '0' && /^0*$/.test(m[2] ?? ''))) {
        throw configError('price_file_invalid', `price file '${shownPath}' line ${index + 1}: expected "timestamp,price" (RFC 3339 time, a positive plain decimal), got '${line.slice(0, 80)}'`);
      }
      const fraction = m[2] ?? '';
      points.push({ at, digits: BigInt(`${m[1] ?? ''}${fraction}`), decimals: fraction.length, text: priceText as string, source });
    });
    points.sort((a, b) => (a.at < b.at ? -1 : a.at > b.at ? 1 : 0));
    for (let i = 1; i < points.length; i++) {
      if ((points[i] as PricePoint).at === (points[i - 1] as PricePoint).at) throw configError('price_file_invalid', `price file '${shownPath}': two prices at ${(points[i] as PricePoint).at}`);
    }
    return new PriceTable(currency, points, maxStalenessSeconds * 1000);
  }

  static load(currency: string, path: string, shownPath: string, maxStalenessSeconds: number, source: PriceLabel = 'price_file'): PriceTable {
    let text: string;
    try {
      text = readFileSync(path, 'utf8');
    } catch (error) {
      throw configError('price_file_unreadable', `cannot read price file '${shownPath}': ${(error as NodeJS.ErrnoException).code ?? 'error'}`);
    }
    return PriceTable.parse(currency, text, shownPath, maxStalenessSeconds, source);
  }

  /** The last price at or before `at`, if not older than the staleness limit. */
  at(at: UtcInstant): PricePoint | null {
    let lo = 0;
    let hi = this.points.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if ((this.points[mid] as PricePoint).at <= at) lo = mid + 1;
      else hi = mid;
    }
    const point = this.points[lo - 1];
    if (point === undefined) return null;
    if (Date.parse(at.slice(0, 23) + 'Z') - Date.parse(point.at.slice(0, 23) + 'Z') > this.maxStalenessMs) return null;
    return point;
  }

  /**
   * The first millisecond of `[fromMs, toMs)` at which `at()` would find no price (none before it,
   * or the last one older than the staleness limit), or null when the whole span is priced — what
   * `payexport doctor` checks the open period against.
   */
  firstUncoveredMs(fromMs: number, toMs: number): number | null {
    const ms = (p: PricePoint): number => Date.parse(p.at.slice(0, 23) + 'Z');
    let covered = fromMs;
    for (let i = 0; i < this.points.length && covered < toMs; i++) {
      const start = ms(this.points[i] as PricePoint);
      if (start > covered) return covered;
      // a point priced from `start` until it grows stale; the next one may take over before that
      covered = Math.max(covered, start + this.maxStalenessMs + 1);
    }
    return covered < toMs ? covered : null;
  }
}
