/**
 * The workbook zip's CRC-32 from zlib's native code. exceljs zips through archiver, whose
 * crc32-stream sums every byte of every part with the `crc-32` package, in JavaScript: 336 ms of the
 * main thread at 50k payments (issue 41's profile), where `zlib.crc32` (Node ≥ 20.15) does the same
 * sum natively. Its `buf` is replaced, once, by one that answers the same number for the same
 * arguments (`test/unit/sinks/zip-crc.test.ts` compares both on any bytes and seed), so the zip's
 * bytes do not change.
 *
 * `crc-32` is resolved from crc32-stream's own folder: the copy its `require` gets.
 */
import { createRequire } from 'node:module';
import zlib from 'node:zlib';

type CrcBuf = (data: unknown, seed?: unknown) => number;

const require = createRequire(import.meta.url);
/** the `crc-32` package crc32-stream calls (the bench's floor puts its own sum back: bare exceljs) */
export const crc32Package = createRequire(require.resolve('crc32-stream'))('crc-32') as { buf: CrcBuf };
/** crc-32's own sum, for anything but bytes (and for the test's comparison) */
export const javascriptCrc32: CrcBuf = crc32Package.buf;

/**
 * crc-32's contract: a signed 32-bit result; the seed is the previous result, coerced by `^`
 * (ToInt32 — a Buffer, as crc32-stream's first call passes, counts as 0). zlib takes the same
 * previous sum as an unsigned integer and answers unsigned.
 */
export const nativeCrc32: CrcBuf = (data, seed) => {
  if (!(data instanceof Uint8Array)) return javascriptCrc32(data, seed);
  return zlib.crc32(data, Number(seed) >>> 0) | 0;
};

export function useNativeZipCrc(): void {
  if (typeof zlib.crc32 === 'function') crc32Package.buf = nativeCrc32;
}
