/**
 * Which lots a report window shows, and from what (docs/lots.md "Closed periods", "The replay"):
 *
 *   the window is a recorded close       → its record, as is (an amended folder)
 *   a close is recorded before it        → that close's lots, then the months since and the window
 *   nothing recorded                     → the whole history, month by month, then the window
 *
 * A closing month-end stages what it computed; the pipeline confirms it once the period is closed.
 * Also returns the periods the cumulative realized gain is made of (cumulative-tieout.ts) and the
 * window's withdrawals as classified (withdrawals.ts). Withdrawals and deposits classified
 * own_custody carry their custody wallet into the events (custody.ts). The 1 January 2025 allocation
 * follows the lots: the record's, carried from the close the run starts from, or the file's
 * (tax/allocation-record.ts).
 */
import { localDate, type BuildContext } from '../journal/build-movement.js';
import type { ExportedEntry } from '../model/journal-record.js';
import type { RecordedPeriodFigures } from '../model/lots-record.js';
import { collectMovements } from './collect-movements.js';
import type { PeriodGains } from './cumulative-tieout.js';
import { isCustody, type CustodyRules } from './custody.js';
import { lotEvents, type Movement } from './events.js';
import type { LotsStageInput } from './lots-input.js';
import type { MethodPeriod } from './method.js';
import type { Lot } from './model.js';
import { cumulativeOf, periodRecord, recordedRun } from './period-record.js';
import { figureKey, runPeriod, type PeriodRun } from './period-run.js';
import { monthBlocks, replayMonths } from './replay-months.js';
import { Subledger } from './subledger.js';
import { ALLOCATION_LAST_DAY } from './tax/allocation.js';
import { carriedAllocation, recordedAllocation, type AllocationUse } from './tax/allocation-record.js';
import { windowWithdrawals, type WindowWithdrawal } from './withdrawals.js';

export interface LotsRun {
  run: PeriodRun;
  /** where the lots came from: the period's record, an earlier period's closing lots, or the whole history */
  basis: 'recorded' | 'seeded' | 'history';
  /** the periods before the window whose realized gains the cumulative adds up, oldest first */
  periods: PeriodGains[];
  /** the window's withdrawals, classified (withdrawals.ts) */
  withdrawals: WindowWithdrawal[];
  /** the 1 January 2025 allocation the run uses, and its check (tax/allocation-record.ts) */
  allocation: AllocationUse;
}

export async function lotsRun(input: LotsStageInput, ctx: BuildContext, methods: ReadonlyMap<string, readonly MethodPeriod[]>, custody: CustodyRules): Promise<LotsRun> {
  const { window, organizationId } = input;
  const rec = input.record ?? null;
  const day = (instant: string): string => localDate(ctx.clock, instant);
  const file = input.lots.config.openingLots === undefined ? null : { file: input.lots.config.openingLots, rows: input.lots.openings };
  const recordedBefore = rec === null ? [] : (await rec.lots.periodsEndingBy(organizationId, window.from)).map(recordedGains);
  const stored = rec !== null && rec.closed ? await rec.lots.period(organizationId, rec.period) : null;
  // the record stands for the period's own window only (not a nightly's day inside it)
  if (stored !== null && stored.windowFrom === window.from && stored.windowTo === window.to) {
    // the record holds the lots, not which withdrawals were which: the window's movements say it
    const own = await collectMovements(ctx, input.source, organizationId, input.wallets, window, { since: window.from, noPaymentOnly: true });
    return { run: recordedRun(stored, window), basis: 'recorded', periods: recordedBefore, withdrawals: windowWithdrawals(own, window, custody), allocation: recordedAllocation(stored, file, day) };
  }

  // a closed period's lots are never recomputed: start from the latest one recorded before the window
  const seed = rec === null ? null : await rec.lots.latestEndingBy(organizationId, window.from);
  const exports = rec?.journal ?? null;
  // what the closing run posted: exported by that very run (or corrected since: it was posted once);
  // an entry a later run posted late (an amended re-run of the closed month) was not in its lots
  const seen = (e: ExportedEntry): boolean => seed?.runId === undefined || e.runId === undefined || e.runId === seed.runId || e.corrections > 0;
  const late = seed === null || exports === null ? null : { period: seed.period, from: seed.windowFrom, exported: async (nos: readonly string[]) => new Set([...(await exports.find(organizationId, nos)).values()].filter(seen).map((e) => e.entryNo)) };
  const collected = await collectMovements(ctx, input.source, organizationId, input.wallets, window, { since: seed?.windowTo ?? null, late });
  const movements = collected.map((m) => withCustody(m, custody));
  const blocks = monthBlocks(movements, window);
  const walletIds = new Set(input.wallets.map((w) => w.wallet_id.toLowerCase()));
  const allocation = carriedAllocation(seed, file, day);
  // the allocation a close recorded gives the basis of the units it covers, whatever the file says since (section 4.02(6))
  const rows = allocation.recorded === null ? input.lots.openings : [...input.lots.openings.filter((o) => day(o.acquiredAt) > ALLOCATION_LAST_DAY), ...allocation.recorded];
  // a seeded run keeps the file's deposit rows (a later deposit's basis) but not its opening balances
  const openings = rows.filter((o) => walletIds.has(o.walletId) && (seed === null || o.ref !== null));
  const ledger = new Subledger({ methods, identifications: input.lots.identifications, day }, openings);
  // the record's lots of this run's wallets, and those at the company's own custody wallets
  if (seed !== null) ledger.seed(seed.lots.filter((l) => walletIds.has(l.walletId.toLowerCase()) || isCustody(l.walletId)) as Lot[]);
  // the months before the window as their own closes would have computed them (replay-months.ts)
  const replayed = replayMonths(ledger, blocks.months);
  const cumulative = seed === null ? new Map<string, bigint>() : cumulativeOf(seed);
  for (const month of replayed) for (const [key, gain] of month.realized) cumulative.set(key, (cumulative.get(key) ?? 0n) + gain);
  const { events, paired } = lotEvents(blocks.rest);
  const run = runPeriod(ledger, events, blocks.rest, paired, window, cumulative);
  if (rec !== null && rec.stage) {
    await rec.lots.clearPending(organizationId);
    await rec.lots.stage(organizationId, rec.runId, { ...periodRecord(run, rec.period, window), allocation: allocation.record });
  }
  const periods: PeriodGains[] = [
    ...recordedBefore,
    ...replayed.map((m): PeriodGains => ({ period: m.period, from: null, to: m.to, realized: m.realized, cumulative: null })),
    ...(run.realizedBefore !== undefined && run.realizedBefore.size > 0 ? [{ period: `the days before ${window.from}`, from: null, to: window.from, realized: run.realizedBefore, cumulative: null }] : []),
  ];
  return { run, basis: seed === null ? 'history' : 'seeded', periods, withdrawals: windowWithdrawals(movements, window, custody), allocation };
}

/** A withdrawal or deposit classified own_custody carries its custody wallet (custody.ts). */
function withCustody(m: Movement, custody: CustodyRules): Movement {
  if (!m.noPayment) return m;
  const to = custody.classify(m.entry.walletId, m.entry.ledgerRef ?? '').custody;
  return to === undefined ? m : { ...m, custody: to };
}

function recordedGains(p: RecordedPeriodFigures): PeriodGains {
  return {
    period: p.period,
    from: p.windowFrom,
    to: p.windowTo,
    realized: new Map(p.figures.map((f) => [figureKey(f.walletId, f.currency), f.realizedGain])),
    cumulative: new Map(p.figures.map((f) => [figureKey(f.walletId, f.currency), f.cumulativeRealizedGain])),
  };
}
