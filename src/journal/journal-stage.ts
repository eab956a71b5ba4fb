/**
 * The journal pass of the report stage: wallet by wallet, the window's balance movements joined
 * to their payments become entries (build-movement.ts), each checked to balance before it is
 * handed to the writers; month-end runs add the period-end fair-value remeasurement; then the
 * tie-outs against balances.csv and fees.csv. Entries stream to every writer as they are built,
 * so memory holds one wallet's movements of the window, never the run's.
 */
import type { JournalConfig } from '../config/journal-schema.js';
import type { AssetRow, LedgerRow, PaymentRow, WalletRow } from '../model/rows.js';
import { finding } from '../reconcile/findings.js';
import { groupByCause, type CausedFinding } from '../reconcile/group-findings.js';
import type { BalanceRow, FeeRow, Finding } from '../model/results.js';
import type { ReportTables } from '../model/report-output.js';
import type { ReportSource } from '../model/ports.js';
import type { Window } from '../model/window.js';
import { windowContains } from '../model/window.js';
import { imbalance } from './balance.js';
import { buildMovementEntry, localDate } from './build-movement.js';
import { journalBuildContext, mappedAccount } from './build-context.js';
import { JournalWriters } from './journal-writers.js';
import { isValued, type JournalEntry } from './model.js';
import { custodyAccount, CustodyTally, type CustodyPort } from './custody-book.js';
import { EntryEmitter } from './entry-emitter.js';
import { PeriodDiscipline, type DisciplineOptions } from './period-discipline.js';
import type { PriceLookup } from './price-file.js';
import { remeasurementEntry } from './remeasurement.js';
import { FeeTieout, WalletTieout } from './tieouts.js';

export interface JournalStageInput {
  config: JournalConfig;
  prices: ReadonlyMap<string, PriceLookup>;
  source: ReportSource;
  organizationId: string;
  wallets: readonly WalletRow[];
  assets: readonly AssetRow[];
  window: Window;
  period: string;
  /** add the period-end remeasurement (month-end runs) */
  periodEnd: boolean;
  /** what the auto-fetch of the window's prices found (undefined: no auto-fetch) */
  priceFindings?: readonly Finding[];
  /** what was exported for closed periods (null: the spool keeps no record) */
  discipline?: DisciplineOptions | null;
  balances: readonly BalanceRow[];
  fees: readonly FeeRow[];
  folder: ReportTables;
  /**
   * the company's own custody wallets (the lots' configuration): deposits and withdrawals to or from
   * one post to its account, and a month-end remeasures it like a wallet (custody-book.ts)
   */
  custody?: CustodyPort;
}

export interface JournalStageResult {
  findings: Finding[];
  /** subjects each journal check looked at */
  evaluated: Record<string, number>;
  entries: number;
  lines: number;
  needsPrice: number;
  /** entries not emitted again, corrected, posted late or left to the amending month-end */
  discipline: PeriodDiscipline['counts'] | null;
  /** the own custody wallets' units at the window's end, as the journal moved them (lots.fair_value_tieout) */
  custody: ReadonlyArray<{ holder: string; currency: string; units: bigint }>;
}

/** The earliest instant: payments of a window's movements may have been created any time before. */
const EPOCH = '0001-01-01T00:00:00.000000Z';

