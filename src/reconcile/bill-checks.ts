/**
 * The bill checks (catalogue `bill.*`): each line item of the service's bills recomputed from the
 * snapshot over the bill's [start_time, end_time) for its wallet — gross debits and credits,
 * transaction counts, processing fees by direction, activity by category, and the starting balance
 * from the ledger roll-forward — plus the bill's own arithmetic and the completeness of its line
 * items. Fed by the Reconciler's per-wallet pass (ledger first, then payments), so it adds no read
 * of its own; memory is one tally per (bill, wallet) — bills are few.
 *
 * A payment belongs to a period when it was CREATED in it and is completed (the simulator bills the
 * same way; docs/reconciliation.md "Bill checks"). A bill is tied by the report whose window holds
 * the larger part of its period (model/bill-period.ts), with the wallet's payments of the whole
 * period: the window's, and those of the period outside it, which the report reads beside them.
 * A bill the window overlaps but another report ties is listed and noted here, never guessed at.
 */
import type { BillLineItemRow, BillRecord, BillRow, BillSummaryRow, LedgerRow, PaymentRow, WalletRow } from '../model/rows.js';
import type { Window } from '../model/window.js';
import { midpointOf, tiesBill } from '../model/bill-period.js';
import type { CheckId } from './catalogue.js';
import { compareText, finding } from './findings.js';
import type { BillCheckRow, Finding } from '../model/results.js';

type Sum = bigint | null;

interface Tally {
  sent: Sum;
  received: Sum;
  sentCount: bigint;
  receivedCount: bigint;
  feeSend: Sum;
  feeReceive: Sum;
  /** standard_send, standard_receive, treasury_send, treasury_receive → count, volume */
  activity: Map<string, { count: bigint; volume: Sum }>;
  starting: bigint;
  /** payments behind the figures: how many, and the first few ids */
  payments: number;
  sample: string[];
  /** the same, per direction */
  byDirection: Record<'send' | 'receive', { n: number; sample: string[] }>;
  /** why a figure could not be recomputed (unknown amounts, another currency) */
  unknown: string[];
}

const ACTIVITY = ['standard_send', 'standard_receive', 'treasury_send', 'treasury_receive'] as const;

function newTally(): Tally {
  return { sent: 0n, received: 0n, sentCount: 0n, receivedCount: 0n, feeSend: 0n, feeReceive: 0n, activity: new Map(ACTIVITY.map((k) => [k, { count: 0n, volume: 0n }])), starting: 0n, payments: 0, sample: [], byDirection: { send: { n: 0, sample: [] }, receive: { n: 0, sample: [] } }, unknown: [] };
}

/** The checks that tie a bill (every bill.* but the note on bills tied elsewhere and the list's count). */
export const BILL_TIE_CHECKS: ReadonlySet<CheckId> = new Set<CheckId>([
  'bill.line_amounts',
  'bill.line_counts',
  'bill.line_processing_fees',
  'bill.line_activity',
  'bill.starting_balance',
  'bill.line_item_missing',
  'bill.internal_totals',
  'bill.not_recomputable',
]);

const plus = (a: Sum, b: bigint | null): Sum => (a === null || b === null ? null : a + b);
const abs = (v: bigint): bigint => (v < 0n ? -v : v);

interface BillState {
  record: BillRecord;
  /** this window holds the larger part of the period: the bill is tied here */
  tied: boolean;
  /** wallet_id → tally (wallets of the bill's line of credit or with a line item) */
  tallies: Map<string, Tally>;
}

export class BillChecks {
  readonly findings: Finding[] = [];
  readonly evaluated = new Map<CheckId, number>();
  private readonly bills: BillState[];
  private readonly byWallet = new Map<string, BillState[]>();

  constructor(
    private readonly window: Window,
    bills: readonly BillRecord[],
    private readonly summaries: readonly BillSummaryRow[],
    wallets: readonly WalletRow[],
  ) {
    const inScope = new Set(wallets.map((w) => w.wallet_id));
    this.bills = bills.map((record) => ({ record, tied: tiesBill(window, record.bill), tallies: new Map() }));
    for (const state of this.bills) {
      const members = new Set(state.record.line_items.map((i) => i.wallet_id));
      for (const w of wallets) if (w.line_of_credit_id === state.record.bill.line_of_credit_id) members.add(w.wallet_id);
      for (const walletId of members) {
        if (!inScope.has(walletId)) continue;
        state.tallies.set(walletId, newTally());
        this.byWallet.set(walletId, [...(this.byWallet.get(walletId) ?? []), state]);
      }
    }
  }

