/**
 * Spreadsheet-safe cell values: the one place that decides how hostile text and big numbers reach
 * Excel, LibreOffice and Google Sheets (docs/reliability.md#spreadsheet-fidelity; SEC-05, API-13).
 *
 * - Formula injection: a TEXT cell whose first character is `= + - @`, TAB, CR, LF, NUL or a
 *   full-width `＝ ＋ － ＠` gets a leading `'` — in CSV and XLSX alike. That set is the union of
 *   OWASP (incl. LF), ASVS 1.2.10 (NUL) and Mescius (full-width); csv-stringify's
 *   `escape_formulas` covers only `= + - @ \t \r`, so it is not used. Amount columns are rendered
 *   from bigint by construction (`^-?\d+(\.\d+)?$`) and never prefixed: a negative amount stays a
 *   number.
 * - XML: XLSX text cannot hold C0 controls other than TAB/LF/CR (exceljs silently drops them, so a
 *   NUL would vanish without a trace). They become the visible Control Pictures U+2400–U+241F
 *   (NUL → `␀`), lone surrogates become U+FFFD, and text over Excel's 32,767-character cell limit is
 *   cut with a marker, and CR / CRLF line breaks become LF (XML end-of-line handling would do it on
 *   reading anyway). The CSV keeps the original text.
 * - Numbers: Excel keeps 15 significant digits. An amount becomes a numeric cell only when its
 *   digits fit; otherwise it is a text cell holding the exact digits.
 */

/** Excel's limits (Microsoft "Excel specifications and limits"). */
export const EXCEL_MAX_ROWS = 1_048_576;
export const EXCEL_MAX_CELL_TEXT = 32_767;
export const EXCEL_MAX_DIGITS = 15;

const FORMULA_TRIGGERS: ReadonlySet<string> = new Set(['=', '+', '-', '@', '\t', '\r', '\n', '\0', '\uFF1D', '\uFF0B', '\uFF0D', '\uFF20']);

/** The characters that make a leading `'` necessary (exported for tests and docs). */
export const FORMULA_TRIGGER_CHARS: readonly string[] = [...FORMULA_TRIGGERS];

/** `text` with a leading `'` when a spreadsheet could read it as a formula. */
export function neutralizeFormula(text: string): string {
  // Most cells start with a letter or a digit: every trigger is a character up to CR, one of
  // `+ - = @`, or a full-width form from U+FF0B on, so the Set is asked only about those.
  const first = text.charCodeAt(0);
  if (first > 0x0d && first < 0xff0b && first !== 0x2b && first !== 0x2d && first !== 0x3d && first !== 0x40) return text;
  return text.length > 0 && FORMULA_TRIGGERS.has(text[0] as string) ? `'${text}` : text;
}

// C0 controls except TAB (09), LF (0A), CR (0D); DEL; lone surrogates. Matching control
// characters is the point here.
// eslint-disable-next-line no-control-regex
const XML_UNSAFE = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/u;
const XML_UNSAFE_GLOBAL = new RegExp(XML_UNSAFE.source, 'gu');
const TRUNCATION_MARK = ' […truncated: Excel cells hold 32,767 characters; the CSV has the full text]';

export interface XlsxText {
  text: string;
  /** control characters were replaced by visible symbols */
  replaced: boolean;
  truncated: boolean;
}

/**
 * True when `xlsxText` has nothing to change: no CR, no C0 control but TAB and LF, no DEL, no
 * surrogate (a valid pair is fine, but the regexes decide that), within the length limit. One
 * native scan (without the `u` flag a class matches code units, so any surrogate, paired or not)
 * instead of a CR search and a Unicode regex with look-arounds, and cheaper than a loop over the
 * code units. Callers that find the text plain use it as it is.
 */
// eslint-disable-next-line no-control-regex
const NOT_PLAIN = /[\u0000-\u0008\u000B-\u001F\u007F\uD800-\uDFFF]/;

export function plainCellText(text: string): boolean {
  return text.length <= EXCEL_MAX_CELL_TEXT && !NOT_PLAIN.test(text);
}

/** Text as an XLSX cell can hold it (see file comment); call on already-neutralized text. */
export function xlsxText(text: string): XlsxText {
  if (plainCellText(text)) return { text, replaced: false, truncated: false };
  // XML end-of-line handling turns a raw CR (and CRLF) into LF on reading, and exceljs writes CR
  // raw: normalise here so what is written is what every reader sees.
  let out = text.includes('\r') ? text.replace(/\r\n?/g, '\n') : text;
  let replaced = false;
  if (XML_UNSAFE.test(out)) {
    replaced = true;
    out = out.replace(XML_UNSAFE_GLOBAL, (ch) => {
      const code = ch.charCodeAt(0);
      if (code <= 0x1f) return String.fromCharCode(0x2400 + code);
      if (code === 0x7f) return '\u2421';
      return '\uFFFD';
    });
  }
  let truncated = false;
  if (out.length > EXCEL_MAX_CELL_TEXT) {
    truncated = true;
    let cut = EXCEL_MAX_CELL_TEXT - TRUNCATION_MARK.length;
    // never split a surrogate pair
    const last = out.charCodeAt(cut - 1);
    if (last >= 0xd800 && last <= 0xdbff) cut -= 1;
    out = out.slice(0, cut) + TRUNCATION_MARK;
  }
  return { text: out, replaced, truncated };
}

/** The smallest integer with 16 digits: `|base|` below it has at most 15, and no string is made to count them. */
const SIXTEEN_DIGITS = 10n ** BigInt(EXCEL_MAX_DIGITS);

/**
 * True when `base` (an integer, possibly shown with a decimal point) has at most 15 digits, so
 * the nearest double shows exactly the same digits in Excel. Conservative on purpose: trailing
 * zeros count, so `fitsExcelNumber` depends only on magnitude, never on luck.
 */
export function fitsExcelNumber(base: bigint): boolean {
  return base < SIXTEEN_DIGITS && base > -SIXTEEN_DIGITS;
}

const PLAIN_DECIMAL = /^-?\d+(?:\.\d+)?$/;

/** A decimal string (`-12.50`, `3`) that may become a numeric cell: plain digits and ≤ 15 of them. */
export function decimalFitsExcel(text: string): boolean {
  if (!PLAIN_DECIMAL.test(text)) return false;
  const digits = text.replace(/[-.]/g, '').replace(/^0+(?=\d)/, '');
  return digits.length <= EXCEL_MAX_DIGITS;
}

export function isPlainDecimal(text: string): boolean {
  return PLAIN_DECIMAL.test(text);
}
