import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { utf8Join, utf8Lines, utf8Slice } from '../../../src/util/utf8-text.js';

/** bytes as files and bodies hold them: mostly ASCII, some multi-byte text, now and then a broken sequence */
const bytes = fc
  .array(
    fc.oneof(
      { weight: 6, arbitrary: fc.string({ maxLength: 40 }).map((s) => Buffer.from(s, 'utf8')) },
      { weight: 2, arbitrary: fc.string({ unit: 'grapheme', maxLength: 10 }).map((s) => Buffer.from(s, 'utf8')) },
      { weight: 1, arbitrary: fc.constantFrom('\n', '\n\n', 'é\n', '💸').map((s) => Buffer.from(s, 'utf8')) },
      { weight: 1, arbitrary: fc.uint8Array({ maxLength: 6 }).map((a) => Buffer.from(a)) },
    ),
    { maxLength: 40 },
  )
  .map((parts) => Buffer.concat(parts));

describe('utf8-text: UTF-8 decoding and encoding without a string of the whole', () => {
  it('utf8Slice gives what toString("utf8") gives, for any bytes and any range (U+FFFD where they are malformed)', () => {
    fc.assert(
      fc.property(bytes, fc.nat(), fc.nat(), (buffer, a, b) => {
        const start = buffer.length === 0 ? 0 : a % (buffer.length + 1);
        const end = start + (buffer.length - start === 0 ? 0 : b % (buffer.length - start + 1));
        expect(utf8Slice(buffer, start, end)).toBe(buffer.toString('utf8', start, end));
        expect(utf8Slice(buffer)).toBe(buffer.toString('utf8'));
      }),
      { numRuns: 2000 },
    );
  });

  it('utf8Lines gives the non-empty lines of the bytes up to `end`, as splitting the decoded text would', () => {
    fc.assert(
      fc.property(bytes, fc.nat(), (buffer, a) => {
        const end = a % (buffer.length + 1);
        // the specification: split the bytes at LF, decode each piece alone
        const pieces: string[] = [];
        for (let start = 0; start < end; ) {
          let stop = buffer.indexOf(10, start);
          if (stop < 0 || stop > end) stop = end;
          if (stop > start) pieces.push(buffer.toString('utf8', start, stop));
          start = stop + 1;
        }
        const ours = [...utf8Lines(buffer, end)];
        expect(ours).toEqual(pieces);
        // and for well-formed bytes, the lines of the decoded text (a malformed sequence never swallows an LF)
        const text = buffer.subarray(0, end).toString('utf8');
        if (Buffer.from(text, 'utf8').equals(buffer.subarray(0, end))) expect(ours).toEqual(text.split('\n').filter((line) => line.length > 0));
        for (const line of ours) expect(line.includes('\n')).toBe(false);
      }),
      { numRuns: 2000 },
    );
  });

  it('utf8Lines reads a line past the end of a reused buffer no further than `end`', () => {
    const buffer = Buffer.from('one\ntwo\nthree-left-over-from-a-longer-file\n', 'utf8');
    expect([...utf8Lines(buffer, 7)]).toEqual(['one', 'two']);
    expect([...utf8Lines(buffer, 6)]).toEqual(['one', 'tw']);
  });

  it('utf8Join gives the bytes of the joined text, for any parts', () => {
    fc.assert(
      fc.property(fc.array(fc.oneof(fc.string(), fc.string({ unit: 'grapheme' }), fc.string({ unit: 'binary' })), { maxLength: 30 }), (parts) => {
        expect(utf8Join(parts).equals(Buffer.from(parts.join(''), 'utf8'))).toBe(true);
      }),
      { numRuns: 2000 },
    );
  });
});