  /** Why the checks of BILL_TIE_CHECKS did not run here (null: this window ties at least one bill). */
  notTiedReason(): string | null {
    if (this.bills.some((state) => state.tied)) return null;
    if (this.bills.length === 0) return 'no bill of the service overlaps this window';
    return `none of the ${this.bills.length} bill(s) overlapping this window is tied by it: a bill is tied by the report whose window holds the larger part of its period`;
  }

  addLedger(row: LedgerRow): void {
    for (const state of this.byWallet.get(row.wallet_id) ?? []) {
      if (!state.tied || row.effective_time === '' || row.effective_time >= state.record.bill.start_time) continue;
      const t = state.tallies.get(row.wallet_id) as Tally;
      t.starting += row.balance_effect_base;
    }
  }

  addPayment(p: PaymentRow): void {
    if (p.status_class !== 'completed') return;
    for (const state of this.byWallet.get(p.wallet_id) ?? []) {
      const bill = state.record.bill;
      if (!state.tied || p.created_at < bill.start_time || p.created_at >= bill.end_time) continue;
      const t = state.tallies.get(p.wallet_id) as Tally;
      t.payments += 1;
      if (t.sample.length < 3) t.sample.push(p.payment_id);
      if (p.currency !== bill.currency) {
        t.unknown.push(`payment ${p.payment_id} is in ${p.currency || 'an unknown currency'}, the bill in ${bill.currency}`);
        t.sent = t.received = t.feeSend = t.feeReceive = null;
      }
      const send = p.direction === 'send';
      const side = t.byDirection[send ? 'send' : 'receive'];
      side.n += 1;
      if (side.sample.length < 3) side.sample.push(p.payment_id);
      if (p.total_base === null || p.processing_fee_base === null) t.unknown.push(`payment ${p.payment_id} has an unknown ${p.total_base === null ? 'amount' : 'processing fee'}`);
      if (send) {
        t.sent = plus(t.sent, p.total_base);
        t.sentCount += 1n;
        t.feeSend = plus(t.feeSend, p.processing_fee_base);
      } else {
        t.received = plus(t.received, p.total_base);
        t.receivedCount += 1n;
        t.feeReceive = plus(t.feeReceive, p.processing_fee_base);
      }
      const bucket = t.activity.get(`${p.category}_${send ? 'send' : 'receive'}`);
      if (bucket) {
        bucket.count += 1n;
        bucket.volume = plus(bucket.volume, send ? p.principal_base : p.total_base);
      }
    }
  }

  /** Findings and the bills.csv rows, in (line of credit, start, bill, wallet) order. */
  finish(): { findings: Finding[]; rows: BillCheckRow[] } {
    const rows: BillCheckRow[] = [];
    for (const state of this.bills) {
      const { bill, line_items } = state.record;
      const subjectBill = { subject_kind: 'bill' as const, subject_id: bill.bill_id, wallet_id: null, currency: bill.currency };
      if (!state.tied) {
        this.count('bill.period_outside_window');
        this.findings.push(
          finding('bill.period_outside_window', {
            ...subjectBill,
            message: outsideMessage(bill, this.window),
          }),
        );
      } else {
        this.internalTotals(state);
      }
      const listed = new Set(line_items.map((i) => i.wallet_id));
      for (const item of [...line_items].sort((a, b) => compareText(a.wallet_id, b.wallet_id) || a.position - b.position)) {
        rows.push(...this.compareLine(state, item));
      }
      for (const [walletId, t] of [...state.tallies].sort(([a], [b]) => compareText(a, b))) {
        if (listed.has(walletId) || !state.tied) continue;
        this.count('bill.line_item_missing');
        if (t.payments === 0) continue;
        this.findings.push(
          finding('bill.line_item_missing', {
            subject_kind: 'bill_line_item',
            subject_id: `${bill.bill_id}:${walletId}`,
            wallet_id: walletId,
            currency: bill.currency,
            expected: BigInt(t.payments),
            actual: 0n,
            message: `the invoice has no line item for wallet ${walletId} of line of credit ${bill.line_of_credit_id}, which has ${t.payments} completed payment(s) created in [${bill.start_time}, ${bill.end_time}) (e.g. ${t.sample.join(', ')})`,
          }),
        );
        rows.push(this.row(state, { wallet_id: walletId, currency: bill.currency, unit: bill.unit }, 'line_item', null, BigInt(t.payments), 'no_line_item', t.payments));
      }
    }
    for (const summary of this.summaries) {
      if (summary.bill_total_count === null || summary.listed_count === null) continue;
      this.count('bill.summary_count');
      if (summary.bill_total_count !== BigInt(summary.listed_count)) {
        this.findings.push(
          finding('bill.summary_count', {
            subject_kind: 'run',
            subject_id: `line_of_credit:${summary.line_of_credit_id}`,
            wallet_id: null,
            expected: summary.bill_total_count,
            actual: BigInt(summary.listed_count),
            difference: BigInt(summary.listed_count) - summary.bill_total_count,
            message: `the bills summary counts ${summary.bill_total_count} bill(s) for line of credit ${summary.line_of_credit_id}, the bill list returned ${summary.listed_count}`,
          }),
        );
      }
    }
    return { findings: this.findings, rows };
  }

