/**
 * A small RFC 4180 reader for the input files a user hands the tax pass (a broker's Form 1099-DA
 * data): fields separated by `,`, a field holding `,`, `"` or a line break enclosed in `"` with its
 * quotes doubled, records ended by CRLF or LF, a leading byte-order mark skipped. A quote where
 * none may be is an error naming the line, never a guess: half a file would misstate a return.
 */
export class CsvTextError extends Error {
  constructor(
    readonly line: number,
    message: string,
  ) {
    super(message);
  }
}

/** The records of `text`, each with the 1-based line it starts on; blank lines are skipped. */
export function csvRecords(text: string): Array<{ line: number; fields: string[] }> {
  const out: Array<{ line: number; fields: string[] }> = [];
  const s = text.replace(/^\uFEFF/, '');
  let line = 1;
  let start = 1;
  let fields: string[] = [];
  let field = '';
  let quoted = false;
  let afterQuote = false;
  const endRecord = (): void => {
    fields.push(field);
    if (!(fields.length === 1 && fields[0] === '')) out.push({ line: start, fields });
    fields = [];
    field = '';
    afterQuote = false;
  };
  for (let i = 0; i < s.length; i++) {
    const c = s[i] as string;
    if (quoted) {
      if (c === '"' && s[i + 1] === '"') {
        field += '"';
        i++;
      } else if (c === '"') {
        quoted = false;
        afterQuote = true;
      } else {
        if (c === '\n') line++;
        field += c;
      }
      continue;
    }
    if (c === ',') {
      fields.push(field);
      field = '';
      afterQuote = false;
    } else if (c === '\n' || (c === '\r' && s[i + 1] === '\n')) {
      if (c === '\r') i++;
      endRecord();
      line++;
      start = line;
    } else if (c === '"') {
      if (field !== '' || afterQuote) throw new CsvTextError(line, 'a quote inside an unquoted field');
      quoted = true;
    } else {
      if (afterQuote) throw new CsvTextError(line, 'text after a closing quote');
      field += c;
    }
  }
  if (quoted) throw new CsvTextError(line, 'a quoted field is not closed');
  if (field !== '' || fields.length > 0) endRecord();
  return out;
}
