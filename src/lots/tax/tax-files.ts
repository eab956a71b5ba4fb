/**
 * The US tax files of a report folder (docs/tax.md), from the window's relief lines:
 *
 *   form-1099-da-reconciliation.csv   the brokers' Forms 1099-DA beside the disposals (with lots.tax.forms1099DA)
 *   form-8949.csv + statement sheets  one line per relief line with its box; one sheet per box
 *   form-8949-totals.csv              per part and box, what goes to Schedule D
 *   form-8949-taxact.csv, .txf        the lines as TaxAct's and TurboTax's imports read them
 *   rev-proc-2024-28-allocation.csv   the 1 January 2025 allocation: the opening-lots file's, or the one a close recorded
 *
 * Written only when `lots.tax.form8949` is on (the default). The reconciliation comes first: a
 * matched form decides its lines' box and adjustments.
 */
import { basename } from 'node:path';
import type { BuildContext } from '../../journal/build-movement.js';
import { localDate } from '../../journal/build-movement.js';
import type { Finding } from '../../model/results.js';
import type { Window } from '../../model/window.js';
import { finding } from '../../reconcile/findings.js';
import { ALLOCATION_TABLE, writeAllocationSheet } from '../tables/allocation-statement.js';
import { dayWords } from '../tables/crypto-assets-words.js';
import { FORM_8949_TABLE } from '../tables/form-8949.js';
import { writeForm8949Statement } from '../tables/form-8949-statement.js';
import { FORM_8949_TOTALS_TABLE } from '../tables/form-8949-totals.js';
import { allocationRows } from './allocation.js';
import { form8949Lines, type Form8949Line } from './form-8949-lines.js';
import { boxTotals, type BoxTotal } from './form-8949-totals.js';
import { writeReconciliation } from './reconciliation-file.js';
import { writeImportFiles } from './import-files.js';
import type { TaxFilesInput } from './tax-input.js';
import type { UnitsOf } from './units-description.js';


export interface TaxFiles {
  lines: Form8949Line[];
  totals: BoxTotal[];
  findings: Finding[];
  evaluated: Record<string, number>;
}

export async function writeTaxFiles(input: TaxFilesInput): Promise<TaxFiles> {
  const { ctx, options, folder } = input;
  const minorUnits = ctx.config.minorUnits;
  const day = (instant: string): string => localDate(ctx.clock, instant);
  const units = (currency: string): UnitsOf => unitsOf(ctx, currency);
  const [firstDay, lastDay] = windowDays(input.window, day);
  const reconciliation = await writeReconciliation({ ctx, input, day, firstDay, lastDay, units });
  const lines = form8949Lines(input.reliefs, { day, unitsOf: units, receiptOf: options.receiptOf, booksCurrency: ctx.config.booksCurrency, minorUnits, ...(reconciliation === null ? {} : { reportOf: reconciliation.reportOf }) });
  const totals = boxTotals(lines);
  const names = new Map(input.wallets.map((w) => [w.wallet_id.toLowerCase(), w.name ?? '']));
  const statement = {
    entity: input.entity,
    identifyingNumber: options.identifyingNumber,
    period: `${dayWords(firstDay)} to ${dayWords(lastDay)} (${input.window.tz})`,
    lines,
    totals,
    minorUnits,
    unitsOf: units,
  };
  const walletName = (walletId: string): string => names.get(walletId.toLowerCase()) || walletId;
  const form = await folder.table(FORM_8949_TABLE, (book) => writeForm8949Statement(book, statement));
  for (const line of lines) await form.write({ line, minorUnits });
  await form.close();
  const table = await folder.table(FORM_8949_TOTALS_TABLE);
  for (const total of totals) await table.write({ total, minorUnits });
  await table.close();
  const imports = await writeImportFiles(folder, lines, { minorUnits, exportDay: lastDay, eol: input.csvEol });
  if (input.allocation !== null) {
    const rows = allocationRows(input.allocation.rows, day);
    const sheet = { entity: input.entity, tz: input.window.tz, source: basename(input.allocation.file), rows, minorUnits, booksCurrency: ctx.config.booksCurrency, unitsOf: units, walletName };
    const allocation = await folder.table(ALLOCATION_TABLE, (book) => writeAllocationSheet(book, sheet));
    for (const row of rows) await allocation.write({ row, minorUnits });
    await allocation.close();
  }
  return {
    lines,
    totals,
    findings: [...(reconciliation?.findings ?? []), ...imports.findings, ...allocationFindings(input.allocationCheck)],
    evaluated: { ...(reconciliation?.evaluated ?? {}), ...imports.evaluated, ...(input.allocationCheck === null ? {} : { 'tax.allocation_changed': 1 }) },
  };
}

/** tax.allocation_changed: the one warning the run's comparison made (allocation-record.ts), about the statement it keeps. */
function allocationFindings(check: TaxFilesInput['allocationCheck']): Finding[] {
  if (check === null || check.warning === null) return [];
  return [finding('tax.allocation_changed', { subject_kind: 'run', subject_id: ALLOCATION_TABLE.file, wallet_id: null, message: check.warning })];
}

/** How the description names a currency's units (units-description.ts). */
function unitsOf(ctx: BuildContext, currency: string): UnitsOf {
  if (currency === 'btc') return { symbol: 'BTC', scale: 11, baseUnitName: 'msat' };
  const symbol = ctx.display.commodity(currency);
  return { symbol, scale: ctx.display.decimals(currency), baseUnitName: `base units of ${symbol}` };
}

/** The window's first and last days in the books' zone (its end is exclusive). */
function windowDays(window: Window, day: (instant: string) => string): [string, string] {
  const lastInstant = new Date(Date.parse(window.to.slice(0, 23) + 'Z') - 1).toISOString().replace(/\.(\d{3})Z$/, '.$1000Z');
  return [day(window.from), day(lastInstant)];
}
