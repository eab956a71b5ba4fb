/**
 * The spool's line format (src/store/spool/stream-line.ts) and its codec: the hand-written encoder
 * writes the text JSON.stringify with the tagging replacer wrote (property), a row round-trips
 * whatever its text, the hints skip only rows the filter does not want, and no `raw` payload is
 * kept.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decodeRow, encodeRow } from '../../../../src/store/spool/row-codec.js';
import { decodeStreamLine, encodeStreamLine, encodeStreamPage, StreamLineReader } from '../../../../src/store/spool/stream-line.js';

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

  it('never gives BigInt.prototype a toJSON, not even while encoding (no built-in is changed for the process)', () => {
    const seen: boolean[] = [];
    // a value's toJSON runs in the middle of the encoding: it sees the prototype as other code would
    const spy = { toJSON: () => (seen.push(Object.prototype.hasOwnProperty.call(BigInt.prototype, 'toJSON')), 'x') };
    expect(decodeRow(encodeRow({ amount: 1n, spy, nested: { big: 2n } }))).toEqual({ amount: 1n, spy: 'x', nested: { big: 2n } });
    encodeStreamPage([{ amount: 3n, spy }, { amount: 4n, spy, other: 5n }], () => ({ wallet: '', status: '' }));
    expect(seen.length).toBeGreaterThanOrEqual(3);
    expect(seen.every((had) => !had)).toBe(true);
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

  it('reads one line format: a line of the format before (a whole row alone) is refused, never guessed at', () => {
    expect(() => decodeStreamLine(encodeRow(payment), {})).toThrow(/corrupt spool line/);
    expect(() => new StreamLineReader().split(encodeRow(payment))).toThrow(/corrupt spool line/);
  });

  it('refuses a line cut before its separators', () => {
    expect(() => decodeStreamLine('w-1\topen\tp1', {})).toThrow(/corrupt spool line/);
  });
});

describe('a page of spool lines (positional rows under shape lines)', () => {
  /** Every line of a page read back as a stream file's reader reads it: rows only, shape lines taken in. */
  function readPage(lines: readonly string[]): unknown[] {
    const reader = new StreamLineReader();
    const rows: unknown[] = [];
    for (const line of lines) {
      const row = reader.row(line.slice(0, -1), {});
      if (row !== undefined) rows.push(row);
    }
    return rows;
  }

  // keys that can and cannot be a shape, values JSON leaves out, raw present or not
  const key = fc.oneof(fc.constantFrom('payment_id', 'amount', 'memo', 'raw', 'a', '$x', '_'), fc.string({ maxLength: 4 }), fc.constantFrom('__proto__', '1', 'a b'));
  const field = fc.oneof(value, fc.constant(undefined), fc.constant(() => 1));
  const anyRow = fc.dictionary(key, field, { maxKeys: 6 });
  // rows that mostly share their keys, as a page's do
  const page = fc.array(fc.oneof(anyRow, fc.constant({ payment_id: 'p', amount: 5n, memo: '#m', raw: { a: 1 } }), fc.constant({ payment_id: 'q', amount: -7n, memo: null, raw: null }), fc.constant({ toJSON: () => ({ a: 1n }), raw: 1 }),
    // amounts at and past the edge of an exact integer, and a column that turns null, text or huge
    fc.constantFrom(9007199254740991n, -9007199254740991n, 9007199254740992n, -(2n ** 70n), 0n, null, '12', 3).map((amount) => ({ payment_id: 'r', amount, memo: 'm', raw: null })), fc.constant(Object.assign(Object.create(null), { a: 1 }))), { maxLength: 12 });

  it('reads back each row exactly as its line written alone reads back (the object format)', () => {
    fc.assert(
      fc.property(page, (rows) => {
        const lines = encodeStreamPage(rows, () => ({ wallet: 'w', status: 's' }));
        const alone = rows.map((r) => decodeStreamLine(encodeStreamLine(r, { wallet: 'w', status: 's' }).slice(0, -1), {}));
        const read = readPage(lines);
        expect(read).toEqual(alone);
        // the same keys in the same order, as JSON.parse gave for the object's text
        expect(read.map((r) => Object.keys(r as object))).toEqual(alone.map((r) => Object.keys(r as object)));
        expect(Object.getOwnPropertyDescriptor(BigInt.prototype, 'toJSON')).toBeUndefined();
      }),
      { numRuns: 400 },
    );
  });

  it('writes the keys once a page, and again only where they change', () => {
    const rows = [
      { payment_id: 'p1', amount: 1n, raw: {} },
      { payment_id: 'p2', amount: 2n, raw: {} },
      { payment_id: 'p3', fee: 3n },
    ];
    const lines = encodeStreamPage(rows, () => ({ wallet: 'w', status: 's' }));
    expect(lines).toEqual(['!["payment_id","amount:n"]\n', 'w\ts\t\t["p1",1]\t-\n', 'w\ts\t\t["p2",2]\t-\n', '!["payment_id","fee:n"]\n', 'w\ts\t\t["p3",3]\t\n']);
    expect(readPage(lines)).toEqual([
      { payment_id: 'p1', amount: 1n, raw: null },
      { payment_id: 'p2', amount: 2n, raw: null },
      { payment_id: 'p3', fee: 3n },
    ]);
  });

  it('refuses what a shape cannot explain, without running a key as code', () => {
    expect(() => readPage(['w\ts\t\t["p1"]\t\n'])).toThrow(/positional row before any shape line/);
    expect(() => readPage(['!["a","b"]\n', 'w\ts\t\t["p1"]\t\n'])).toThrow(/do not fit its shape/);
    expect(() => readPage(['!["a:1,b"]\n'])).toThrow(/corrupt spool shape/);
    expect(() => readPage(['!["__proto__"]\n'])).toThrow(/corrupt spool shape/);
    expect(() => readPage(['!["a","a"]\n'])).toThrow(/corrupt spool shape/);
    expect(() => readPage(['!{"a":1}\n'])).toThrow(/corrupt spool shape/);
    expect(() => readPage(['!["a:n"]\n', 'w\ts\t\t[1.5]\t\n'])).toThrow(/not an exact integer/);
    expect(() => readPage(['!["a:n"]\n', 'w\ts\t\t["7"]\t\n'])).toThrow(/not an exact integer/);
    expect(readPage(['!["a:n"]\n', 'w\ts\t\t[null]\t\n', 'w\ts\t\t[-7]\t\n'])).toEqual([{ a: null }, { a: -7n }]);
    expect(() => encodeStreamPage([[1, 2]], () => ({ wallet: '', status: '' }))).toThrow(/an object, not an array/);
  });

  it('leaves the rows as it found them, also when a row throws', () => {
    const rows = [{ a: 1n, raw: 'kept' }, { get b(): string { throw new Error('getter'); }, raw: 'also kept' }];
    expect(() => encodeStreamPage(rows, () => ({ wallet: '', status: '' }))).toThrow('getter');
    expect(rows.map((r) => r.raw)).toEqual(['kept', 'also kept']);
  });
});
