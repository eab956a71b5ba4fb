/**
 * A response body's bytes to its JSON value — the value `parseJson(body.toString('utf8'))` gives —
 * without making one string of a whole page.
 *
 * A page of 500 payments is hundreds of KB of JSON. As one string it lives in V8's large-object
 * space, its own mapping, which can cost more than JSON.parse of it, and old-generation
 * growth that brings full collections sooner. The items of a page are parsed one at a time instead,
 * each from its own small string, and the envelope around them alone:
 *
 * - the envelope is the body with its `"items":[ … ]` array replaced by a marker string (a nonce of
 *   this process, so no body can spell it), parsed, and accepted only when its `items` is that marker
 *   (the array's `]` is tried among the last few: a cursor after it may hold one);
 * - the array's text is cut before each `},{"`; a piece that does not parse alone was cut inside an
 *   item (a nested array of objects, or a string ending in `},{`) and is joined to the next one (a
 *   piece whose square brackets do not balance is joined before any parse is tried). A
 *   piece that parses alone is exactly one element: JSON is read left to right, so a prefix of the
 *   array's text that is a whole value ends where the element starting there ends.
 * - JSON's grammar is context-free, so the body with the array's text in the marker's place is the
 *   envelope with the parsed elements in the marker's place.
 * Anything else — a small body, no `items` array, whitespace between items, an item cut too often,
 * malformed text — is parsed whole as before, which also reports malformed text as before.
 */
import { randomBytes } from 'node:crypto';
import { utf8Slice } from '../util/utf8-text.js';
import { parseJson, type LosslessJson } from './json.js';

/** below this a body's string stays in V8's ordinary heap (a large object is > 128 KB) */
const SPLIT_FROM_BYTES = 64 * 1024;
/** a piece joined this many times is an item with many nested objects: parse the body whole */
const MAX_JOINS = 16;
/** how many `]` from the end may close the array */
const CLOSE_TRIES = 4;
const ITEMS_KEY = '"items":';
const ITEMS_OPEN = Buffer.from(`${ITEMS_KEY}[`, 'latin1');
const BETWEEN_OBJECTS = Buffer.from('},{"', 'latin1');
const MARKER = `payexport:items:${randomBytes(12).toString('hex')}`;

/**
 * The JSON value of a UTF-8 body (api/json.ts's lossless rules). Throws JsonSyntaxError as parseJson
 * does. (`splitFromBytes` is for tests: small bodies through the split path.)
 */
export function parseJsonBody(bytes: Buffer, splitFromBytes = SPLIT_FROM_BYTES): LosslessJson {
  if (bytes.length >= splitFromBytes) {
    const page = parseItemsApart(bytes);
    if (page !== undefined) return page;
  }
  return parseJson(utf8Slice(bytes));
}

/** The body parsed item by item, or undefined where it must be parsed whole (exported for its test). */
export function parseItemsApart(bytes: Buffer): LosslessJson | undefined {
  const open = bytes.indexOf(ITEMS_OPEN);
  if (open < 0) return undefined;
  const first = open + ITEMS_OPEN.length;
  const head = utf8Slice(bytes, 0, open);
  // the array's `]` is one of the last few: the fields after it may hold one in a string (a cursor)
  let close = bytes.length;
  for (let tries = 0; tries < CLOSE_TRIES; tries++) {
    close = bytes.lastIndexOf(0x5d /* ] */, close - 1);
    if (close < first) return undefined;
    const envelope = parseOrUndefined(`${head}${ITEMS_KEY}"${MARKER}"${utf8Slice(bytes, close + 1)}`);
    if (envelope === undefined || envelope === null || typeof envelope !== 'object' || Array.isArray(envelope) || envelope.items !== MARKER) continue;
    const items = parseElements(bytes, first, close);
    if (items === undefined) return undefined;
    envelope.items = items;
    return envelope;
  }
  return undefined;
}

/** The elements of the array whose text is `bytes[first, close)`, or undefined when it is not cut into objects alone. */
function parseElements(bytes: Buffer, first: number, close: number): LosslessJson[] | undefined {
  const items: LosslessJson[] = [];
  if (first === close) return items;
  let start = first;
  while (start < close) {
    const element = quickElement(bytes, start, close) ?? elementByCuts(bytes, start, close);
    if (element === undefined) return undefined;
    items.push(element.value);
    // past the comma: the next element starts at `{"`
    start = element.end + 1;
  }
  return items;
}

/**
 * The element starting at `start` when the piece whose square brackets balance parses: a cut inside
 * a nested array of objects (`"outflows":[{…},{…}]`, one payment in nine in the bench's data) leaves
 * a `[` open, and parsing such a piece only to see it fail cost a parse and two errors. The count
 * does not know strings, so a `[` inside one can mislead it: then this answers undefined and the
 * element is found cut by cut (elementByCuts), as before. A piece that parses is the element
 * whichever way its end was found (see the top).
 */
function quickElement(bytes: Buffer, start: number, close: number): { value: LosslessJson; end: number } | undefined {
  let end = nextCut(bytes, start, close);
  let depth = bracketDepth(bytes, start, end);
  for (let joins = 0; depth !== 0 && end < close && joins < MAX_JOINS; joins++) {
    const next = nextCut(bytes, end + 1, close);
    depth += bracketDepth(bytes, end, next);
    end = next;
  }
  if (depth !== 0) return undefined;
  const value = parseOrUndefined(utf8Slice(bytes, start, end));
  return value === undefined ? undefined : { value, end };
}

/** The element starting at `start`: the first piece from there that parses alone, joining up to MAX_JOINS cuts. */
function elementByCuts(bytes: Buffer, start: number, close: number): { value: LosslessJson; end: number } | undefined {
  let end = nextCut(bytes, start, close);
  let joins = 0;
  let value = parseOrUndefined(utf8Slice(bytes, start, end));
  while (value === undefined) {
    if (end === close || ++joins > MAX_JOINS) return undefined;
    end = nextCut(bytes, end + 1, close);
    value = parseOrUndefined(utf8Slice(bytes, start, end));
  }
  return { value, end };
}

/** `[` less `]` in `bytes[from, to)` (a view: indexOf stops at its end, not the page's). */
function bracketDepth(bytes: Buffer, from: number, to: number): number {
  const view = bytes.subarray(from, to);
  let depth = 0;
  for (let at = view.indexOf(0x5b); at >= 0; at = view.indexOf(0x5b, at + 1)) depth++;
  for (let at = view.indexOf(0x5d); at >= 0; at = view.indexOf(0x5d, at + 1)) depth--;
  return depth;
}

/** The end of the piece starting at `from`: just after the next `}` of a `},{"`, or the array's end. */
function nextCut(bytes: Buffer, from: number, close: number): number {
  const at = bytes.indexOf(BETWEEN_OBJECTS, from);
  return at < 0 || at >= close ? close : at + 1;
}

/** The value of a piece, or undefined when it is not one JSON value (no error object kept: pieces cut inside an item are expected). */
function parseOrUndefined(text: string): LosslessJson | undefined {
  try {
    return parseJson(text);
  } catch {
    return undefined;
  }
}
