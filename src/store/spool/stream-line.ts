/**
 * One row of a spool stream file: `wallet TAB status TAB key TAB row TAB raw`, so that a reader can pass
 * over what it does not want without parsing JSON (issue 41: the spool decoded each row several
 * times, `raw` included, although every report asks `withoutRaw`).
 *
 * - `wallet`, `status` and `key` are hints for skipping: the row's wallet, and for a payment its
 *   status class and its natural key (the payment id), for a ledger entry its effective time and
 *   the payment it names — or empty when unknown; a hint that could be mistaken for a separator is
 *   left empty, and a row kept by the hints is still checked on its decoded fields. A payment's key
 *   lets a reader keep the last copy of each payment before decoding any; a ledger entry's hints
 *   let the pull's orphan check run without decoding the wallet's ledger (spool-reader.ts).
 * - `row` is the row without its `raw` field (row-codec.ts). The spool keeps no `raw` payload: every
 *   reader of a spool asks `withoutRaw` (reports, journals, lots, the pull's own checks), `report
 *   --no-db` is refused, and a finished run's spool is removed — so a row that had the field is
 *   read back with `raw: null` (the last part is `-`), as the database answers `withoutRaw`, and one
 *   that had none (summaries, bills) without it (the last part empty). JSON text holds no raw TAB
 *   or newline.
 * - A line that starts with `{` is a whole row encoded alone (files written before this format).
 */
import { decodeRow, encodeRow } from './row-codec.js';

export interface LineHints {
  wallet: string;
  status: string;
  key?: string;
}

const SAFE = /^[A-Za-z0-9_.:-]*$/;
const TAB = '\t';

export function encodeStreamLine(row: object, hints: LineHints): string {
  const wallet = SAFE.test(hints.wallet) ? hints.wallet : '';
  const status = SAFE.test(hints.status) ? hints.status : '';
  const key = hints.key !== undefined && SAFE.test(hints.key) ? hints.key : '';
  const head = `${wallet}${TAB}${status}${TAB}${key}${TAB}`;
  if (!Object.prototype.hasOwnProperty.call(row, 'raw')) return `${head}${encodeRow(row)}${TAB}\n`;
  // JSON.stringify leaves out a key whose value is undefined: `raw` is hidden for this synchronous
  // call instead of copying the row without it (a rest-spread copy of a 46-key row cost more than
  // stringifying it), and put back before anything else can see the row
  const holder = row as { raw: unknown };
  const raw = holder.raw;
  holder.raw = undefined;
  try {
    return `${head}${encodeRow(row)}${TAB}-\n`;
  } finally {
    holder.raw = raw;
  }
}

export interface LineFilter {
  /** rows of this wallet only (the hint skips the others unparsed) */
  wallet?: string;
  /** rows whose status class is one of these only */
  statuses?: ReadonlySet<string>;
}

/** A line's hints, read without parsing its JSON; its row decoded on demand. */
export class SplitLine {
  constructor(
    private readonly line: string,
    readonly wallet: string,
    readonly status: string,
    readonly key: string,
    private readonly rowStart: number,
    private readonly rowEnd: number,
  ) {}

  decode<T>(): T {
    const row = decodeRow<Record<string, unknown>>(this.line.slice(this.rowStart, this.rowEnd));
    if (this.rowEnd + 1 < this.line.length) row.raw = null;
    return row as T;
  }
}

/** The hints of a line, or null for a line of the format before (a whole row, no hints). */
export function splitStreamLine(line: string): SplitLine | null {
  if (line.charCodeAt(0) === 123 /* { */) return null;
  const walletEnd = line.indexOf(TAB);
  const statusEnd = line.indexOf(TAB, walletEnd + 1);
  const keyEnd = line.indexOf(TAB, statusEnd + 1);
  const rowEnd = line.indexOf(TAB, keyEnd + 1);
  if (walletEnd < 0 || statusEnd < 0 || keyEnd < 0 || rowEnd < 0) throw new Error('corrupt spool line: missing a separator');
  return new SplitLine(line, line.slice(0, walletEnd), line.slice(walletEnd + 1, statusEnd), line.slice(statusEnd + 1, keyEnd), keyEnd + 1, rowEnd);
}

/** The row of one line, or undefined when the hints alone show the filter does not want it (no object but the row made). */
export function decodeStreamLine<T>(line: string, filter: LineFilter): T | undefined {
  if (line.charCodeAt(0) === 123 /* { */) return decodeRow<T>(line);
  const walletEnd = line.indexOf(TAB);
  const statusEnd = line.indexOf(TAB, walletEnd + 1);
  const keyEnd = line.indexOf(TAB, statusEnd + 1);
  const rowEnd = line.indexOf(TAB, keyEnd + 1);
  if (walletEnd < 0 || statusEnd < 0 || keyEnd < 0 || rowEnd < 0) throw new Error('corrupt spool line: missing a separator');
  if (filter.wallet !== undefined && walletEnd > 0 && (walletEnd !== filter.wallet.length || !line.startsWith(filter.wallet))) return undefined;
  if (filter.statuses !== undefined && statusEnd > walletEnd + 1 && !filter.statuses.has(line.slice(walletEnd + 1, statusEnd))) return undefined;
  const row = decodeRow<Record<string, unknown>>(line.slice(keyEnd + 1, rowEnd));
  if (rowEnd + 1 < line.length) row.raw = null;
  return row as T;
}
