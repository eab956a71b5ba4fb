/**
 * Every table sheet prints one page across at 8 pt (docs/reports.md#printing-8-pt-or-more-on-a4-and-letter):
 * a table whose columns do not fit names the ones a person reads (`printColumns`), the sheet shows
 * them first and prints them alone; the CSV keeps the spec's order.
 */
import { describe, expect, it } from 'vitest';
import type { AnyTableSpec } from '../../../src/model/column-spec.js';
import { tableColumns } from '../../../src/model/column-spec.js';
import { JOURNAL_TABLE } from '../../../src/journal/formats/journal-table.js';
import { FORM_1099DA_RECONCILIATION_TABLE } from '../../../src/lots/tables/form-1099da-reconciliation.js';
import { FORM_8949_TOTALS_TABLE } from '../../../src/lots/tables/form-8949-totals.js';
import { LOT_RELIEFS_TABLE } from '../../../src/lots/tables/lot-reliefs.js';
import { LOTS_TABLE } from '../../../src/lots/tables/lots.js';
import { NARROW_MARGINS, pagesWide } from '../../../src/sinks/print-fit.js';
import { compileTable, sheetOrder } from '../../../src/sinks/render-cells.js';
import { ALL_TABLES, PAYMENTS_TABLE } from '../../../src/sinks/tables/index.js';
import { columnWidths, printedColumns } from '../../../src/sinks/xlsx-table-sheets.js';
import { ZonedClock } from '../../../src/model/zoned-time.js';

const SHEETS: readonly AnyTableSpec[] = [...ALL_TABLES, JOURNAL_TABLE as AnyTableSpec, LOT_RELIEFS_TABLE as AnyTableSpec, LOTS_TABLE as AnyTableSpec, FORM_8949_TOTALS_TABLE as AnyTableSpec, FORM_1099DA_RECONCILIATION_TABLE as AnyTableSpec];

describe('the printed columns of every table sheet', () => {
  it.each(SHEETS.map((spec) => [spec.sheet, spec] as const))('%s prints one page across at 8 pt on A4 and Letter', (_, spec) => {
    const columns = sheetOrder(tableColumns(spec), spec.printColumns ?? []);
    const printed = columnWidths(columns).slice(0, printedColumns(columns.map((c) => c.name), spec.printColumns));
    expect(pagesWide(printed, 'landscape', NARROW_MARGINS)).toBe(1);
  });

  it('names each printed column once, and only columns the table has', () => {
    for (const spec of SHEETS) {
      const names = tableColumns(spec).map((c) => c.name);
      const printed = spec.printColumns ?? [];
      expect(new Set(printed).size, spec.sheet).toBe(printed.length);
      for (const name of printed) expect(names, `${spec.sheet}: ${name}`).toContain(name);
    }
    expect(() => sheetOrder([{ name: 'a' }], ['b'])).toThrow('printColumns names b, which the table does not have');
  });

  it('shows the printed columns first in the sheet, then the others in the CSV order; the CSV keeps its order', () => {
    const ctx = { clock: new ZonedClock('UTC'), assetDecimals: new Map<string, number>(), assetNames: new Map<string, string>(), asOf: '2026-11-01T00:00:00.000000Z' };
    const csv = compileTable(PAYMENTS_TABLE, ctx);
    const sheet = compileTable(JOURNAL_TABLE as AnyTableSpec, ctx, 'sheet');
    expect(csv.headers).toEqual(tableColumns(PAYMENTS_TABLE).map((c) => c.name));
    const journal = tableColumns(JOURNAL_TABLE as AnyTableSpec).map((c) => c.name);
    const printed = JOURNAL_TABLE.printColumns ?? [];
    expect(sheet.headers.slice(0, printed.length)).toEqual(printed);
    expect(sheet.headers.slice(printed.length)).toEqual(journal.filter((name) => !printed.includes(name)));
    expect(compileTable(JOURNAL_TABLE as AnyTableSpec, ctx).headers).toEqual(journal);
  });
});
