/**
 * The CLI's start-up settings (src/platform/start-up.ts): applied once, only when called — loading
 * the program's modules changes nothing in the process — and a user's own node flag stands.
 */
import { describe, expect, it } from 'vitest';
import { crc32Package, javascriptCrc32, nativeCrc32 } from '../../../src/platform/zip-crc.js';
// modules that once changed the process as they were loaded or used: loading them changes nothing now
import '../../../src/sinks/xlsx-workbook.js';
import { encodeRow } from '../../../src/store/spool/row-codec.js';
import { applyStartUpSettings } from '../../../src/platform/start-up.js';

describe('the start-up settings', () => {
  it('are not applied by loading or using the modules', () => {
    encodeRow({ amount: 1n });
    expect(crc32Package.buf).toBe(javascriptCrc32);
    expect(Object.getOwnPropertyDescriptor(BigInt.prototype, 'toJSON')).toBeUndefined();
  });

  it('are applied once when the CLI asks, the user’s own node flags standing', () => {
    const set: string[] = [];
    try {
      const first = applyStartUpSettings(['--max-old-space-size=300'], (flag) => set.push(flag));
      expect(first.v8Flags).toEqual(['--heap-growing-percent=50']);
      expect(set).toEqual(['--heap-growing-percent=50']);
      expect(first.nativeZipCrc).toBe(true);
      expect(crc32Package.buf).toBe(nativeCrc32);
      // a second call (an entry point imported twice) sets nothing again
      expect(applyStartUpSettings([], (flag) => set.push(flag))).toBe(first);
      expect(set).toHaveLength(1);
    } finally {
      crc32Package.buf = javascriptCrc32;
    }
  });
});
