/**
 * The spool's line format (src/store/spool/stream-line.ts) and its codec: the hand-written encoder
 * writes the text JSON.stringify with the tagging replacer wrote (property), a row round-trips
 * whatever its text, the hints skip only rows the filter does not want, and no `raw` payload is
 * kept.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decodeRow, encodeRow } from '../../../../src/store/spool/row-codec.js';
import { decodeStreamLine, encodeStreamLine } from '../../../../src/store/spool/stream-line.js';

/** The encoder the spool used before issue 41: the reference the hand-written one must match byte for byte. */
function replacerEncode(row: unknown): string {
  return JSON.stringify(row, (_key, value: unknown) => {
    if (typeof value === 'bigint') return `#n${value.toString()}`;
    if (typeof value === 'string' && value.startsWith('#')) return `#${value}`;
    return value;
  });
}

const text = fc.oneof(fc.string(), fc.constantFrom('#', '##', '#n5', '#x', 'a\tb', 'line\nbreak', '{'));
const leaf = fc.oneof(text, fc.bigInt(), fc.integer(), fc.double({ noNaN: true }), fc.boolean(), fc.constant(null));
const value = fc.letrec((tie) => ({
  node: fc.oneof({ depthSize: 'small' }, leaf, fc.array(tie('node'), { maxLength: 4 }), fc.dictionary(text, tie('node'), { maxKeys: 4 })),
})).node;
const row = fc.dictionary(fc.string(), value, { maxKeys: 6 });

describe('the spool row codec', () => {
  it('writes the same text as the tagging replacer', () => {
    fc.assert(
      fc.property(row, (r) => {
        const line = encodeRow(r);
        expect(line).toBe(replacerEncode(r));
      }),
      { numRuns: 300 },
    );
  });

  it('round-trips bigints, marker-like strings and nested values exactly', () => {
    fc.assert(
      fc.property(fc.dictionary(fc.string(), fc.oneof(text, fc.bigInt(), fc.array(fc.oneof(text, fc.bigInt())))), (r) => {
        expect(decodeRow(encodeRow(r))).toEqual(r);
      }),
    );
  });

  it('leaves BigInt.prototype as it found it, also when stringify throws', () => {
    encodeRow({ amount: 1n });
    expect(Object.getOwnPropertyDescriptor(BigInt.prototype, 'toJSON')).toBeUndefined();
    // a getter that answers the walk, then throws inside JSON.stringify
    let reads = 0;
    const failing = {
      amount: 2n,
      get later(): string {
        reads += 1;
        if (reads > 1) throw new Error('second read');
        return 'plain';
      },
    };
    expect(() => encodeRow(failing)).toThrow('second read');
    expect(Object.getOwnPropertyDescriptor(BigInt.prototype, 'toJSON')).toBeUndefined();
  });

  it('takes the copying path for a custom toJSON, with the same text as the replacer', () => {
    const odd = { when: new Date(0), tagged: { toJSON: () => '#looks like a tag' }, amount: 3n };
    expect(encodeRow(odd)).toBe(replacerEncode(odd));
  });

  it('refuses a tagged value it does not know', () => {
    expect(() => decodeRow('{"a":"#zz"}')).toThrow(/corrupt spool value/);
  });
});

describe('a spool stream line', () => {
  const payment = { payment_id: 'p1', wallet_id: 'w-1', status_class: 'open', amount: 12n, memo: '#tag\twith tab', raw: { id: 'p1', amount: { amount: 12 }, note: '#n1' } };

  it('round-trips a row, its raw payload left out (null), as a withoutRaw read of the database', () => {
    const line = encodeStreamLine(payment, { wallet: 'w-1', status: 'open' });
    expect(line.endsWith('\n')).toBe(true);
    const body = line.slice(0, -1);
    expect(body.includes('\n')).toBe(false);
    expect(body).not.toContain('"note"');
    expect(decodeStreamLine(body, {})).toEqual({ ...payment, raw: null });
  });

  it('writes a row with raw as the replacer writes it without raw, and gives the caller its row back untouched', () => {
    fc.assert(
      fc.property(row, value, (r, raw) => {
        const withRaw = { ...r, raw };
        const before = replacerEncode(withRaw);
        const line = encodeStreamLine(withRaw, { wallet: '', status: '' });
        const { raw: _dropped, ...rest } = withRaw;
        expect(line).toBe(`\t\t\t${replacerEncode(rest)}\t-\n`);
        expect(replacerEncode(withRaw)).toBe(before);
      }),
      { numRuns: 200 },
    );
  });

  it('a row without a raw field stays without one', () => {
    const summary = { scope: 'wallet', total: 5n };
    expect(decodeStreamLine(encodeStreamLine(summary, { wallet: '', status: '' }).slice(0, -1), {})).toEqual(summary);
  });

  it("skips another wallet's row unparsed, and keeps a row whose hint could not be written", () => {
    const line = encodeStreamLine(payment, { wallet: 'w-1', status: 'open' }).slice(0, -1);
    expect(decodeStreamLine(line, { wallet: 'w-2' })).toBeUndefined();
    expect(decodeStreamLine(line, { wallet: 'w-1' })).toMatchObject({ payment_id: 'p1' });
    // a wallet id with a separator in it is not a hint: the line is decoded (and the caller checks the field)
    const odd = encodeStreamLine({ ...payment, wallet_id: 'w\t1' }, { wallet: 'w\t1', status: 'open' }).slice(0, -1);
    expect(decodeStreamLine(odd, { wallet: 'w-2' })).toMatchObject({ wallet_id: 'w\t1' });
  });

  it('reads a line of the format before (a whole row encoded alone)', () => {
    expect(decodeStreamLine(encodeRow(payment), {})).toEqual(payment);
  });

  it('refuses a line cut before its separators', () => {
    expect(() => decodeStreamLine('w-1\topen\tp1', {})).toThrow(/corrupt spool line/);
  });
});
