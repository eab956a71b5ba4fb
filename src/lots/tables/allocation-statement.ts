/**
 * rev-proc-2024-28-allocation.csv / sheet "1 Jan 2025 allocation": the statement of the basis
 * allocated to each wallet's units as of 1 January 2025 (tax/allocation.ts, docs/tax.md) — one row
 * per unit lot the opening-lots file allocated, with its units, its original basis and acquisition
 * date, and how the wallet held it; the sheet opens with what the statement is (Rev. Proc.
 * 2024-28's sections) and adds each wallet's totals.
 */
import { formatBase, groupThousands } from '../../money/format.js';
import { baseAmount, code, decimal, id, text, type TableSpec } from '../../model/column-spec.js';
import { BOLD_STYLE, HEADER_STYLE, putRow, putWrapped, SUBTITLE_STYLE, textCell, TITLE_STYLE, wrapped } from '../../sinks/xlsx-cells.js';
import { printSetup } from '../../sinks/print-fit.js';
import { decimalStyle } from '../../sinks/render-cells.js';
import type { StreamingWorkbook } from '../../sinks/xlsx-workbook.js';
import type { AllocationRow } from '../tax/allocation.js';
import type { UnitsOf } from '../tax/units-description.js';

export interface AllocationTableRow {
  row: AllocationRow;
  minorUnits: number;
}

const money = (v: bigint | null, scale: number): string | null => (v === null ? null : formatBase(v, scale));
const usDay = (day: string): string => `${day.slice(5, 7)}/${day.slice(8, 10)}/${day.slice(0, 4)}`;

export const ALLOCATION_TABLE: TableSpec<AllocationTableRow> = {
  id: 'rev_proc_2024_28_allocation',
  file: 'rev-proc-2024-28-allocation.csv',
  sheet: '1 Jan 2025 allocation',
  rowIs: 'unit lot of a wallet as of 1 January 2025 with the unused basis allocated to it (Rev. Proc. 2024-28; the opening-lots file)',
  laidOut: true,
  columns: [
    id('wallet_id', 'the wallet or account the units and basis are allocated to', (r) => r.row.lot.walletId),
    code('currency', 'btc or asset:<hex>', (r) => r.row.lot.currency),
    baseAmount<AllocationTableRow>('units', 'the units (remaining digital asset units, section 3.07)', (r) => r.row.lot.units, (r) => r.row.lot.currency),
    { name: 'units', type: 'display', description: 'the units in whole units of the asset: BTC with 11 decimals, an asset with its decimal_display', get: (r) => r.row.lot.units, currency: (r) => r.row.lot.currency },
    decimal('unused_basis', "the original basis allocated to them, in the books' currency (units of unused basis, section 3.09); empty = unknown", (r) => money(r.row.lot.cost, r.minorUnits)),
    code('acquisition_date', 'the acquisition date of the units the basis was originally attached to, MM/DD/YYYY (section 4.02(5))', (r) => usDay(r.row.acquiredDay)),
    text('held_as', "opening_balance: the wallet's balance before the snapshot's first event; otherwise the deposit (deposited:<id>) that later brought units held elsewhere on that date", (r) => r.row.lot.ref ?? 'opening_balance'),
  ],
};

export interface AllocationSheetInput {
  entity: string;
  tz: string;
  source: string;
  rows: readonly AllocationRow[];
  minorUnits: number;
  booksCurrency: string;
  unitsOf: (currency: string) => UnitsOf;
  walletName: (walletId: string) => string;
}

export const ALLOCATION_WIDTHS = [30, 18, 18, 14, 48] as const;
const WIDTHS = ALLOCATION_WIDTHS;

export async function writeAllocationSheet(workbook: StreamingWorkbook, input: AllocationSheetInput): Promise<void> {
  const sheet = workbook.addSheet(ALLOCATION_TABLE.sheet, { views: [{ showGridLines: false }], pageSetup: printSetup(WIDTHS, { orientation: 'landscape' }) });
  sheet.columns = WIDTHS.map((width) => ({ width }));
  putWrapped(sheet, `Allocation of unused basis as of 1 January 2025 — ${input.entity}`, WIDTHS, TITLE_STYLE, 1, 22);
  putWrapped(sheet, `Rev. Proc. 2024-28, section 5: the units of unused basis allocated to the digital asset units held in each wallet or account as of 1 January 2025 — "immediately after the close of the taxpayer's day on December 31, 2024" (section 3.10), here the end of 31 December 2024 in ${input.tz}.`, WIDTHS, SUBTITLE_STYLE);
  putWrapped(sheet, `The records section 4.02 requires: the units in each wallet (4.02(4)) and, for each unit of unused basis, its original basis and the acquisition date of the unit it was attached to (4.02(5)). The allocation is irrevocable (4.02(6)). Source: the opening-lots file ${input.source}; amounts in ${input.booksCurrency}.`, WIDTHS, SUBTITLE_STYLE);
  putRow(sheet, []);
  putRow(sheet, ['Wallet or account', 'Units', 'Unused basis', 'Acquired', 'Held as'].map((h, i) => textCell(h, wrapped(i === 1 || i === 2 ? { ...HEADER_STYLE, alignment: { ...HEADER_STYLE.alignment, horizontal: 'right' } } : HEADER_STYLE))));
  if (input.rows.length === 0) putWrapped(sheet, 'The opening-lots file allocates no units held on or before 31 December 2024.', WIDTHS, BOLD_STYLE);
  let group: AllocationRow[] = [];
  const flush = async (): Promise<void> => {
    const first = group[0];
    if (first === undefined) return;
    const of = input.unitsOf(first.lot.currency);
    const units = group.reduce((a, r) => a + r.lot.units, 0n);
    const cost = group.some((r) => r.lot.cost === null) ? null : group.reduce((a, r) => a + (r.lot.cost as bigint), 0n);
    putRow(sheet, [textCell(`${input.walletName(first.lot.walletId)}: total`, BOLD_STYLE), textCell(`${formatBase(units, of.scale)} ${of.symbol}`, { ...BOLD_STYLE, alignment: { horizontal: 'right' } }), cost === null ? textCell('unknown', BOLD_STYLE) : { value: Number(formatBase(cost, input.minorUnits)), style: { ...decimalStyle(input.minorUnits), font: BOLD_STYLE.font } }]);
    group = [];
  };
  for (const r of input.rows) {
    if (group[0] !== undefined && (group[0].lot.walletId !== r.lot.walletId || group[0].lot.currency !== r.lot.currency)) await flush();
    group.push(r);
    const of = input.unitsOf(r.lot.currency);
    putRow(sheet, [textCell(input.walletName(r.lot.walletId)), textCell(`${formatBase(r.lot.units, of.scale)} ${of.symbol}`, { alignment: { horizontal: 'right' } }), r.lot.cost === null ? textCell('unknown') : { value: Number(formatBase(r.lot.cost, input.minorUnits)), style: decimalStyle(input.minorUnits) }, textCell(usDay(r.acquiredDay)), textCell(r.lot.ref === null ? 'opening balance of the wallet' : `units deposited later by ${r.lot.ref}`)]);
  }
  await flush();
  const total = input.rows.reduce((a, r) => a + (r.lot.cost ?? 0n), 0n);
  putWrapped(sheet, `Basis allocated in all: ${groupThousands(formatBase(total, input.minorUnits))} ${input.booksCurrency} over ${input.rows.length} lot(s) in ${new Set(input.rows.map((r) => r.lot.walletId)).size} wallet(s).`, WIDTHS, BOLD_STYLE);
  await workbook.commitSheet(sheet);
}