export async function runJournalStage(input: JournalStageInput): Promise<JournalStageResult> {
  const { config, window } = input;
  const custodyPort = input.custody;
  const ctx = journalBuildContext(config, input.prices, input.assets, window.tz, custodyPort === undefined ? undefined : custodyAccount(custodyPort));
  const custody = custodyPort === undefined ? null : new CustodyTally(custodyPort, window);
  const { clock, display } = ctx;
  const commodities = [{ symbol: 'SATS', decimals: 3 }, { symbol: 'USD', decimals: 2 }, ...input.assets.map((a) => ({ symbol: display.commodity(a.currency), decimals: a.decimal_display }))];
  const writers = await JournalWriters.open(input.folder, { config, display, period: input.period, openDate: localDate(clock, window.from), commodities });
  const findings: Finding[] = [];
  const unpriced: CausedFinding[] = [];
  const evaluated: Record<string, number> = {};
  const count = (check: string, n = 1): void => {
    evaluated[check] = (evaluated[check] ?? 0) + n;
  };
  const walletTieout = new WalletTieout();
  const feeTieout = new FeeTieout(config);
  const balanced = (entry: JournalEntry): boolean => {
    const problem = imbalance(entry);
    count('journal.unbalanced');
    if (problem === null) return true;
    findings.push(finding('journal.unbalanced', { subject_kind: 'ledger_entry', subject_id: entry.ledgerRef ?? entry.entryNo, wallet_id: entry.walletId, message: `entry ${entry.entryNo} does not balance: ${problem}; it is written nowhere` }));
    return false;
  };
  const stage: StageTally = { ctx, window, custody, walletTieout, feeTieout, findings, unpriced, count, balanced, needsPrice: 0 };
  const discipline = input.discipline ? await PeriodDiscipline.open(input.discipline, clock) : null;
  const emitter = new EntryEmitter(config, writers, discipline);
  const remeasuring = input.periodEnd && config.fairValue !== undefined && config.fairValue.enabled ? config.fairValue : null;

  try {
    for (const wallet of input.wallets) {
      const walletAccount = mappedAccount(config, wallet.wallet_id);
      const movements = await windowMovements(input, wallet.wallet_id, custody);
      const balances = input.balances.filter((b) => b.wallet_id === wallet.wallet_id);
      count('journal.wallet_unmapped');
      if (walletAccount === null) {
        if (movements.length > 0 || balances.some((b) => b.closing_base !== 0n)) {
          findings.push(finding('journal.wallet_unmapped', { subject_kind: 'wallet', subject_id: wallet.wallet_id, wallet_id: wallet.wallet_id, actual: BigInt(movements.length), message: `wallet ${wallet.wallet_id} (${wallet.name}) has no asset account in journal.wallets: its ${movements.length} movement(s) are not journaled` }));
        }
        continue;
      }
      const payments = await movementPayments(input, wallet.wallet_id, movements, feeTieout);
      const entries = movementEntries(stage, walletAccount, movements, payments);
      if (remeasuring !== null) {
        // each crypto balance to fair value at the period's end, beside the wallet's own entries
        for (const balance of balances.filter((b) => b.currency !== config.booksCurrency.toLowerCase())) {
          const outcome = remeasurementEntry(ctx, remeasuring, balance, walletTieout.valuedNet(wallet.wallet_id, balance.currency), window, input.period);
          findings.push(...outcome.findings);
          if (outcome.entry !== null && balanced(outcome.entry)) entries.push(outcome.entry);
        }
      }
      await emitter.emit(entries);
    }
    // the own custody wallets last, each remeasured like a wallet (custody-book.ts)
    const held = custody?.holdings() ?? [];
    if (remeasuring !== null && custodyPort !== undefined) {
      for (const h of held) {
        // a custody wallet without an account of its own posts its moves to balanceMovements: its remeasurement then goes to the adjustment account
        const accounts = { adjustment: custodyPort.account(h.wallet_id) ?? remeasuring.adjustment, gainLoss: remeasuring.gainLoss };
        const outcome = remeasurementEntry(ctx, accounts, h, h.periodFiat, window, input.period, `own custody wallet ${custodyPort.name(h.wallet_id) ?? h.wallet_id}`);
        findings.push(...outcome.findings);
        if (outcome.entry !== null && balanced(outcome.entry)) await emitter.emit([outcome.entry]);
      }
    }
    const mapped = (id: string): boolean => mappedAccount(config, id) !== null;
    for (const t of [...walletTieout.check(input.balances, mapped), ...feeTieout.check(input.fees, mapped)]) {
      count(t.check);
      if (t.finding !== null) findings.push(t.finding);
    }
    findings.push(...groupByCause(unpriced, { members: 'ledger entries', detail: 'journal.csv (needs_price true) and the Journal sheet' }));
    const totals = await writers.close();
    if (input.priceFindings !== undefined) addFetchFindings(stage, input.priceFindings);
    return { findings, evaluated, entries: totals.entries, lines: totals.lines, needsPrice: stage.needsPrice, discipline: discipline?.counts ?? null, custody: held.map((h) => ({ holder: h.wallet_id, currency: h.currency, units: h.closing_base })) };
  } catch (error) {
    await writers.abort();
    throw error;
  }
}

