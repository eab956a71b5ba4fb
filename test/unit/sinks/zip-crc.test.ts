/**
 * The workbook zip's CRC-32 (src/sinks/zip-crc.ts): zlib's native sum answers what the `crc-32`
 * package answers, for any bytes and any seed crc32-stream can pass (its first call passes a Buffer,
 * later ones the previous sum made unsigned), and is the one archiver's streams now use.
 */
import { createRequire } from 'node:module';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { javascriptCrc32, nativeCrc32, useNativeZipCrc } from '../../../src/sinks/zip-crc.js';

describe('the zip CRC-32', () => {
  it('answers as crc-32 does on any bytes, seeds chained or odd', () => {
    const seed = fc.oneof(fc.integer({ min: -(2 ** 31), max: 2 ** 31 - 1 }), fc.nat({ max: 2 ** 32 - 1 }), fc.constant(undefined), fc.constant(Buffer.alloc(4)), fc.double());
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 300 }), seed, (bytes, s) => {
        expect(nativeCrc32(bytes, s)).toBe(javascriptCrc32(bytes, s));
        expect(nativeCrc32(Buffer.from(bytes), s)).toBe(javascriptCrc32(Buffer.from(bytes), s));
      }),
      { numRuns: 1000 },
    );
  });

  it('chains over pieces as over the whole, as crc32-stream sums a part chunk by chunk', () => {
    fc.assert(
      fc.property(fc.array(fc.uint8Array({ maxLength: 100 }), { maxLength: 6 }), (pieces) => {
        // crc32-stream's first seed is a Buffer of zeros, each later one the previous sum made unsigned
        let native = nativeCrc32(new Uint8Array(0), Buffer.alloc(4)) >>> 0;
        for (const piece of pieces) native = nativeCrc32(piece, native) >>> 0;
        expect(native).toBe(javascriptCrc32(Buffer.concat(pieces)) >>> 0);
      }),
    );
  });

  it("is what archiver's crc32-stream calls once installed", () => {
    useNativeZipCrc();
    const require = createRequire(import.meta.url);
    const crc = createRequire(require.resolve('crc32-stream'))('crc-32') as { buf: unknown };
    expect(crc.buf).toBe(nativeCrc32);
  });
});
