/**
 * The workbook zip's CRC-32 (src/platform/zip-crc.ts): zlib's native sum answers what the `crc-32`
 * package answers, for any bytes and any seed crc32-stream can pass (its first call passes a Buffer,
 * later ones the previous sum made unsigned), and is the one archiver's streams use once installed.
 * An upgrade of crc32-stream that stops summing through `crc-32`'s `buf` fails the last case.
 */
import { createRequire } from 'node:module';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { crc32Package, javascriptCrc32, nativeCrc32, useNativeZipCrc } from '../../../src/platform/zip-crc.js';

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

  it("is what archiver's crc32-stream calls once installed, and is installed only when asked", async () => {
    const require = createRequire(import.meta.url);
    const crc = createRequire(require.resolve('crc32-stream'))('crc-32') as { buf: unknown };
    // importing the module changed nothing: only the CLI's start-up installs it
    expect(crc.buf).toBe(javascriptCrc32);
    try {
      expect(useNativeZipCrc()).toBe(true);
      expect(crc.buf).toBe(nativeCrc32);
      // crc32-stream's own stream sums through that `buf`: a spy sees every chunk
      let calls = 0;
      crc32Package.buf = (data, seed) => (calls++, nativeCrc32(data, seed));
      const { CRC32Stream } = require('crc32-stream') as { CRC32Stream: new () => NodeJS.ReadWriteStream & { digest(): Buffer } };
      const stream = new CRC32Stream();
      const bytes = Buffer.from('the zip of a workbook');
      stream.resume();
      await new Promise<void>((resolve, reject) => {
        stream.on('error', reject);
        stream.on('end', resolve);
        stream.end(bytes);
      });
      expect(calls).toBeGreaterThan(0);
      expect(stream.digest().readUInt32BE(0)).toBe(javascriptCrc32(bytes) >>> 0);
    } finally {
      crc32Package.buf = javascriptCrc32;
    }
  });
});
