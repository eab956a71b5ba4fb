/**
 * UTF-8 bytes to text, at the speed of a copy when the bytes are ASCII.
 *
 * Two costs of Node 20's `buf.toString('utf8')`:
 * - V8's UTF-8 decoder is slow even on pure ASCII, where a `latin1` decoding is a copy and `isAscii`
 *   (simdutf) a fast check; for ASCII bytes both decodings give the same string.
 * - A string longer than ~128 KB lives in V8's large-object space: each one is its own mapping,
 *   paid in page faults whatever the decoder. Decoding a whole spool file to slice lines out of it
 *   paid that for every file read.
 * So readers decode line by line (each line its own small string) with `utf8Slice`, and a
 * sequence that is not ASCII goes through V8's decoder as before: the same characters, U+FFFD for
 * the same malformed bytes.
 */
import { isAscii } from 'node:buffer';

/** The text of `bytes[start, end)`, decoded as UTF-8 (as `bytes.toString('utf8', start, end)`). */
export function utf8Slice(bytes: Buffer, start = 0, end = bytes.length): string {
  // isAscii takes a view: a subarray is a small object, the check itself is SIMD
  const ascii = start === 0 && end === bytes.length ? isAscii(bytes) : isAscii(bytes.subarray(start, end));
  return bytes.toString(ascii ? 'latin1' : 'utf8', start, end);
}

/** The non-empty lines of `bytes[0, end)` split on LF, each decoded alone (no string of the whole). */
export function* utf8Lines(bytes: Buffer, end = bytes.length): Generator<string> {
  for (let start = 0; start < end; ) {
    let stop = bytes.indexOf(10, start);
    if (stop < 0 || stop > end) stop = end;
    if (stop > start) yield utf8Slice(bytes, start, stop);
    start = stop + 1;
  }
}

/**
 * The UTF-8 bytes of `parts` one after the other, as `Buffer.from(parts.join(''))` gives them,
 * written part by part into one buffer: joining a page's lines first made a string of the whole
 * page (large-object space, and V8 flattening a long rope), several times the cost of the copy.
 *
 * The parts are written into a scratch buffer sized for the worst case (a UTF-16 unit is at most
 * 3 bytes of UTF-8; a pair, 2 units, is 4), then copied out at their exact length: measuring each
 * part first (`Buffer.byteLength`) is a scan of its own; the copy is a memcpy.
 */
export function utf8Join(parts: readonly string[]): Buffer {
  let units = 0;
  for (const part of parts) units += part.length;
  const scratch = scratchOf(units * 3);
  let at = 0;
  for (const part of parts) at += scratch.write(part, at, 'utf8');
  return Buffer.from(scratch.subarray(0, at));
}

/** One scratch buffer for the process, grown to the largest join (a page of lines, a CSV chunk). */
let scratch = Buffer.allocUnsafeSlow(0);

function scratchOf(size: number): Buffer {
  if (scratch.length < size) scratch = Buffer.allocUnsafeSlow(Math.max(size, 2 * scratch.length));
  return scratch;
}