  private compareLine(state: BillState, item: BillLineItemRow): BillCheckRow[] {
    const { bill } = state.record;
    const t = state.tallies.get(item.wallet_id);
    const out: BillCheckRow[] = [];
    const subject = { subject_kind: 'bill_line_item' as const, subject_id: `${bill.bill_id}:${item.wallet_id}`, wallet_id: item.wallet_id, currency: item.currency };
    const checked = state.tied && t !== undefined;
    if (checked && t.unknown.length > 0) {
      this.count('bill.not_recomputable');
      this.findings.push(finding('bill.not_recomputable', { ...subject, message: `amounts and fees of this line item are not compared: ${t.unknown.slice(0, 3).join('; ')}${t.unknown.length > 3 ? `; and ${t.unknown.length - 3} more` : ''}` }));
    }
    /** The payments behind a figure: the sends for send figures, the receives for receive figures, else all. */
    const sideOf = (figure: string): { n: number; sample: string[]; what: string } | undefined => {
      if (!t) return undefined;
      if (/send|sent/.test(figure)) return { ...t.byDirection.send, what: 'completed send(s)' };
      if (/receive/.test(figure)) return { ...t.byDirection.receive, what: 'completed receive(s)' };
      return { n: t.payments, sample: t.sample, what: 'completed payment(s)' };
    };
    const behind = (figure: string): string => {
      const side = sideOf(figure);
      return side && side.n > 0 ? `; behind it: ${side.n} ${side.what} created in the period, e.g. ${side.sample.join(', ')}` : `; no ${side?.what ?? 'completed payment(s)'} created in the period`;
    };
    const compare = (check: CheckId, figure: string, billed: bigint | null, computed: Sum | undefined, what: string): void => {
      if (!checked) {
        out.push(this.row(state, item, figure, billed, null, 'not_checked', null));
        return;
      }
      if (billed === null) {
        out.push(this.row(state, item, figure, null, computed ?? null, 'not_billed', sideOf(figure)?.n ?? null));
        return;
      }
      if (computed === null || computed === undefined) {
        out.push(this.row(state, item, figure, billed, null, 'not_checked', sideOf(figure)?.n ?? null));
        return;
      }
      this.count(check);
      const difference = billed - computed;
      out.push(this.row(state, item, figure, billed, computed, difference === 0n ? 'ok' : 'differs', sideOf(figure)?.n ?? null));
      if (difference === 0n) return;
      this.findings.push(
        finding(check, {
          ...subject,
          expected: computed,
          actual: billed,
          difference,
          message: `${figure}: billed ${billed}, ${what} ${computed} (difference ${difference > 0n ? '+' : ''}${difference} ${isCount(figure) ? '' : item.unit})`.replace(/ \)$/, ')') + behind(figure),
        }),
      );
    };
    compare('bill.starting_balance', 'starting_balance', item.starting_balance_base, t?.starting, 'the ledger sums before start_time to');
    compare('bill.line_amounts', 'amount_sent', item.amount_sent_base, t?.sent, 'the completed sends total');
    compare('bill.line_amounts', 'amount_received', item.amount_received_base, t?.received, 'the completed receives total');
    compare('bill.line_counts', 'transactions_sent', item.transactions_sent, t?.sentCount, 'completed sends:');
    compare('bill.line_counts', 'transactions_received', item.transactions_received, t?.receivedCount, 'completed receives:');
    compare('bill.line_processing_fees', 'processing_fee_send', item.processing_fee_send_base, t?.feeSend, 'the sends settled');
    compare('bill.line_processing_fees', 'processing_fee_receive', item.processing_fee_receive_base, t?.feeReceive, 'the receives settled');
    if (item.has_payment_activity) {
      const activity: Array<[string, bigint | null, bigint | null]> = [
        ['standard_send', item.standard_send_count, item.standard_send_volume_base],
        ['standard_receive', item.standard_receive_count, item.standard_receive_volume_base],
        ['treasury_send', item.treasury_send_count, item.treasury_send_volume_base],
        ['treasury_receive', item.treasury_receive_count, item.treasury_receive_volume_base],
      ];
      for (const [key, count, volume] of activity) {
        const ours = t?.activity.get(key);
        compare('bill.line_activity', `${key}_count`, count, ours?.count, `${key.replace('_', ' ')} payments:`);
        compare('bill.line_activity', `${key}_volume`, volume, ours?.volume, `the ${key.replace('_', ' ')} payments' principal totals`);
      }
    }
    return out;
  }

  /** The bill's own arithmetic: line totals, wallet_ids, and amt_due with its direction. */
  private internalTotals(state: BillState): void {
    const { bill, line_items } = state.record;
    const problems: string[] = [];
    let net: bigint | null = 0n;
    for (const item of line_items) {
      const fees = [item.processing_fee_total_base, item.processing_fee_send_base, item.processing_fee_receive_base];
      if (fees.every((f) => f !== null) && (fees[0] as bigint) !== (fees[1] as bigint) + (fees[2] as bigint)) {
        problems.push(`wallet ${item.wallet_id}: processing_fees.total ${fees[0]} ≠ send ${fees[1]} + receive ${fees[2]}`);
      }
      const { amount_sent_base: sent, amount_received_base: received } = item;
      if (sent !== null && received !== null && item.amount_total_base !== null && item.amount_total_base !== abs(sent - received)) {
        problems.push(`wallet ${item.wallet_id}: amount_total ${item.amount_total_base} ≠ |${sent} − ${received}|`);
      }
      net = sent === null || received === null || item.volume_fee_base === null || net === null ? null : net + received - sent - item.volume_fee_base - (item.interest_fee_base ?? 0n);
    }
    const listed = [...new Set(line_items.map((i) => i.wallet_id))].sort(compareText);
    const declared = [...new Set(bill.wallet_ids)].sort(compareText);
    if (listed.join(',') !== declared.join(',')) problems.push(`wallet_ids [${declared.join(', ')}] ≠ the line items' wallets [${listed.join(', ')}]`);
    let expected: bigint | null = null;
    if (net !== null && bill.service_fee_base !== null && bill.amt_due_base !== null) {
      const due = net - bill.service_fee_base;
      expected = abs(due);
      const direction = due < 0n ? 'Collection' : 'Payout';
      if (expected !== bill.amt_due_base || (bill.settlement_type !== '' && bill.settlement_type !== direction)) {
        problems.push(`amt_due ${bill.amt_due_base} ${bill.settlement_type} ≠ |Σ net ${net} − service_fee ${bill.service_fee_base}| = ${expected} ${direction}`);
      }
    }
    this.count('bill.internal_totals');
    if (problems.length === 0) return;
    this.findings.push(
      finding('bill.internal_totals', {
        subject_kind: 'bill',
        subject_id: bill.bill_id,
        wallet_id: null,
        currency: bill.currency,
        expected,
        actual: bill.amt_due_base,
        difference: expected === null || bill.amt_due_base === null ? null : bill.amt_due_base - expected,
        message: `the bill does not add up: ${problems.join('; ')}`,
      }),
    );
  }

  private row(state: BillState, item: Pick<BillLineItemRow, 'wallet_id' | 'currency' | 'unit'>, figure: string, billed: bigint | null, computed: bigint | null, status: string, payments: number | null): BillCheckRow {
    const { bill } = state.record;
    return {
      bill_id: bill.bill_id,
      line_of_credit_id: bill.line_of_credit_id,
      period_length: bill.period_length,
      start_time: bill.start_time,
      end_time: bill.end_time,
      bill_status: bill.status,
      wallet_id: item.wallet_id,
      currency: item.currency,
      unit: isCount(figure) ? 'count' : item.unit,
      figure,
      billed,
      computed,
      difference: billed !== null && computed !== null ? billed - computed : null,
      status,
      payments,
    };
  }

  private count(check: CheckId, n = 1): void {
    this.evaluated.set(check, (this.evaluated.get(check) ?? 0) + n);
  }
}

/** Why a bill the window overlaps is not tied here, and which report ties it. */
function outsideMessage(bill: BillRow, window: Window): string {
  const midpoint = midpointOf(bill);
  const period = `bill for [${bill.start_time}, ${bill.end_time}) (${bill.period_length})`;
  if (midpoint === null) return `${period}: its period cannot be read, so no report ties it; not checked`;
  return `${period} lies mostly outside the window [${window.from}, ${window.to}): it is tied by the report whose window holds the larger part of its period (its midpoint ${midpoint}); listed here, not checked`;
}

function isCount(figure: string): boolean {
  return figure.startsWith('transactions_') || figure.endsWith('_count') || figure === 'line_item';
}
