/**
 * One row of a spool stream file: `wallet TAB status TAB row TAB raw`, so that a reader can pass
 * over what it does not want without parsing JSON (issue 41: the spool decoded each row several
 * times, `raw` included, although every report asks `withoutRaw`).
 *
 * - `wallet` and `status` are hints for skipping: the row's wallet and its status class (payments),
 *   or empty when unknown; a hint that could be mistaken for a separator is left empty, and a row
 *   kept by the hints is still checked on its decoded fields.
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
}

const SAFE = /^[A-Za-z0-9_.:-]*$/;
const TAB = '\t';

export function encodeStreamLine(row: object, hints: LineHints): string {
  const wallet = SAFE.test(hints.wallet) ? hints.wallet : '';
  const status = SAFE.test(hints.status) ? hints.status : '';
  if (!Object.prototype.hasOwnProperty.call(row, 'raw')) return `${wallet}${TAB}${status}${TAB}${encodeRow(row)}${TAB}\n`;
  const { raw: _dropped, ...rest } = row as { raw: unknown };
  return `${wallet}${TAB}${status}${TAB}${encodeRow(rest)}${TAB}-\n`;
}

export interface LineFilter {
  /** rows of this wallet only (the hint skips the others unparsed) */
  wallet?: string;
  /** rows whose status class is one of these only */
  statuses?: ReadonlySet<string>;
}

/** The row of one line, or undefined when the hints alone show the filter does not want it. */
export function decodeStreamLine<T>(line: string, filter: LineFilter): T | undefined {
  if (line.charCodeAt(0) === 123 /* { */) return decodeRow<T>(line);
  const walletEnd = line.indexOf(TAB);
  const statusEnd = line.indexOf(TAB, walletEnd + 1);
  const rowEnd = line.indexOf(TAB, statusEnd + 1);
  if (walletEnd < 0 || statusEnd < 0 || rowEnd < 0) throw new Error('corrupt spool line: missing a separator');
  if (filter.wallet !== undefined && walletEnd > 0 && line.slice(0, walletEnd) !== filter.wallet) return undefined;
  if (filter.statuses !== undefined && statusEnd > walletEnd + 1 && !filter.statuses.has(line.slice(walletEnd + 1, statusEnd))) return undefined;
  const row = decodeRow<Record<string, unknown>>(line.slice(statusEnd + 1, rowEnd));
  if (rowEnd + 1 < line.length) row.raw = null;
  return row as T;
}
