/**
 * Pages across for 8 pt text (print-fit.ts): a sheet that fits one page at 8 pt gets one, a wider
 * one as many as its columns need, never split; and for any columns, the page setup it writes,
 * worked out the way test/support/readers/print-scale.ts reads a file (independently of
 * print-fit.ts), prints at 8 pt or more on A4 and on Letter.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MIN_PRINTED_PT, NARROW_MARGINS, pagesWide, printSetup, widthUnitsPerPage, wrappedLines } from '../../../src/sinks/print-fit.js';
import { BODY_PT, printScale } from '../../support/readers/print-scale.js';
import type { OpenpyxlSheet } from '../../support/readers/readers.js';

/** The page setup as openpyxl would read it back from the file. */
function asRead(widths: readonly number[], orientation: 'portrait' | 'landscape'): OpenpyxlSheet {
  const setup = printSetup(widths, { orientation });
  return {
    name: 'S',
    max_row: 1,
    max_column: widths.length,
    freeze_panes: null,
    auto_filter: null,
    orientation: setup.orientation ?? null,
    fit_to_width: setup.fitToWidth ?? null,
    fit_to_height: setup.fitToHeight ?? null,
    fit_to_page: setup.fitToPage === true,
    scale: null,
    paper_size: setup.paperSize ?? null,
    margins: { left: NARROW_MARGINS.left, right: NARROW_MARGINS.right, top: NARROW_MARGINS.top, bottom: NARROW_MARGINS.bottom },
    print_area: null,
    print_title_rows: null,
    column_widths: [...widths],
    row_breaks: [],
    images: 0,
    charts: 0,
    chart_details: [],
  };
}

describe('pages across for 8 pt', () => {
  it('puts a sheet that fits one page at 8 pt on one page, a wider one on as many as its columns need', () => {
    const page = Math.floor(widthUnitsPerPage('landscape', NARROW_MARGINS));
    expect(pagesWide([page], 'landscape', NARROW_MARGINS)).toBe(1);
    expect(pagesWide([page, 1], 'landscape', NARROW_MARGINS)).toBe(2);
    // columns are never split: three of 60% of a page need three pages, not two
    const wide = Math.floor(page * 0.6);
    expect(pagesWide([wide, wide, wide], 'landscape', NARROW_MARGINS)).toBe(3);
    // portrait is narrower
    expect(widthUnitsPerPage('portrait', NARROW_MARGINS)).toBeLessThan(widthUnitsPerPage('landscape', NARROW_MARGINS));
  });

  it('refuses a column no page can print legibly', () => {
    expect(() => pagesWide([10, 1_000], 'landscape', NARROW_MARGINS)).toThrow(RangeError);
  });

  it('writes fit-to-width pages, any number of pages down, across then down', () => {
    expect(printSetup([20, 30], { orientation: 'landscape', titleRows: '1:1', printArea: 'A:B' })).toMatchObject({ paperSize: 9, orientation: 'landscape', fitToPage: true, fitToWidth: 1, fitToHeight: 0, pageOrder: 'overThenDown', printTitlesRow: '1:1', printArea: 'A:B' });
  });

  it('estimates a wrapped text tall rather than short', () => {
    expect(wrappedLines('short', 20)).toBe(1);
    expect(wrappedLines('x'.repeat(100), 20)).toBe(5);
    expect(wrappedLines('one\ntwo', 20)).toBe(2);
  });

  it('for any columns, prints at 8 pt or more on A4 and Letter (the page setup read back independently)', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 4, max: 70 }), { minLength: 1, maxLength: 60 }), fc.constantFrom('portrait' as const, 'landscape' as const), (widths, orientation) => {
        const sheet = asRead(widths, orientation);
        for (const paper of ['A4', 'Letter'] as const) expect(BODY_PT * printScale(sheet, paper)).toBeGreaterThanOrEqual(MIN_PRINTED_PT);
      }),
    );
  });
});
