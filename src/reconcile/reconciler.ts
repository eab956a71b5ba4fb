/**
 * The streaming, per-wallet reconciliation driver. The report stage calls it exactly like this:
 *
 *   const r = new Reconciler({ window, now, wallets, assets, summaries, bills }); // summaries: the API's SummaryBucketRow[] for this window
 *   for (const wallet of wallets) {                                         // sorted by wallet_id
 *     r.startWallet(wallet);
 *     for await (const batch of source.ledger(org, wallet.wallet_id)) r.addLedger(batch);   // ALL the wallet's entries (any window)
 *     for await (const batch of source.payments({ organization_id: org, wallet_id: wallet.wallet_id, window }))
 *       r.addPayments(batch);                                                              // the wallet's payments CREATED in the window
 *     for (const range of billPaymentRanges(window, bills, wallet))                          // the periods of bills tied here, outside the window
 *       for await (const batch of source.payments({ ..., window: { ...range, tz } })) r.addBillPayments(batch);
 *     await r.endWallet((ids) => source.knownPaymentIds(org, ids));                        // which unknown payment ids the snapshot holds
 *   }                                                                                      // (or endWallet() now, resolveUnknown(...) once every wallet is in)
 *   const result = r.finish();   // findings (sorted), checks, fees, balances, summaryChecks, controlTotals, openItems
 *   process.exitCode = hasErrors(result.findings) ? 65 : 0;
 *
 * Protocol: per wallet, every ledger batch comes before the first payment batch (each payment is
 * checked on arrival against the complete ledger index); order within the batches does not matter.
 * Memory is one wallet's compact state (its ledger entries since the window start, the ids of
 * in-window entries whose payment is not yet seen) plus what the run returns (findings, fee and
 * balance rows, summary counts, open items) — never the run's payments or ledger.
 *
 * A finding never stops the run. Misuse of the protocol (a batch of another wallet, ledger after
 * payments, a wallet not in `wallets`, finish() with a wallet of `wallets` never reconciled) is a
 * bug and throws.
 */
import { flagKind } from '../normalize/flags.js';
import type { AssetRow, BillRecord, BillSummaryRow, LedgerRow, PaymentRow, SummaryBucketRow, UtcInstant, WalletRow } from '../model/rows.js';
import { BILL_TIE_CHECKS, BillChecks } from './bill-checks.js';
import { checkResult } from './check-outcome.js';
import { FeeRateHistory } from './fee-rate-history.js';
import { windowContains, type Window } from '../model/window.js';
import { dateFromInstant, toUtcInstant } from '../model/instant.js';
import { CHECKS, type CheckId } from './catalogue.js';
import { ControlTotalsAccumulator, FeeRollup } from './controls.js';
import { findingsFromFlags, UnknownFieldTally, type FlagSubject } from './data-checks.js';
import { compareFindings, compareText, finding } from './findings.js';
import { LedgerIndex } from './ledger-index.js';
import { checkPayment } from './payment-checks.js';

export { hasErrors } from './findings.js';
export { CHECKS, type CheckId } from './catalogue.js';
export type { CheckDefinition } from './catalogue/check-definition.js';
import type { BalanceRow, Finding, OpenItemRow, ReconcileResult, SummaryCheckRow } from '../model/results.js';
import { Rollforward } from './rollforward.js';
import { checkBalanceRow } from './balance-checks.js';
import { SummaryComparison } from './summary-checks.js';

export interface ReconcilerOptions {
  window: Window;
  /** the run's clock reading (open-item ages) */
  now: UtcInstant;
  /** every wallet in scope: each must go through startWallet … endWallet before finish() */
  wallets: readonly WalletRow[];
  /** the assets list; its normalization flags are reported */
  assets: readonly AssetRow[];
  /** the API summary rows pulled for exactly this window; [] when none were pulled (summary checks skipped) */
  summaries: readonly SummaryBucketRow[];
  /** the service's bills overlapping the window, with their line items ([] or absent: no bill was pulled, the bill checks are skipped) */
  bills?: readonly BillRecord[];
  /** the bills summaries pulled with them, per line of credit */
  billSummaries?: readonly BillSummaryRow[];
}

