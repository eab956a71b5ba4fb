/**
 * The lots pass of the report stage (docs/lots.md): the tracked wallets' whole history valued by
 * the journal's builder, turned into subledger events, run through the subledger up to the
 * window's end; then lot-reliefs.csv, lots.csv (sheet Lots), form-8949.csv and crypto-assets.csv
 * (sheet Crypto assets), and the lots.* checks.
 */
import type { JournalConfig } from '../config/journal-schema.js';
import { journalBuildContext } from '../journal/build-context.js';
import { localDate } from '../journal/build-movement.js';
import type { PriceLookup } from '../journal/price-file.js';
import { formatBase, groupThousands } from '../money/format.js';
import type { ExportedEntry, JournalExports } from '../model/journal-record.js';
import type { LotsRecord } from '../model/lots-record.js';
import type { ReportSource } from '../model/ports.js';
import type { BalanceRow, Finding } from '../model/results.js';
import type { AssetRow, WalletRow } from '../model/rows.js';
import type { Window } from '../model/window.js';
import type { ReportFolder } from '../sinks/report-folder.js';
import { collectMovements } from './collect-movements.js';
import { lotEvents } from './events.js';
import { fairValueAt } from './fair-value.js';
import { lotsChecks } from './lots-checks.js';
import type { LotsSetup } from './lots-setup.js';
import { methodAt } from './method.js';
import { cumulativeOf, periodRecord, recordedRun } from './period-record.js';
import { figureKey, runPeriod, type PeriodRun } from './period-run.js';
import { shareByUnits } from './relief.js';
import type { Lot } from './model.js';
import { Subledger } from './subledger.js';
import { CRYPTO_ASSETS_TABLE, type CryptoAssetRow } from './tables/crypto-assets.js';
import { cryptoOverview, writeCryptoAssetsSheet } from './tables/crypto-assets-sheet.js';
import { cryptoAssetsNote } from './crypto-assets-note.js';
import type { CryptoOverview } from '../sinks/overview-crypto.js';
import { FORM_8949_TABLE, type Form8949Row } from './tables/form-8949.js';
import { LOT_RELIEFS_TABLE } from './tables/lot-reliefs.js';
import { LOTS_TABLE, type HeldLotRow } from './tables/lots.js';

export interface LotsStageInput {
  lots: LotsSetup;
  journal: JournalConfig;
  prices: ReadonlyMap<string, PriceLookup>;
  source: ReportSource;
  organizationId: string;
  wallets: readonly WalletRow[];
  assets: readonly AssetRow[];
  window: Window;
  balances: readonly BalanceRow[];
  folder: ReportFolder;
  /** the snapshot's record of closed periods (null on the spool) and what this run does with it */
  record?: LotsRecordUse | null;
}

export interface LotsRecordUse {
  lots: LotsRecord;
  runId: string;
  period: string;
  /** the period was closed before this run (an amended folder): show its record when there is one */
  closed: boolean;
  /** this month-end closes the period: stage what it computes (the pipeline confirms it) */
  stage: boolean;
  /** the journal's record: which movements a recorded period posted (a late one is applied in the first open period) */
  journal?: JournalExports | null;
}

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
  basis: 'recorded' | 'seeded' | 'history';
}

