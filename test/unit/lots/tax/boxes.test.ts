/**
 * Form 8949's box per term, tax year and Form 1099-DA receipt, and its Schedule D line — each case
 * stated as the form and its instructions state it (docs/tax.md "Boxes"), one day either side of
 * the first year with digital-asset boxes.
 */
import { describe, expect, it } from 'vitest';
import { basisReportedBox, box8949, BOX_TEXT, partOf, SCHEDULE_D_LINE } from '../../../../src/lots/tax/boxes.js';

describe('the Form 8949 box of a digital-asset disposal', () => {
  it('from tax year 2025: G/J with basis reported, H/K without, I/L with no Form 1099-DA (never C or F)', () => {
    expect(box8949('short', 2025, 'basis_reported')).toBe('G');
    expect(box8949('short', 2025, 'basis_not_reported')).toBe('H');
    expect(box8949('short', 2025, 'none')).toBe('I');
    expect(box8949('long', 2026, 'basis_reported')).toBe('J');
    expect(box8949('long', 2026, 'basis_not_reported')).toBe('K');
    expect(box8949('long', 2026, 'none')).toBe('L');
  });

  it('before 2025, the form of that year: A–F', () => {
    expect(box8949('short', 2024, 'none')).toBe('C');
    expect(box8949('long', 2024, 'none')).toBe('F');
    expect(box8949('short', 2024, 'basis_reported')).toBe('A');
    expect(box8949('long', 2024, 'basis_not_reported')).toBe('E');
  });

  it('sends each box to the Schedule D line Form 8949 names, and to its part', () => {
    expect(Object.entries(SCHEDULE_D_LINE).map(([b, l]) => `${b}${l}`).sort()).toEqual(['A1b', 'B2', 'C3', 'D8b', 'E9', 'F10', 'G1b', 'H2', 'I3', 'J8b', 'K9', 'L10']);
    expect(['A', 'B', 'C', 'G', 'H', 'I'].map((b) => partOf(b as 'A'))).toEqual(Array(6).fill('I'));
    expect(['D', 'E', 'F', 'J', 'K', 'L'].map((b) => partOf(b as 'D'))).toEqual(Array(6).fill('II'));
    expect(['A', 'D', 'G', 'J'].every((b) => basisReportedBox(b as 'A'))).toBe(true);
    expect(BOX_TEXT.I).toBe('Short-term digital asset transactions not reported to you on Form 1099-DA or Form 1099-B');
    expect(BOX_TEXT.C).toContain('other than digital asset transactions');
  });
});
