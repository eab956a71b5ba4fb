/**
 * The lots pass of the report stage (docs/lots.md): the window's lots and reliefs (lots-run.ts:
 * the record, or the movements since the last recorded close valued by the journal's builder and
 * run through the subledger); then lot-reliefs.csv, lots.csv (sheet Lots), form-8949.csv and
 * crypto-assets.csv (sheet Crypto assets), and the lots.* checks.
 */
import { journalBuildContext } from '../journal/build-context.js';
import { localDate } from '../journal/build-movement.js';
import { formatBase, groupThousands } from '../money/format.js';
import type { Finding } from '../model/results.js';
import { cumulativeTieout } from './cumulative-tieout.js';
import { custodyRules } from './custody.js';
import { cryptoAssetRows } from './crypto-assets-rows.js';
import type { Lot } from './model.js';
import { withdrawalFindings } from './withdrawals.js';
import { fairValueAt } from './fair-value.js';
import { lotsChecks } from './lots-checks.js';
import type { LotsStageInput } from './lots-input.js';
import { lotsRun, type LotsRun } from './lots-run.js';
import { figureKey } from './period-run.js';
import { shareByUnits } from './relief.js';
import { daysBetween, termOfDays } from './term.js';
import { writeTaxFiles } from './tax/tax-files.js';
import { taxOptions } from './tax/tax-options.js';
import { TAX_CHECKS } from '../reconcile/catalogue/tax.js';
import { CRYPTO_ASSETS_TABLE } from './tables/crypto-assets.js';
import { cryptoAssetsNote, cryptoOverview, TIE_CHECKS } from './crypto-assets-note.js';
import { noteChecks } from './note-checks.js';
import { lotsDisclosure } from '../config/lots-schema.js';
import type { CryptoOverview } from '../model/crypto-overview.js';
import { LOT_RELIEFS_TABLE } from './tables/lot-reliefs.js';
import { LOTS_TABLE, type HeldLotRow } from './tables/lots.js';

export interface LotsStageResult {
  findings: Finding[];
  evaluated: Record<string, number>;
  lotsHeld: number;
  reliefLines: number;
  /** the run summary's line (the terminal) */
  overview: string;
  /** the Overview's crypto block */
  crypto: CryptoOverview;
  /** where the lots came from: the period's record, an earlier period's closing lots, or the whole history */
  basis: LotsRun['basis'];
  /** the tax checks that did not run, and why (lots.tax.form8949 off, or no Form 1099-DA file): they are not listed */
  taxSkipped: Record<string, string>;
}

export type { LotsRecordUse, LotsStageInput } from './lots-input.js';