export async function runLotsStage(input: LotsStageInput): Promise<LotsStageResult> {
  const { journal, window } = input;
  const ctx = journalBuildContext(journal, input.prices, input.assets, window.tz);
  const scale = journal.minorUnits;
  const methods = new Map(Object.entries(input.lots.config.wallets).map(([id, w]) => [id.toLowerCase(), w.methods]));
  const rec = input.record ?? null;
  const stored = rec !== null && rec.closed ? await rec.lots.period(input.organizationId, rec.period) : null;
  // the record stands for the period's own window only (not a nightly's day inside it)
  const recorded = stored !== null && stored.windowFrom === window.from && stored.windowTo === window.to ? stored : null;
  let run: PeriodRun;
  let basis: LotsStageResult['basis'] = 'recorded';
  if (recorded !== null) run = recordedRun(recorded, window);
  else {
    // a closed period's lots are never recomputed: start from the latest one recorded before the window
    const seed = rec === null ? null : await rec.lots.latestEndingBy(input.organizationId, window.from);
    basis = seed === null ? 'history' : 'seeded';
    const exports = rec?.journal ?? null;
    // what the closing run posted: exported by that very run (or corrected since: it was posted once);
    // an entry a later run posted late (an amended re-run of the closed month) was not in its lots
    const seen = (e: ExportedEntry): boolean => seed?.runId === undefined || e.runId === undefined || e.runId === seed.runId || e.corrections > 0;
    const late = seed === null || exports === null ? null : { period: seed.period, from: seed.windowFrom, exported: async (nos: readonly string[]) => new Set([...(await exports.find(input.organizationId, nos)).values()].filter(seen).map((e) => e.entryNo)) };
    const movements = await collectMovements(ctx, input.source, input.organizationId, input.wallets, window, seed?.windowTo ?? null, late);
    const { events, paired } = lotEvents(movements);
    const walletIds = new Set(input.wallets.map((w) => w.wallet_id.toLowerCase()));
    // a seeded run keeps the file's deposit rows (a later deposit's basis) but not its opening balances
    const openings = input.lots.openings.filter((o) => walletIds.has(o.walletId) && (seed === null || o.ref !== null));
    const ledger = new Subledger({ methods, identifications: input.lots.identifications }, openings);
    if (seed !== null) ledger.seed(seed.lots.filter((l) => walletIds.has(l.walletId.toLowerCase())) as Lot[]);
    run = runPeriod(ledger, events, movements, paired, window, seed === null ? new Map() : cumulativeOf(seed));
    if (rec !== null && rec.stage) {
      await rec.lots.clearPending(input.organizationId);
      await rec.lots.stage(input.organizationId, rec.runId, periodRecord(run, rec.period, window));
    }
  }
  const books = journal.booksCurrency.toLowerCase();
  const tracked = (walletId: string, currency: string): boolean => currency !== books && Object.keys(ctx.config.wallets).some((id) => id.toLowerCase() === walletId.toLowerCase());

  // fair value at the window's end: per wallet from the lots' units, shared over its lots by units
  const lotFair = new Map<string, bigint | null>();
  const byWallet = new Map<string, typeof run.closing>();
  for (const lot of run.closing) byWallet.set(figureKey(lot.walletId, lot.currency), [...(byWallet.get(figureKey(lot.walletId, lot.currency)) ?? []), lot]);
  const walletFair = new Map<string, bigint | null>();
  for (const [key, lots] of byWallet) {
    const fv = fairValueAt(ctx, lots[0]?.currency ?? '', lots.reduce((a, l) => a + l.units, 0n), window.to);
    walletFair.set(key, fv);
    const shares = fv === null ? null : shareByUnits(fv, lots.map((l) => l.units));
    lots.forEach((l, i) => lotFair.set(l.lotId, shares === null ? null : (shares[i] as bigint)));
  }

  const reliefs = await input.folder.table(LOT_RELIEFS_TABLE);
  for (const line of run.reliefs) await reliefs.write({ line, minorUnits: scale });
  await reliefs.close();
  const held = await input.folder.table(LOTS_TABLE);
  // each wallet's lots of one currency together: the sheet's subtotal rows follow each group (lots.ts)
  for (const lot of byWalletAndCurrency(run.closing)) await held.write({ lot, fairValue: lotFair.get(lot.lotId) ?? null, minorUnits: scale } satisfies HeldLotRow);
  await held.close();
  const form = input.folder.extraCsv(FORM_8949_TABLE);
  const usDate = (instant: string): string => {
    const [y, m, d] = localDate(ctx.clock, instant).split('-');
    return `${m ?? ''}/${d ?? ''}/${y ?? ''}`;
  };
  for (const term of ['short', 'long'] as const) {
    for (const r of run.reliefs) {
      if (r.term !== term) continue;
      const name = input.wallets.find((w) => w.wallet_id === r.walletId)?.name ?? r.walletId;
      const row: Form8949Row = { part: term === 'short' ? 'I' : 'II', description: `${r.currency === 'btc' ? `${formatBase(r.units, 11)} BTC` : ctx.display.source({ amount: r.units, currency: r.currency, unit: '' })} (${name}, ${r.part.replace('_', ' ')} of ${r.disposalRef})`, acquired: usDate(r.acquiredAt), sold: usDate(r.disposedAt), proceeds: r.proceeds, cost: r.cost, gain: r.gain, minorUnits: scale };
      await form.write(row);
    }
  }
  await form.close();

  // ASU 2023-08 per currency
  const perCurrency = new Map<string, CryptoAssetRow>();
  const journalFair = new Map<string, bigint | null>();
  const plus = (a: bigint | null, b: bigint | null): bigint | null => (a === null || b === null ? null : a + b);
  const keys = new Set([...run.figures.keys(), ...input.balances.filter((b) => tracked(b.wallet_id, b.currency)).map((b) => figureKey(b.wallet_id, b.currency))]);
  for (const key of [...keys].sort()) {
    const [walletId = '', currency = ''] = key.split('|');
    const f = run.figures.get(key);
    const balance = input.balances.find((b) => b.wallet_id === walletId && b.currency === currency);
    const row = perCurrency.get(currency) ?? { currency, methods: '', units: 0n, costBasis: 0n, openingFairValue: 0n, additions: 0n, dispositions: 0n, transfersNet: 0n, remeasurementGain: 0n, closingFairValue: 0n, realizedGain: 0n, cumulativeRealizedGain: 0n, minorUnits: scale };
    const lots = byWallet.get(key) ?? [];
    const closingFv = lots.length === 0 ? 0n : (walletFair.get(key) ?? null);
    const openingFv = balance === undefined ? 0n : fairValueAt(ctx, currency, balance.opening_base, window.from);
    const flows = f === undefined ? 0n : plus(plus(f.additions, f.dispositions === null ? null : -f.dispositions), f.transfersNet);
    row.units += lots.reduce((a, l) => a + l.units, 0n);
    row.costBasis = plus(row.costBasis, lots.some((l) => l.cost === null) ? null : lots.reduce((a, l) => a + (l.cost as bigint), 0n));
    row.openingFairValue = plus(row.openingFairValue, openingFv);
    row.additions = plus(row.additions, f?.additions ?? 0n);
    row.dispositions = plus(row.dispositions, f?.dispositions ?? 0n);
    row.transfersNet = plus(row.transfersNet, f?.transfersNet ?? 0n);
    row.closingFairValue = plus(row.closingFairValue, closingFv);
    // the journal's remeasurement brings the carrying value to fair value: what the flows do not explain
    row.remeasurementGain = plus(row.remeasurementGain, closingFv === null || openingFv === null || flows === null ? null : closingFv - openingFv - flows);
    row.realizedGain = plus(row.realizedGain, f?.realizedGain ?? 0n);
    row.cumulativeRealizedGain = plus(row.cumulativeRealizedGain, f?.cumulativeRealizedGain ?? 0n);
    const method = methodAt(methods.get(walletId), window.to);
    const name = input.wallets.find((w) => w.wallet_id === walletId)?.name ?? walletId;
    row.methods = [row.methods, `${name}: ${method}`].filter((s) => s !== '').join('; ');
    perCurrency.set(currency, row);
    journalFair.set(currency, plus(journalFair.get(currency) ?? 0n, balance === undefined ? 0n : fairValueAt(ctx, currency, balance.closing_base, window.to)));
  }
  const fairValues = new Map([...perCurrency.values()].map((r) => [r.currency, { lots: r.closingFairValue, journal: journalFair.get(r.currency) ?? null }]));
  const checks = lotsChecks({ figures: run.figures, closing: run.closing, reliefs: run.reliefs, notes: run.notes, balances: input.balances, tracked, fairValues });
  const note = cryptoAssetsNote({ rows: [...perCurrency.values()], run, byWallet, walletFair, ctx, window, methods, wallets: input.wallets, assets: input.assets, entity: input.lots.config.entity ?? `organization ${input.organizationId}`, findings: checks.findings });
  const assets = await input.folder.table(CRYPTO_ASSETS_TABLE, (book) => writeCryptoAssetsSheet(book, note));
  for (const row of perCurrency.values()) await assets.write(row);
  await assets.close();

  const realized = [...perCurrency.values()].reduce<bigint | null>((a, r) => plus(a, r.realizedGain), 0n);
  const unrealized = [...perCurrency.values()].reduce<bigint | null>((a, r) => plus(a, r.closingFairValue === null || r.costBasis === null ? null : r.closingFairValue - r.costBasis), 0n);
  const tie = checks.findings.some((f) => f.check_id === 'lots.units_tieout' || f.check_id === 'lots.cost_tieout' || f.check_id === 'lots.fair_value_tieout' || f.check_id === 'lots.gain_identity') ? 'do not tie (see exceptions)' : 'tie';
  const money = (v: bigint | null): string => (v === null ? 'unknown' : `${groupThousands(formatBase(v, scale))} ${journal.booksCurrency}`);
  return {
    findings: checks.findings,
    evaluated: checks.evaluated,
    lotsHeld: run.closing.length,
    reliefLines: run.reliefs.length,
    basis,
    overview: `Lots: realized gain ${money(realized)} in the period, unrealized gain ${money(unrealized)} at its end; the lots ${tie}.`,
    crypto: cryptoOverview(note),
  };
}

/** The lots grouped by wallet and currency, each group in the order it was held (a stable sort). */
function byWalletAndCurrency(lots: readonly Lot[]): Lot[] {
  const key = (l: Lot): string => `${l.walletId}|${l.currency}`;
  return [...lots].sort((a, b) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0));
}
