/**
 * The statement's and the allocation's sheets print one page wide, landscape, at 8 pt or more on A4
 * and Letter (print-fit.ts): a printed Form 8949 statement whose references ran onto a second page
 * across would split every row in two.
 */
import { describe, expect, it } from 'vitest';
import { ALLOCATION_WIDTHS } from '../../../../src/lots/tables/allocation-statement.js';
import { STATEMENT_WIDTHS } from '../../../../src/lots/tables/form-8949-statement.js';
import { NARROW_MARGINS, pagesWide } from '../../../../src/sinks/print-fit.js';

describe('the tax sheets on paper', () => {
  it('fit one page across, landscape', () => {
    expect(pagesWide(STATEMENT_WIDTHS, 'landscape', NARROW_MARGINS)).toBe(1);
    expect(pagesWide(ALLOCATION_WIDTHS, 'landscape', NARROW_MARGINS)).toBe(1);
  });
});
