/**
 * Workbook zips summed by zlib's native CRC-32. exceljs zips through archiver, whose crc32-stream
 * sums every byte of every part with the `crc-32` package, in JavaScript on the main thread, where
 * `zlib.crc32` (Node ≥ 20.15) does the same sum natively. `useNativeZipCrc` replaces that package's
 * `buf`, once, by one that answers the same number for the same arguments, so the zip's bytes do
 * not change (test/unit/platform/zip-crc.test.ts compares both on any bytes and seed, and fails if
 * crc32-stream stops calling `crc-32`'s `buf`). Only the CLI calls it, at start-up (start-up.ts).
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

/** Installs the native sum where this Node has one; answers whether it did. */
export function useNativeZipCrc(): boolean {
  if (typeof zlib.crc32 !== 'function') return false;
  crc32Package.buf = nativeCrc32;
  return true;
}
