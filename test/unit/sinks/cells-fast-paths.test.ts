/**
 * The fast paths of cells.ts (issue 41) against the code they stand in for: the checks written the
 * slow way (a Set of triggers, the CR search and the Unicode regex, digits counted in a string)
 * must give the same answer on every text, in particular around the fast paths' edges.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { EXCEL_MAX_CELL_TEXT, fitsExcelNumber, FORMULA_TRIGGER_CHARS, neutralizeFormula, plainCellText, xlsxText } from '../../../src/sinks/cells.js';

const TRIGGERS = new Set(FORMULA_TRIGGER_CHARS);
const slowNeutralize = (text: string): string => (text.length > 0 && TRIGGERS.has(text[0] as string) ? `'${text}` : text);

// eslint-disable-next-line no-control-regex
const UNSAFE = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/u;
/** What xlsxText answers for text it leaves alone, and whether it should (the slow checks). */
const slowUnchanged = (text: string): boolean => !text.includes('\r') && !UNSAFE.test(text) && text.length <= EXCEL_MAX_CELL_TEXT;

const slowFits = (base: bigint): boolean => (base < 0n ? -base : base).toString().length <= 15;

/** Texts at the edges: each first character the fast path tests, controls, non-ASCII, surrogates. */
const EDGES = [
  '',
  'plain ascii',
  '0123',
  '=1+1',
  '+1',
  '-1',
  '@SUM(A1)',
  '\t=1',
  '\n=1',
  '\r=1',
  '\u0000x',
  '\u000Dx',
  '\u000Ex',
  '\u001Fx',
  ',x',
  '>x',
  'Ax',
  '\u007Fx',
  'ünïcödé',
  '日本語',
  '\uFF0A*',
  '\uFF0B1',
  '\uFF0C,',
  '\uFF0D1',
  '\uFF1D1',
  '\uFF20x',
  '\uFF21x',
  '\uFFFFx',
  '😀 emoji first',
  'x😀y',
  '\uD800 lone high',
  'lone low \uDC00',
  'a\u0000b',
  'a\u000Bb',
  'a\u007Fb',
  'a\r\nb',
  'a\tb\nc',
  'x'.repeat(EXCEL_MAX_CELL_TEXT),
  'x'.repeat(EXCEL_MAX_CELL_TEXT + 1),
];

const texts = fc.oneof(fc.string(), fc.string({ unit: 'binary' }), fc.string({ unit: 'grapheme' }), fc.constantFrom(...EDGES), fc.tuple(fc.constantFrom(...EDGES), fc.string({ unit: 'binary' })).map(([a, b]) => a + b));

describe('cells.ts fast paths', () => {
  it.each(EDGES.map((t) => [JSON.stringify(t).slice(0, 24), t]))('neutralizeFormula and xlsxText at the edge %s', (_name, text) => {
    expect(neutralizeFormula(text)).toBe(slowNeutralize(text));
    const out = xlsxText(text);
    expect(out.text === text && !out.replaced && !out.truncated).toBe(slowUnchanged(text));
  });

  it('neutralizeFormula gives what the Set of triggers gives, on any text', () => {
    fc.assert(
      fc.property(texts, (text) => {
        expect(neutralizeFormula(text)).toBe(slowNeutralize(text));
      }),
      { numRuns: 2000 },
    );
  });

  it('xlsxText leaves a text alone exactly when the slow checks find nothing to change', () => {
    fc.assert(
      fc.property(texts, (text) => {
        const out = xlsxText(text);
        expect(out.text === text && !out.replaced && !out.truncated).toBe(slowUnchanged(text));
      }),
      { numRuns: 2000 },
    );
  });

  it('plainCellText is the loop over code units it replaced, and a plain text is one xlsxText leaves alone', () => {
    const loop = (text: string): boolean => {
      if (text.length > EXCEL_MAX_CELL_TEXT) return false;
      for (let i = 0; i < text.length; i++) {
        const c = text.charCodeAt(i);
        if (c < 0x20 ? c !== 0x09 && c !== 0x0a : c === 0x7f || (c >= 0xd800 && c <= 0xdfff)) return false;
      }
      return true;
    };
    for (const text of EDGES) expect(plainCellText(text), JSON.stringify(text).slice(0, 24)).toBe(loop(text));
    fc.assert(
      fc.property(texts, (text) => {
        expect(plainCellText(text)).toBe(loop(text));
        if (plainCellText(text)) expect(slowUnchanged(text)).toBe(true);
      }),
      { numRuns: 2000 },
    );
  });

  it('fitsExcelNumber counts digits as the string of the amount does, around 15 digits and anywhere', () => {
    for (const base of [0n, 1n, -1n, 10n ** 15n - 1n, 10n ** 15n, -(10n ** 15n) + 1n, -(10n ** 15n), 10n ** 30n]) {
      expect(fitsExcelNumber(base)).toBe(slowFits(base));
    }
    fc.assert(
      fc.property(fc.bigInt({ min: -(10n ** 20n), max: 10n ** 20n }), (base) => {
        expect(fitsExcelNumber(base)).toBe(slowFits(base));
      }),
    );
  });
});