/** The wallet's ledger movements in the window (memo lines aside); the custody tally sees every line as it passes. */
async function windowMovements(input: JournalStageInput, walletId: string, custody: CustodyTally | null): Promise<LedgerRow[]> {
  const movements: LedgerRow[] = [];
  for await (const batch of input.source.ledger(input.organizationId, walletId, { withoutRaw: true })) {
    for (const row of batch) {
      if (windowContains(input.window, row.effective_time) && row.effect !== 'memo') movements.push(row);
      custody?.see(row);
    }
  }
  return movements;
}

/** The payments the movements name (created any time before the window's end); the window's others are fees posted later. */
async function movementPayments(input: JournalStageInput, walletId: string, movements: readonly LedgerRow[], feeTieout: FeeTieout): Promise<Map<string, PaymentRow>> {
  const { window } = input;
  const wanted = new Set(movements.map((m) => m.payment_id).filter((id): id is string => id !== null));
  const payments = new Map<string, PaymentRow>();
  for await (const batch of input.source.payments({ organization_id: input.organizationId, wallet_id: walletId, window: { from: EPOCH, to: window.to, tz: window.tz }, withoutRaw: true })) {
    for (const p of batch) {
      if (wanted.has(p.payment_id)) payments.set(p.payment_id, p);
      else if (p.created_at >= window.from) feeTieout.postedLater(p);
    }
  }
  return payments;
}

/** What the stage gathers while it journals the wallets, one by one. */
interface StageTally {
  ctx: ReturnType<typeof journalBuildContext>;
  window: Window;
  custody: CustodyTally | null;
  walletTieout: WalletTieout;
  feeTieout: FeeTieout;
  findings: Finding[];
  /** lines without a price: grouped by cause at the end (group-findings.ts) */
  unpriced: CausedFinding[];
  count(check: string, n?: number): void;
  /** the entry balances (else a finding, and it is written nowhere) */
  balanced(entry: JournalEntry): boolean;
  needsPrice: number;
}

/** A wallet's movements of the window as journal entries, each counted by the checks it was looked at for. */
function movementEntries(stage: StageTally, walletAccount: string, movements: readonly LedgerRow[], payments: ReadonlyMap<string, PaymentRow>): JournalEntry[] {
  const entries: JournalEntry[] = [];
  for (const row of movements) {
    const payment = row.payment_id === null ? null : payments.get(row.payment_id) ?? null;
    const outcome = buildMovementEntry(stage.ctx, walletAccount, row, payment);
    // a line without a price is one of many of its cause: grouped at the end (group-findings.ts)
    for (const f of outcome.findings) {
      if (f.check_id === 'journal.needs_price') stage.unpriced.push({ finding: f, cause: 'no_price', text: `have no ${stage.ctx.config.booksCurrency} price (payment quote, price file, price cache)`, at: row.effective_time });
      else stage.findings.push(f);
    }
    stage.count('journal.unposted');
    if (outcome.entry === null) continue;
    if (!isValued(outcome.entry)) stage.needsPrice += 1;
    stage.count('journal.needs_price');
    if (row.effect === 'debit' && row.payment_id !== null) stage.count('journal.breakdown_unknown');
    stage.walletTieout.add(outcome.entry);
    stage.feeTieout.add(outcome.entry, payment, stage.window);
    stage.custody?.posted(outcome.entry);
    if (stage.balanced(outcome.entry)) entries.push(outcome.entry);
  }
  return entries;
}

/** The auto-fetch ran before the pull (src/jobs/auto-fetch-prices.ts): its findings belong with the valuation they explain. */
function addFetchFindings(stage: StageTally, priceFindings: readonly Finding[]): void {
  stage.count('journal.price_fetch_failed');
  stage.count('journal.price_gap');
  stage.findings.push(...priceFindings);
}
