/**
 * The US tax files of a report folder (docs/tax.md), from the window's relief lines: form-8949.csv
 * (one line per relief line, with its box) with the Form 8949 statement's sheets, one per box, and
 * form-8949-totals.csv with its sheet (what goes to Schedule D). Written only when
 * `lots.tax.form8949` is on (the default).
 */
import type { BuildContext } from '../../journal/build-movement.js';
import { localDate } from '../../journal/build-movement.js';
import type { WalletRow } from '../../model/rows.js';
import type { Window } from '../../model/window.js';
import type { ReportTables } from '../../model/report-output.js';
import type { ReliefLine } from '../model.js';
import { dayWords } from '../tables/crypto-assets-words.js';
import { FORM_8949_TABLE } from '../tables/form-8949.js';
import { writeForm8949Statement } from '../tables/form-8949-statement.js';
import { FORM_8949_TOTALS_TABLE } from '../tables/form-8949-totals.js';
import { form8949Lines, type Form8949Line } from './form-8949-lines.js';
import { boxTotals, type BoxTotal } from './form-8949-totals.js';
import type { TaxOptions } from './tax-options.js';
import type { UnitsOf } from './units-description.js';

export interface TaxFilesInput {
  ctx: BuildContext;
  reliefs: readonly ReliefLine[];
  options: TaxOptions;
  /** the report folder; the statement's sheets are laid out on its workbook */
  folder: ReportTables<Parameters<typeof writeForm8949Statement>[0]>;
  window: Window;
  wallets: readonly WalletRow[];
  entity: string;
}

export interface TaxFiles {
  lines: Form8949Line[];
  totals: BoxTotal[];
}

export async function writeTaxFiles(input: TaxFilesInput): Promise<TaxFiles> {
  const { ctx, options, folder } = input;
  const minorUnits = ctx.config.minorUnits;
  const day = (instant: string): string => localDate(ctx.clock, instant);
  const units = (currency: string): UnitsOf => unitsOf(ctx, currency);
  const lines = form8949Lines(input.reliefs, { day, unitsOf: units, receiptOf: options.receiptOf, booksCurrency: ctx.config.booksCurrency, minorUnits });
  const totals = boxTotals(lines);
  const names = new Map(input.wallets.map((w) => [w.wallet_id.toLowerCase(), w.name ?? '']));
  const statement = {
    entity: input.entity,
    identifyingNumber: options.identifyingNumber,
    period: periodWords(input.window, day),
    lines,
    totals,
    minorUnits,
    unitsOf: units,
    walletName: (walletId: string) => names.get(walletId.toLowerCase()) || walletId,
  };
  const form = await folder.table(FORM_8949_TABLE, (book) => writeForm8949Statement(book, statement));
  for (const line of lines) await form.write({ line, minorUnits });
  await form.close();
  const table = await folder.table(FORM_8949_TOTALS_TABLE);
  for (const total of totals) await table.write({ total, minorUnits });
  await table.close();
  return { lines, totals };
}

/** How the description names a currency's units (units-description.ts). */
function unitsOf(ctx: BuildContext, currency: string): UnitsOf {
  if (currency === 'btc') return { symbol: 'BTC', scale: 11, baseUnitName: 'msat' };
  const symbol = ctx.display.commodity(currency);
  return { symbol, scale: ctx.display.decimals(currency), baseUnitName: `base units of ${symbol}` };
}

/** "1 October 2026 to 31 October 2026 (America/New_York)": the window's first and last days in the books' zone. */
function periodWords(window: Window, day: (instant: string) => string): string {
  const lastInstant = new Date(Date.parse(window.to.slice(0, 23) + 'Z') - 1).toISOString().replace(/\.(\d{3})Z$/, '.$1000Z');
  return `${dayWords(day(window.from))} to ${dayWords(day(lastInstant))} (${window.tz})`;
}
