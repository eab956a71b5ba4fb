import { describe, expect, it } from 'vitest';
import { decimalFitsExcel, EXCEL_MAX_CELL_TEXT, fitsExcelNumber, FORMULA_TRIGGER_CHARS, neutralizeFormula, xlsxText } from '../../../src/sinks/cells.js';

describe('neutralizeFormula', () => {
  it.each(['=1+1', '+1', '-1', '@SUM(1)', '\t=1', '\r=1', '\n=1', '\u0000=1', '＝1', '＋1', '－1', '＠SUM(1)'])('prefixes %j', (text) => {
    expect(neutralizeFormula(text)).toBe(`'${text}`);
  });

  it.each(['coffee', '', ' =1', "'=1", 'a",=1', ';=1', '1-2', 'ünïcödé'])('leaves %j alone', (text) => {
    expect(neutralizeFormula(text)).toBe(text);
  });

  it('covers everything csv-stringify escape_formulas covers, plus LF and NUL', () => {
    for (const c of ['=', '+', '-', '@', '\t', '\r', '\uFF1D', '\uFF0B', '\uFF0D', '\uFF20', '\n', '\0']) expect(FORMULA_TRIGGER_CHARS).toContain(c);
  });
});

describe('xlsxText', () => {
  it('shows NUL and other C0 controls as Control Pictures and says so', () => {
    expect(xlsxText('a\u0000b\u0007c')).toEqual({ text: 'a\u2400b\u2407c', replaced: true, truncated: false });
  });

  it('keeps TAB and LF; CR and CRLF become LF as every XML reader would see them', () => {
    expect(xlsxText('a\tb\nc\rd\r\ne')).toEqual({ text: 'a\tb\nc\nd\ne', replaced: false, truncated: false });
  });

  it('replaces lone surrogates but keeps pairs', () => {
    expect(xlsxText('x\uD800y').text).toBe('x\uFFFDy');
    expect(xlsxText('x\uDC00y').text).toBe('x\uFFFDy');
    expect(xlsxText('😀').text).toBe('😀');
  });

  it('cuts text at the 32,767-character cell limit with a marker', () => {
    const out = xlsxText('x'.repeat(40_000));
    expect(out.truncated).toBe(true);
    expect(out.text.length).toBeLessThanOrEqual(EXCEL_MAX_CELL_TEXT);
    expect(out.text).toMatch(/truncated/);
  });
});

describe('Excel number precision', () => {
  it('allows 15 digits and no more', () => {
    expect(fitsExcelNumber(999_999_999_999_999n)).toBe(true);
    expect(fitsExcelNumber(-999_999_999_999_999n)).toBe(true);
    expect(fitsExcelNumber(1_000_000_000_000_000n)).toBe(false);
    expect(fitsExcelNumber(9_007_199_254_740_993n)).toBe(false);
  });

  it('judges decimal text by its digits, leading zeros excluded', () => {
    expect(decimalFitsExcel('0.00000150000')).toBe(true);
    expect(decimalFitsExcel('-123.45')).toBe(true);
    expect(decimalFitsExcel('12345.67890123456')).toBe(false);
    expect(decimalFitsExcel('1e5')).toBe(false);
    expect(decimalFitsExcel('=1')).toBe(false);
  });
});
