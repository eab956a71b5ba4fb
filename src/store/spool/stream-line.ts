/**
 * One row of a spool stream file: `wallet TAB status TAB key TAB row TAB raw`, so that a reader can pass
 * over what it does not want without parsing JSON: a reader that decodes only the rows it keeps,
 * and never their `raw`, does a fraction of the work.
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
 * - `row` is an object's JSON, or (`[`…) the array of its values in the order of the file's last
 *   shape line (`!["key",…]`, row-shape.ts): a page's rows share their keys, written once a page.
 *
 * This is the one line format a stream file holds: a file of an earlier format (a row alone per
 * line) is pulled again when its run resumes (spool-files.ts `inEarlierFormat`), never read.
 */
import { decodeJson, decodeRow, rowJson } from './row-codec.js';
import { PageShape, readShapeLine, SHAPE_MARK, type RowShape } from './row-shape.js';

export interface LineHints {
  wallet: string;
  status: string;
  key?: string;
}

const SAFE = /^[A-Za-z0-9_.:-]*$/;
const TAB = '\t';

/**
 * One row's line with its row as an object (what a page holds for a row whose keys cannot be a
 * shape). The spool writes pages (`encodeStreamPage`); this is the reference its tests read a page
 * back against.
 */
export function encodeStreamLine(row: object, hints: LineHints): string {
  return withoutRaw(row, (r) => `${head(hints)}${rowJson(r)}${rawMark(r)}\n`);
}

/**
 * A page's lines, as one string each: a shape line before the first row and wherever the keys
 * change, then each row as its values (row-shape.ts); a row whose keys cannot be a shape is
 * written as an object.
 */
export function encodeStreamPage<T extends object>(rows: readonly T[], hintsOf: (row: T) => LineHints): string[] {
  const lines: string[] = [];
  let shape: PageShape | null = null;
  for (const row of rows) {
    // an array's JSON would read back as a positional row
    if (Array.isArray(row)) throw new Error('a spool row is an object, not an array');
    lines.push(
      withoutRaw(row, (r) => {
        if (shape === null || !shape.fits(r)) {
          shape = PageShape.of(r);
          if (shape !== null) lines.push(`${shape.line()}\n`);
        }
        const text = shape === null ? rowJson(r) : rowJson(shape.values(r));
        return `${head(hintsOf(row))}${text}${rawMark(r)}\n`;
      }),
    );
  }
  return lines;
}

function head(hints: LineHints): string {
  const wallet = SAFE.test(hints.wallet) ? hints.wallet : '';
  const status = SAFE.test(hints.status) ? hints.status : '';
  const key = hints.key !== undefined && SAFE.test(hints.key) ? hints.key : '';
  return `${wallet}${TAB}${status}${TAB}${key}${TAB}`;
}

/** `-` when the row had a `raw` field (read back as null), nothing when it had none. */
function rawMark(row: object): string {
  return Object.prototype.hasOwnProperty.call(row, 'raw') ? `${TAB}-` : TAB;
}

/**
 * JSON.stringify leaves out a key whose value is undefined: `raw` is hidden for this synchronous
 * call instead of copying the row without it (a rest-spread copy of a 46-key row cost more than
 * stringifying it), and put back before anything else can see the row.
 */
function withoutRaw<R>(row: object, encode: (row: object) => R): R {
  if (!Object.prototype.hasOwnProperty.call(row, 'raw')) return encode(row);
  const holder = row as { raw: unknown };
  const raw = holder.raw;
  holder.raw = undefined;
  try {
    return encode(row);
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
    private readonly shape: RowShape | null,
  ) {}

  decode<T>(): T {
    const row = decodeRowText(this.line.slice(this.rowStart, this.rowEnd), this.shape);
    if (this.rowEnd + 1 < this.line.length) row.raw = null;
    return row as T;
  }
}

/**
 * One stream file's lines, read in order: a shape line sets the keys of the positional rows after
 * it (row-shape.ts), so a reader is made per file and fed every line of it.
 */
export class StreamLineReader {
  private shape: RowShape | null = null;

  /** The hints of a line, or null for a shape line. */
  split(line: string): SplitLine | null {
    if (line.charCodeAt(0) === SHAPE_MARK) {
      this.shape = readShapeLine(line);
      return null;
    }
    const walletEnd = line.indexOf(TAB);
    const statusEnd = line.indexOf(TAB, walletEnd + 1);
    const keyEnd = line.indexOf(TAB, statusEnd + 1);
    const rowEnd = line.indexOf(TAB, keyEnd + 1);
    if (walletEnd < 0 || statusEnd < 0 || keyEnd < 0 || rowEnd < 0) throw new Error('corrupt spool line: missing a separator');
    return new SplitLine(line, line.slice(0, walletEnd), line.slice(walletEnd + 1, statusEnd), line.slice(statusEnd + 1, keyEnd), keyEnd + 1, rowEnd, this.shape);
  }

  /** The row of one line, or undefined for a shape line or when the hints alone show the filter does not want it (no object but the row made). */
  row<T>(line: string, filter: LineFilter): T | undefined {
    const first = line.charCodeAt(0);
    if (first === SHAPE_MARK) {
      this.shape = readShapeLine(line);
      return undefined;
    }
    const walletEnd = line.indexOf(TAB);
    const statusEnd = line.indexOf(TAB, walletEnd + 1);
    const keyEnd = line.indexOf(TAB, statusEnd + 1);
    const rowEnd = line.indexOf(TAB, keyEnd + 1);
    if (walletEnd < 0 || statusEnd < 0 || keyEnd < 0 || rowEnd < 0) throw new Error('corrupt spool line: missing a separator');
    if (filter.wallet !== undefined && walletEnd > 0 && (walletEnd !== filter.wallet.length || !line.startsWith(filter.wallet))) return undefined;
    if (filter.statuses !== undefined && statusEnd > walletEnd + 1 && !filter.statuses.has(line.slice(walletEnd + 1, statusEnd))) return undefined;
    const row = decodeRowText(line.slice(keyEnd + 1, rowEnd), this.shape);
    if (rowEnd + 1 < line.length) row.raw = null;
    return row as T;
  }
}

/** The row of one line read alone (no shape line before it: a row written as an object); for tests and tools. */
export function decodeStreamLine<T>(line: string, filter: LineFilter): T | undefined {
  return new StreamLineReader().row<T>(line, filter);
}

function decodeRowText(text: string, shape: RowShape | null): Record<string, unknown> {
  if (text.charCodeAt(0) !== 91 /* [ */) return decodeRow<Record<string, unknown>>(text);
  if (shape === null) throw new Error('corrupt spool line: a positional row before any shape line');
  return shape.build(decodeJson(text));
}