/** Resolves which of these payment ids the snapshot holds at all (ReportSource.knownPaymentIds). */
export type KnownPaymentIds = (ids: readonly string[]) => Promise<Set<string>>;

const RESOLVE_CHUNK = 1_000;
const SUMMARY_FLAG_KINDS: ReadonlySet<string> = new Set(['malformed_value', 'missing_field', 'context_mismatch', 'unknown_field']);

interface WalletState {
  wallet: WalletRow;
  currencies: ReadonlySet<string>;
  ledger: LedgerIndex;
  rollforward: Rollforward;
  /** in-window ledger entries naming a payment not (yet) among this window's payments */
  pending: Map<string, { count: number; sample: string[] }>;
  phase: 'ledger' | 'payments';
}

export class Reconciler {
  private readonly window: Window;
  private readonly nowMs: number;
  private readonly findings: Finding[] = [];
  private readonly evaluated = new Map<CheckId, number>();
  private readonly unknownFields = new UnknownFieldTally();
  private readonly controls = new ControlTotalsAccumulator();
  private readonly fees = new FeeRollup();
  private readonly balances: BalanceRow[] = [];
  private readonly openItems: OpenItemRow[] = [];
  private readonly summaries: SummaryComparison;
  private readonly bills: BillChecks;
  private readonly billsPulled: boolean;
  private readonly feeRates = new FeeRateHistory();
  private readonly started = new Set<string>();
  private readonly inScope: ReadonlySet<string>;
  private current: WalletState | null = null;
  private finished = false;
  /** ended wallets' ledger entries naming payments still to be looked up in the snapshot */
  private readonly unresolved: Array<{ walletId: string; pending: Map<string, { count: number; sample: string[] }> }> = [];

  constructor(options: ReconcilerOptions) {
    const { window } = options;
    if (toUtcInstant(window.from) !== window.from || toUtcInstant(window.to) !== window.to || !(window.from < window.to)) {
      throw new RangeError(`window must be canonical UTC instants with from < to, got [${window.from}, ${window.to})`);
    }
    this.window = window;
    this.nowMs = dateFromInstant(options.now).getTime();
    this.inScope = new Set(options.wallets.map((w) => w.wallet_id));
    this.summaries = new SummaryComparison(options.summaries, options.wallets);
    this.bills = new BillChecks(window, options.bills ?? [], options.billSummaries ?? [], options.wallets);
    this.billsPulled = (options.bills ?? []).length > 0 || (options.billSummaries ?? []).length > 0;
    for (const row of options.summaries) {
      const subjectId = [row.scope, row.scope_id, row.direction, row.status, row.currency, row.kind].filter((x) => x !== null).join(':');
      // Unknown enum values in a bucket repeat what the payments themselves report: only a broken summary is news.
      const flags = (row.flags ?? []).filter((f) => SUMMARY_FLAG_KINDS.has(flagKind(f)));
      this.flagFindings(flags, { subject_kind: 'summary_bucket', subject_id: subjectId, wallet_id: row.scope === 'wallet' ? row.scope_id : null, currency: row.currency }, 'summary');
    }
    for (const asset of options.assets) {
      this.flagFindings(asset.flags ?? [], { subject_kind: 'run', subject_id: asset.currency, wallet_id: null, currency: asset.currency }, 'asset');
    }
  }

  startWallet(wallet: WalletRow): void {
    this.assertOpen();
    if (this.current) throw new Error(`startWallet(${wallet.wallet_id}) before endWallet(${this.current.wallet.wallet_id})`);
    if (this.started.has(wallet.wallet_id)) throw new Error(`wallet ${wallet.wallet_id} started twice`);
    if (!this.inScope.has(wallet.wallet_id)) throw new Error(`wallet ${wallet.wallet_id} is not among the Reconciler's wallets`);
    this.started.add(wallet.wallet_id);
    this.current = {
      wallet,
      currencies: new Set(wallet.balances.map((b) => b.currency).filter((c) => c === 'btc' || c === 'usd')),
      ledger: new LedgerIndex(this.window.from),
      rollforward: new Rollforward(wallet, this.window),
      pending: new Map(),
      phase: 'ledger',
    };
    this.summaries.startWallet(wallet);
    this.feeRates.startWallet(wallet.wallet_id, wallet.environment_id, wallet.fee_policy ?? null);
    if (this.summaries.available) this.count('summary.missing');
    this.flagFindings(wallet.flags, { subject_kind: 'wallet', subject_id: wallet.wallet_id, wallet_id: wallet.wallet_id, currency: null }, 'wallet');
  }