export async function runLotsStage(input: LotsStageInput): Promise<LotsStageResult> {
  const { journal, window } = input;
  const ctx = journalBuildContext(journal, input.prices, input.assets, window.tz);
  const scale = journal.minorUnits;
  const custody = custodyRules(input.lots.config);
  const methods = new Map([...Object.entries(input.lots.config.wallets).map(([id, w]) => [id.toLowerCase(), w.methods] as const), ...custody.methods]);
  const { run, basis, periods, withdrawals, allocation } = await lotsRun(input, ctx, methods, custody);
  const books = journal.booksCurrency.toLowerCase();
  const tracked = (walletId: string, currency: string): boolean => currency !== books && Object.keys(ctx.config.wallets).some((id) => id.toLowerCase() === walletId.toLowerCase());

  // fair value at the window's end: per lot holder from the lots' units, shared over its lots by units
  const lotFair = new Map<string, bigint | null>();
  const byHolder = new Map<string, typeof run.closing>();
  for (const lot of run.closing) byHolder.set(figureKey(lot.walletId, lot.currency), [...(byHolder.get(figureKey(lot.walletId, lot.currency)) ?? []), lot]);
  const held = new Map<string, { lots: readonly Lot[]; fairValue: bigint | null }>();
  for (const [key, lots] of byHolder) {
    const fv = fairValueAt(ctx, lots[0]?.currency ?? '', lots.reduce((a, l) => a + l.units, 0n), window.to);
    held.set(key, { lots, fairValue: fv });
    const shares = fv === null ? null : shareByUnits(fv, lots.map((l) => l.units));
    lots.forEach((l, i) => lotFair.set(l.lotId, shares === null ? null : (shares[i] as bigint)));
  }

  const reliefs = await input.folder.table(LOT_RELIEFS_TABLE);
  for (const line of run.reliefs) await reliefs.write({ line, minorUnits: scale });
  await reliefs.close();
  const lotsTable = await input.folder.table(LOTS_TABLE);
  // each holder's lots of one currency together: the sheet's subtotal rows follow each group (lots.ts)
  // the holding period at the window's end on the books' calendar, as the reliefs' (term.ts)
  const endDay = localDate(ctx.clock, window.to);
  for (const lot of byWalletAndCurrency(run.closing)) {
    const acquiredDay = localDate(ctx.clock, lot.acquiredAt);
    await lotsTable.write({ lot, fairValue: lotFair.get(lot.lotId) ?? null, minorUnits: scale, heldDays: daysBetween(acquiredDay, endDay), term: termOfDays(acquiredDay, endDay) } satisfies HeldLotRow);
  }
  await lotsTable.close();
  const tax = taxOptions(input.lots.config);
  const taxFiles = tax.form8949 ? await writeTaxFiles({ ctx, reliefs: run.reliefs, options: tax, folder: input.folder, window, wallets: input.wallets, assets: input.assets, entity: input.lots.config.entity ?? `organization ${input.organizationId}`, forms1099DA: input.lots.forms1099DA ?? [], allocation: allocation.statement, allocationCheck: allocation.check, csvEol: input.csvEol ?? 'crlf' }) : null;

  // ASU 2023-08 per currency
  const { rows: assetRows, journalFair } = cryptoAssetRows({ ctx, run, window, balances: input.balances, wallets: input.wallets, custody, methods, tracked, held, ...(input.journalCustody === undefined ? {} : { journalCustody: input.journalCustody }) });
  const totals = assetRows.filter((r) => r.location === 'all');
  const fairValues = new Map(totals.map((r) => [r.currency, { lots: r.closingFairValue, journal: journalFair.get(r.currency) ?? null }]));
  const checks = lotsChecks({ figures: run.figures, closing: run.closing, reliefs: run.reliefs, notes: run.notes, balances: input.balances, tracked, fairValues });
  const cumulative = cumulativeTieout(periods, { period: input.record?.period ?? 'the window', from: window.from, figures: run.figures, recorded: basis === 'recorded' });
  const unclassified = withdrawalFindings(withdrawals, ctx);
  checks.findings.push(...cumulative.findings, ...unclassified.findings);
  checks.evaluated['lots.cumulative_tieout'] = cumulative.evaluated;
  checks.evaluated['lots.withdrawal_unclassified'] = unclassified.evaluated;
  if (taxFiles !== null) {
    checks.findings.push(...taxFiles.findings);
    Object.assign(checks.evaluated, taxFiles.evaluated);
  }
  const disclosure = lotsDisclosure(input.lots.config);
  const disclosed = noteChecks({ ctx, window, disclosure, currencies: totals.filter((r) => r.closingFairValue !== 0n || r.units !== 0n).map((r) => r.currency) });
  checks.findings.push(...disclosed.findings);
  Object.assign(checks.evaluated, disclosed.evaluated);

  const note = cryptoAssetsNote({ rows: assetRows, held, custody, ctx, window, methods, wallets: input.wallets, assets: input.assets, entity: input.lots.config.entity ?? `organization ${input.organizationId}`, findings: checks.findings, disclosure });
  const assets = await input.folder.table(CRYPTO_ASSETS_TABLE, { kind: 'crypto-note', note });
  for (const row of assetRows) await assets.write(row);
  await assets.close();

  const plus = (a: bigint | null, b: bigint | null): bigint | null => (a === null || b === null ? null : a + b);
  const realized = totals.reduce<bigint | null>((a, r) => plus(a, r.realizedGain), 0n);
  const unrealized = totals.reduce<bigint | null>((a, r) => plus(a, r.closingFairValue === null || r.costBasis === null ? null : r.closingFairValue - r.costBasis), 0n);
  const tie = checks.findings.some((f) => TIE_CHECKS.has(f.check_id)) ? 'do not tie (see exceptions)' : 'tie';
  const money = (v: bigint | null): string => (v === null ? 'unknown' : `${groupThousands(formatBase(v, scale))} ${journal.booksCurrency}`);
  return {
    findings: checks.findings,
    evaluated: checks.evaluated,
    lotsHeld: run.closing.length,
    reliefLines: run.reliefs.length,
    basis,
    taxSkipped: taxSkips(tax.form8949, (input.lots.forms1099DA ?? []).length > 0, allocation.check !== null),
    overview: `Lots: realized gain ${money(realized)} in the period, unrealized gain ${money(unrealized)} at its end; the lots ${tie}.${unclassified.overview}`,
    // the Overview's crypto block says how the window's withdrawals were treated (docs/lots.md "Withdrawals and own custody")
    crypto: withWithdrawals(cryptoOverview(note), unclassified.overview.trim()),
  };
}

/** The tax checks that did not run, and why (a check that did not run is never shown as passed). */
function taxSkips(form8949: boolean, forms: boolean, allocationChecked: boolean): Record<string, string> {
  const out: Record<string, string> = {};
  for (const check of TAX_CHECKS) {
    if (!form8949) out[check.id] = 'lots.tax.form8949 is false: no US tax file is written';
    else if (check.id.startsWith('tax.1099da_') && !forms) out[check.id] = 'no Form 1099-DA file is configured (lots.tax.forms1099DA)';
    // the close's own outcome on a recorded period's re-run (tax/allocation-record.ts)
    else if (check.id === 'tax.allocation_changed' && !allocationChecked) out[check.id] = 'no allocation recorded by an earlier close to compare the opening-lots file with, or no opening-lots file';
  }
  return out;
}

/** The lots grouped by wallet and currency, each group in the order it was held (a stable sort). */
function byWalletAndCurrency(lots: readonly Lot[]): Lot[] {
  const key = (l: Lot): string => `${l.walletId}|${l.currency}`;
  return [...lots].sort((a, b) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0));
}

function withWithdrawals(block: CryptoOverview, sentence: string): CryptoOverview {
  return sentence === '' ? block : { ...block, notes: [...block.notes, sentence] };
}
