/**
 * PostgreSQL text and jsonb cannot hold U+0000, and UTF-8 cannot hold a lone UTF-16 surrogate
 * (the driver would silently turn it into U+FFFD). Both can arrive in API strings (JSON allows
 * `\u0000` and `\ud800`). Rejecting the row would lose a payment, so they are escaped reversibly,
 * with U+2400 (SYMBOL FOR NULL, "␀") as the escape character:
 *
 *   U+0000        → "␀0"
 *   U+2400        → "␀␀"
 *   lone surrogate → "␀u" + 4 lowercase hex digits
 *
 * Every other string is stored unchanged, so SQL over ordinary text sees ordinary text.
 * docs/database.md documents this for people querying the snapshot.
 */
const ESC = '\u2400';
// Matching U+0000 is the point of these patterns.
// eslint-disable-next-line no-control-regex
const NEEDS_ESCAPE = /[\u0000\u2400\ud800-\udfff]/;
// eslint-disable-next-line no-control-regex
const ESCAPABLE = /\u0000|\u2400|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

export function escapeText(text: string): string {
  if (!NEEDS_ESCAPE.test(text)) return text;
  return text.replace(ESCAPABLE, (ch) => {
    if (ch === '\u0000') return `${ESC}0`;
    if (ch === ESC) return ESC + ESC;
    return `${ESC}u${ch.charCodeAt(0).toString(16).padStart(4, '0')}`;
  });
}

const ESCAPED = /\u2400(?:\u2400|0|u[0-9a-f]{4})/g;

export function unescapeText(text: string): string {
  if (!text.includes(ESC)) return text;
  return text.replace(ESCAPED, (seq) => {
    if (seq === ESC + ESC) return ESC;
    if (seq === `${ESC}0`) return '\u0000';
    return String.fromCharCode(parseInt(seq.slice(2), 16));
  });
}

/** True when `unescapeText` would change the text (cheap pre-check for bulk decoding). */
export function hasEscapes(text: string): boolean {
  return text.includes(ESC);
}