  addLedger(batch: readonly LedgerRow[]): void {
    const state = this.wallet('addLedger');
    if (state.phase !== 'ledger') throw new Error('addLedger after addPayments: the whole ledger must come before the payments');
    for (const row of batch) {
      if (row.wallet_id !== state.wallet.wallet_id) throw new Error(`ledger entry of wallet ${row.wallet_id} while reconciling ${state.wallet.wallet_id}`);
      state.ledger.add(row);
      state.rollforward.add(row);
      this.bills.addLedger(row);
      const t = row.effective_time;
      // Entries after the window end cannot change this window's books: their data quirks wait for their window.
      if (t !== '' && t >= this.window.to) continue;
      const subjectId = `${row.entry_type}:${row.entry_id}`;
      this.flagFindings(row.flags, { subject_kind: 'ledger_entry', subject_id: subjectId, wallet_id: row.wallet_id, currency: row.currency || null }, 'ledger');
      if ((row.currency === 'btc' || row.currency === 'usd') && state.currencies.size > 0) {
        this.count('data.currency_mismatch');
        if (!state.currencies.has(row.currency)) {
          this.findings.push(
            finding('data.currency_mismatch', {
              subject_kind: 'ledger_entry',
              subject_id: subjectId,
              wallet_id: row.wallet_id,
              currency: row.currency,
              message: `ledger entry in ${row.currency}, but the wallet holds ${[...state.currencies].sort().join(', ')}`,
            }),
          );
        }
      }
      if (t < this.window.from) continue;
      this.controls.addLedger(row);
      if (row.payment_id) {
        const pending = state.pending.get(row.payment_id) ?? { count: 0, sample: [] };
        pending.count += 1;
        if (pending.sample.length < 3) pending.sample.push(subjectId);
        state.pending.set(row.payment_id, pending);
      }
    }
  }

  addPayments(batch: readonly PaymentRow[]): void {
    const state = this.wallet('addPayments');
    state.phase = 'payments';
    for (const p of batch) {
      if (p.wallet_id !== state.wallet.wallet_id) throw new Error(`payment of wallet ${p.wallet_id} while reconciling ${state.wallet.wallet_id}`);
      state.pending.delete(p.payment_id);
      this.summaries.count(p);
      this.controls.addPayment(p);
      this.fees.add(p);
      this.bills.addPayment(p);
      this.feeRates.add(p);
      this.flagFindings(p.flags, { subject_kind: 'payment', subject_id: p.payment_id, wallet_id: p.wallet_id, currency: p.currency || null }, 'payment');
      if (p.status_class === 'completed') this.count('payment.fee_unknown');
      if (p.category === 'treasury') this.count('payment.treasury_processing_fee');
      const outcome = checkPayment(p, state.ledger.entriesFor(p.payment_id, p.ledger_ids), { walletCurrencies: state.currencies });
      this.findings.push(...outcome.findings);
      for (const check of outcome.evaluated) this.count(check);
      if (p.status_class === 'open' || p.status_class === 'unknown') this.openItems.push(this.openItem(p));
    }
  }

