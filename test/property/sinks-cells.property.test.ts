import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { FORMULA_TRIGGER_CHARS, neutralizeFormula, xlsxText } from '../../src/sinks/cells.js';
import { formatBase } from '../../src/money/format.js';

const triggers = new Set(FORMULA_TRIGGER_CHARS);
const hostile = fc.oneof(fc.string(), fc.string({ unit: 'binary' }), fc.constantFrom(...FORMULA_TRIGGER_CHARS).chain((t) => fc.string().map((s) => t + s)));

describe('cell safety (property)', () => {
  it('a neutralized text never starts with a trigger and only ever gains one apostrophe', () => {
    fc.assert(
      fc.property(hostile, (text) => {
        const out = neutralizeFormula(text);
        expect(triggers.has(out[0] ?? '')).toBe(false);
        expect(out === text || out === `'${text}`).toBe(true);
      }),
    );
  });

  it('XLSX text holds no character XML 1.0 forbids', () => {
    fc.assert(
      fc.property(hostile, (text) => {
        const out = xlsxText(neutralizeFormula(text)).text;
        // eslint-disable-next-line no-control-regex
        expect(/[\u0000-\u0008\u000B\u000C\u000E-\u001F]/.test(out)).toBe(false);
        expect(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/.test(out)).toBe(false);
      }),
    );
  });

  it('an amount rendered from bigint is plain digits, never exponent notation, and never formula-prefixed', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: -(10n ** 30n), max: 10n ** 30n }), fc.integer({ min: 0, max: 18 }), (base, scale) => {
        const text = formatBase(base, scale);
        expect(text).toMatch(/^-?\d+(\.\d+)?$/);
      }),
    );
  });
});