  /**
   * The wallet's payments created outside the window but inside the period of a bill this window
   * ties (model/bill-period.ts `billPaymentRanges`): they count for that bill only — never for the
   * window's payments, fees, totals or open items. After the wallet's ledger, like its payments.
   */
  addBillPayments(batch: readonly PaymentRow[]): void {
    const state = this.wallet('addBillPayments');
    state.phase = 'payments';
    for (const p of batch) {
      if (p.wallet_id !== state.wallet.wallet_id) throw new Error(`payment of wallet ${p.wallet_id} while reconciling ${state.wallet.wallet_id}`);
      // the window's own payments come through addPayments: here they would count twice on a bill
      if (windowContains(this.window, p.created_at)) throw new Error(`payment ${p.payment_id} created in the window given as a bill period's payment`);
      this.bills.addPayment(p);
    }
  }

  /**
   * Ends the wallet. Its ledger entries that name a payment outside this window's payments are
   * looked up in the snapshot at once (`resolveKnown`), or, without it, kept until
   * `resolveUnknown` — the report behind the pull ends a wallet while other wallets, whose payments
   * such an entry may name, are still being pulled.
   */
  async endWallet(resolveKnown?: KnownPaymentIds): Promise<void> {
    const state = this.wallet('endWallet');
    const walletId = state.wallet.wallet_id;
    this.count('completeness.ledger_without_payment', state.pending.size);
    if (state.pending.size > 0) this.unresolved.push({ walletId, pending: state.pending });
    if (resolveKnown) await this.resolveUnknown(resolveKnown);
    this.closeBalances(state);
    this.feeRates.endWallet();
    this.summaries.endWallet();
    this.current = null;
  }

  /** Looks up the payment ids ended wallets left unresolved; each one the snapshot does not hold is a finding. */
  async resolveUnknown(resolveKnown: KnownPaymentIds): Promise<void> {
    for (const { walletId, pending } of this.unresolved.splice(0)) {
      const ids = [...pending.keys()].sort(compareText);
      const known = new Set<string>();
      for (let i = 0; i < ids.length; i += RESOLVE_CHUNK) {
        for (const id of await resolveKnown(ids.slice(i, i + RESOLVE_CHUNK))) known.add(id);
      }
      for (const id of ids) {
        if (known.has(id)) continue;
        const { count, sample } = pending.get(id) ?? { count: 0, sample: [] };
        this.findings.push(
          finding('completeness.ledger_without_payment', {
            subject_kind: 'payment',
            subject_id: id,
            wallet_id: walletId,
            actual: BigInt(count),
            message: `${count} ledger entr${count === 1 ? 'y' : 'ies'} in the window (${sample.join(', ')}${count > sample.length ? ', ...' : ''}) name payment ${id}, which is neither among this window's payments nor in the snapshot`,
          }),
        );
      }
    }
  }

  finish(): ReconcileResult {
    this.assertOpen();
    if (this.current) throw new Error(`finish() before endWallet(${this.current.wallet.wallet_id})`);
    if (this.unresolved.length > 0) throw new Error('finish() before resolveUnknown() of the wallets ended without it');
    const skipped = [...this.inScope].filter((id) => !this.started.has(id));
    // Summaries and control totals would silently miss a wallet: every wallet in scope must be reconciled.
    if (skipped.length > 0) throw new Error(`finish() with wallets never reconciled: ${skipped.sort(compareText).join(', ')}`);
    this.finished = true;
    this.summaries.finish(this.started);
    this.count('summary.total', this.summaries.evaluatedTotals);
    this.count('summary.bucket', this.summaries.evaluatedBuckets);
    const bills = this.bills.finish();
    for (const [check, n] of this.bills.evaluated) this.count(check, n);
    this.count('fee_rate.change', this.feeRates.evaluated);
    this.count('fee_rate.off_rate', this.feeRates.evaluated);
    this.count('fee_rate.policy_mismatch', this.feeRates.policyCompared);
    this.findings.push(...this.summaries.findings, ...this.unknownFields.findings(), ...bills.findings, ...this.feeRates.findings);
    const findings = [...this.findings].sort(compareFindings);
    const perCheck = new Map<string, number>();
    for (const f of findings) perCheck.set(f.check_id, (perCheck.get(f.check_id) ?? 0) + 1);
    const reasons = this.notRunReasons();
    const checks = CHECKS.map((check) => checkResult(check, perCheck.get(check.id) ?? 0, this.evaluated.get(check.id) ?? 0, reasons(check.id)));
    return {
      findings,
      checks,
      fees: this.fees.result(),
      balances: [...this.balances].sort((a, b) => compareText(a.wallet_id, b.wallet_id) || compareText(a.currency, b.currency)),
      summaryChecks: [...this.summaries.rows].sort(compareSummaryRows),
      controlTotals: this.controls.result(),
      bills: bills.rows,
      feeRates: this.feeRates.rows,
      openItems: [...this.openItems].sort((a, b) => compareText(a.wallet_id, b.wallet_id) || compareText(a.created_at, b.created_at) || compareText(a.payment_id, b.payment_id)),
    };
  }

  /** Why a check could not run in this window (null: it ran): a check that did not run is never shown as passed (check-outcome.ts). */
  private notRunReasons(): (id: string) => string | null {
    const summaries = this.summaries.available ? null : 'no payment summaries were pulled for this window';
    const bills = this.billsPulled ? null : 'no bills were pulled for this window';
    const billsNotTied = bills ?? this.bills.notTiedReason();
    // balances.csv says per wallet why its closing balance was not compared (balance_check_note)
    const apiBalances = this.balances.length > 0 && (this.evaluated.get('balance.api_total') ?? 0) === 0 ? 'no wallet balance of the service could be compared with the ledger (balances.csv, balance_check_note)' : null;
    return (id) => (id.startsWith('summary.') ? summaries : BILL_TIE_CHECKS.has(id as CheckId) ? billsNotTied : id.startsWith('bill.') ? bills : id === 'balance.api_total' ? apiBalances : null);
  }

  private closeBalances(state: WalletState): void {
    for (const row of state.rollforward.rows()) {
      this.balances.push(row);
      const checked = checkBalanceRow(state.wallet.wallet_id, row);
      this.findings.push(...checked.findings);
      for (const check of checked.evaluated) this.count(check);
    }
  }

  private openItem(p: PaymentRow): OpenItemRow {
    const created = p.created_at === '' ? Number.NaN : dateFromInstant(p.created_at).getTime();
    return {
      payment_id: p.payment_id,
      environment_id: p.environment_id,
      wallet_id: p.wallet_id,
      direction: p.direction,
      kind: p.kind,
      category: p.category,
      status: p.status,
      status_class: p.status_class,
      created_at: p.created_at,
      updated_at: p.updated_at,
      currency: p.currency,
      unit: p.unit,
      principal_base: p.principal_base,
      total_base: p.total_base,
      age_seconds: Number.isFinite(created) ? Math.max(0, Math.floor((this.nowMs - created) / 1000)) : 0,
    };
  }

  private flagFindings(flags: readonly string[], subject: FlagSubject, recordKind: string): void {
    if (flags.length === 0) return;
    const { findings, unknownFields } = findingsFromFlags(flags, subject);
    this.findings.push(...findings);
    this.unknownFields.add(unknownFields, recordKind, subject.subject_id);
  }

  private count(check: CheckId, n = 1): void {
    this.evaluated.set(check, (this.evaluated.get(check) ?? 0) + n);
  }

  private wallet(operation: string): WalletState {
    this.assertOpen();
    if (!this.current) throw new Error(`${operation} outside startWallet/endWallet`);
    return this.current;
  }

  private assertOpen(): void {
    if (this.finished) throw new Error('the Reconciler has finished');
  }
}

const SCOPE_ORDER: Readonly<Record<string, number>> = { environment: 0, line_of_credit: 1, wallet: 2 };

function compareSummaryRows(a: SummaryCheckRow, b: SummaryCheckRow): number {
  return (
    (SCOPE_ORDER[a.scope] ?? 9) - (SCOPE_ORDER[b.scope] ?? 9) ||
    compareText(a.scope_id, b.scope_id) ||
    compareText(a.direction ?? '', b.direction ?? '') ||
    compareText(a.status ?? '', b.status ?? '') ||
    compareText(a.currency ?? '', b.currency ?? '') ||
    compareText(a.kind ?? '', b.kind ?? '')
  );
}
