import { formatMicros, US_PER_DAY, US_PER_HOUR, type Micros } from '../core/time.js';
import type { AnomalyPlan } from './anomaly-plan.js';
import { OVERBILL } from './bill-anomalies.js';
import type { BillAnomaly } from './anomaly-plan.js';
import { allBillPeriods, type BillPeriod } from './bill-periods.js';
import { CAT_STANDARD, DIR_SEND, ST_COMPLETED } from './codes.js';
import { amountOf, wireInt } from './render-payment.js';
import type { PaymentStore } from './store.js';
import type { WalletLedgers } from './wallet-ledgers.js';
import type { SimWallet, World } from './world.js';

/**
 * Bills consistent with the payments (OpenAPI `BillRead`, tag Billing): per line of credit and
 * period, one line item per wallet of the line of credit, summed from the completed payments
 * CREATED in [start_time, end_time) — the same rule docs/reconciliation.md re-performs:
 *
 * - amount_sent = Σ captures of sends (principal + network fee + processing fee);
 *   amount_received = Σ credits of receives (the payer-funded receive fee is outside it);
 * - processing_fees by direction = Σ settled processing fees;
 * - payment_activity (absent on historical invoices) = counts and principal by category × direction;
 * - starting_balance = the wallet's ledger total before start_time.
 *
 * Built on first use and rebuilt when written payments change (they are few and rarely billed).
 */

export interface SimBill {
  period: BillPeriod;
  /** the wire object (amounts as number or bigint) */
  wire: Record<string, unknown>;
  createdUs: Micros;
  currency: 'btc' | 'usd';
  status: string;
  amtDue: bigint;
}

interface Tally {
  sent: bigint;
  received: bigint;
  sentCount: number;
  receivedCount: number;
  feeSend: bigint;
  feeReceive: bigint;
  /** [category][direction] → count, volume */
  activity: Array<Array<{ count: number; volume: bigint }>>;
}

const newTally = (): Tally => ({
  sent: 0n,
  received: 0n,
  sentCount: 0,
  receivedCount: 0,
  feeSend: 0n,
  feeReceive: 0n,
  activity: [0, 1].map(() => [0, 1].map(() => ({ count: 0, volume: 0n }))),
});

/** Voltage's flat volume-fee rate in the simulated configuration: 0.1 % of gross movement. */
const VOLUME_FEE_PER_MILLE = 1n;
const SERVICE_FEE = { btc: 25_000_000n, usd: 2_500n } as const;
const PAID_AFTER_US = 3 * US_PER_DAY;

export class SimBills {
  private cache: { version: number; bills: SimBill[] } | null = null;

  constructor(
    private readonly world: World,
    private readonly store: PaymentStore,
    private readonly ledgers: WalletLedgers,
    private readonly plan: AnomalyPlan,
    private readonly versionOf: () => number,
  ) {}

  /** Every bill, by (created_at, id) ascending. */
  all(): SimBill[] {
    const version = this.versionOf();
    if (this.cache && this.cache.version === version) return this.cache.bills;
    const bills = this.build();
    this.cache = { version, bills };
    return bills;
  }

  byId(id: string): SimBill | null {
    return this.all().find((b) => b.period.billId === id.toLowerCase()) ?? null;
  }

  private build(): SimBill[] {
    const periods = allBillPeriods(this.world);
    if (periods.length === 0) return [];
    const byLoc = new Map<number, BillPeriod[]>();
    for (const p of periods) byLoc.set(p.lineOfCreditIndex, [...(byLoc.get(p.lineOfCreditIndex) ?? []), p]);
    // tallies[walletIndex][period index within its line of credit]
    const tallies = new Map<number, Tally[]>();
    for (const w of this.world.wallets) {
      if (w.lineOfCreditIndex !== null && byLoc.has(w.lineOfCreditIndex)) tallies.set(w.index, (byLoc.get(w.lineOfCreditIndex) ?? []).map(newTally));
    }
    for (let h = 0; h < this.store.size; h++) {
      const w = this.store.walletIndex(h);
      const perPeriod = tallies.get(w);
      if (!perPeriod || this.store.status(h) !== ST_COMPLETED) continue;
      const list = byLoc.get((this.world.wallets[w] as SimWallet).lineOfCreditIndex as number) as BillPeriod[];
      const created = this.store.created(h);
      const k = list.findIndex((p) => created >= p.startUs && created < p.endUs);
      if (k < 0) continue;
      const t = perPeriod[k] as Tally;
      const core = this.store.amounts(h);
      const send = core.direction === DIR_SEND;
      const fee = core.feeSettled ?? 0n;
      const bucket = (t.activity[core.category === CAT_STANDARD ? 0 : 1] as Array<{ count: number; volume: bigint }>)[send ? 0 : 1] as { count: number; volume: bigint };
      bucket.count += 1;
      if (send) {
        t.sent += core.captureAmount;
        t.sentCount += 1;
        t.feeSend += fee;
        bucket.volume += core.principal;
      } else {
        t.received += core.creditAmount;
        t.receivedCount += 1;
        t.feeReceive += fee;
        bucket.volume += core.creditAmount;
      }
    }
    const bills: SimBill[] = [];
    for (const [locIndex, list] of byLoc) {
      const wallets = this.world.wallets.filter((w) => tallies.has(w.index) && w.lineOfCreditIndex === locIndex);
      const starts = new Map(wallets.map((w) => [w.index, this.ledgers.totalsBefore(w.index, list.map((p) => p.startUs))]));
      list.forEach((period, k) => {
        const members = wallets.filter((w) => w.createdUs < period.endUs);
        bills.push(this.render(period, members.map((w) => ({ wallet: w, tally: (tallies.get(w.index) as Tally[])[k] as Tally, starting: (starts.get(w.index) as bigint[])[k] as bigint }))));
      });
    }
    return bills.sort((a, b) => a.createdUs - b.createdUs || (a.period.billId < b.period.billId ? -1 : 1));
  }

  private render(period: BillPeriod, lines: Array<{ wallet: SimWallet; tally: Tally; starting: bigint }>): SimBill {
    const loc = this.world.linesOfCredit[period.lineOfCreditIndex] as { id: string; currency: 'btc' | 'usd' };
    const currency = loc.currency;
    const anomalies: BillAnomaly[] = this.plan.bills.get(period.billId) ?? [];
    const has = (kind: BillAnomaly['kind'], w: SimWallet): boolean => anomalies.some((a) => a.kind === kind && a.walletIndex === w.index);
    const money = (v: bigint): Record<string, unknown> => amountOf(currency, v) as Record<string, unknown>;
    let net = 0n;
    const items: Record<string, unknown>[] = [];
    for (const { wallet, tally: t, starting } of lines) {
      if (has('bill_missing_line_item', wallet)) continue;
      const volumeFee = ((t.sent + t.received) * VOLUME_FEE_PER_MILLE) / 1_000n;
      const lineNet = t.received - t.sent - volumeFee;
      net += lineNet;
      const feeSend = t.feeSend + (has('bill_processing_fee_overbilled', wallet) ? OVERBILL[currency] : 0n);
      const bucket = (c: number, d: number): Record<string, unknown> => {
        const b = (t.activity[c] as Array<{ count: number; volume: bigint }>)[d] as { count: number; volume: bigint };
        return { count: b.count, volume: money(b.volume) };
      };
      items.push({
        wallet_id: wallet.id,
        starting_balance: { ...money(starting < 0n ? -starting : starting), negative: starting < 0n },
        currency,
        amount_total: money(t.sent > t.received ? t.sent - t.received : t.received - t.sent),
        settlement_type: lineNet < 0n ? 'Collection' : 'Payout',
        total_transactions_sent: t.sentCount + (has('bill_count_off_by_one', wallet) ? 1 : 0),
        amount_sent: money(t.sent),
        total_transactions_received: t.receivedCount,
        amount_received: money(t.received),
        processing_fees: { total: money(feeSend + t.feeReceive), send: money(feeSend), receive: money(t.feeReceive) },
        ...(period.historical ? {} : { payment_activity: { standard: { send: bucket(0, 0), receive: bucket(0, 1) }, treasury: { send: bucket(1, 0), receive: bucket(1, 1) } } }),
        volume_fee: money(volumeFee),
        interest_fee: money(0n),
        payout_holdback: null,
      });
    }
    const due = net - SERVICE_FEE[currency];
    const amtDue = due < 0n ? -due : due;
    const createdUs = period.endUs + US_PER_HOUR;
    const paid = createdUs + PAID_AFTER_US <= this.world.toUs;
    const paidAt = paid ? formatMicros(createdUs + PAID_AFTER_US) : null;
    const created = formatMicros(createdUs);
    const wire: Record<string, unknown> = {
      id: period.billId,
      organization_id: this.world.organizationId,
      line_of_credit_id: loc.id,
      fulfillment_ids: [],
      start_time: formatMicros(period.startUs),
      end_time: formatMicros(period.endUs),
      period_length: period.length,
      status: paid ? 'paid' : 'payment_due',
      settlement_type: due < 0n ? 'Collection' : 'Payout',
      wallet_ids: items.map((i) => i['wallet_id']),
      invoice: { line_of_credit_id: loc.id, line_items: items, created_at: created, due_date: formatMicros(createdUs + 14 * US_PER_DAY), service_fee: money(SERVICE_FEE[currency]), settlement_fee: null },
      scheduled_sections: [],
      volume_fee_percentage: 0.1,
      amt_due: money(amtDue),
      ln_invoice: null,
      address: null,
      amt_paid: paid ? money(amtDue) : null,
      created_at: created,
      updated_at: paidAt ?? created,
      paid_at: paidAt,
      error: null,
    };
    return { period, wire, createdUs, currency, status: paid ? 'paid' : 'payment_due', amtDue };
  }
}

/** OpenAPI `BillSummary` over a set of bills. */
export function renderBillSummary(organizationId: string, lineOfCreditId: string | null, bills: readonly SimBill[]): Record<string, unknown> {
  const byCurrency: Record<string, { bill_total_count: number; inflight_total_count: number; total_due_base_units: bigint; oldest: Micros; newest: Micros; by_status: Record<string, { bill_total_count: number; inflight_total_count: number; total_due_base_units: bigint }> }> = {};
  const byStatus: Record<string, { bill_total_count: number; inflight_total_count: number }> = {};
  for (const b of bills) {
    const c = (byCurrency[b.currency] ??= { bill_total_count: 0, inflight_total_count: 0, total_due_base_units: 0n, oldest: b.createdUs, newest: b.createdUs, by_status: {} });
    c.bill_total_count += 1;
    c.total_due_base_units += b.amtDue;
    c.oldest = Math.min(c.oldest, b.createdUs);
    c.newest = Math.max(c.newest, b.createdUs);
    const cs = (c.by_status[b.status] ??= { bill_total_count: 0, inflight_total_count: 0, total_due_base_units: 0n });
    cs.bill_total_count += 1;
    cs.total_due_base_units += b.amtDue;
    const s = (byStatus[b.status] ??= { bill_total_count: 0, inflight_total_count: 0 });
    s.bill_total_count += 1;
  }
  return {
    organization_id: organizationId,
    line_of_credit_id: lineOfCreditId,
    bill_total_count: bills.length,
    inflight_total_count: 0,
    amount_units: { btc: 'msats', usd: 'cents' },
    by_currency: Object.fromEntries(
      Object.entries(byCurrency).map(([currency, c]) => [
        currency,
        {
          bill_total_count: c.bill_total_count,
          inflight_total_count: c.inflight_total_count,
          total_due_base_units: wireInt(c.total_due_base_units),
          oldest_created_at: formatMicros(c.oldest),
          newest_created_at: formatMicros(c.newest),
          by_status: Object.fromEntries(Object.entries(c.by_status).map(([s, v]) => [s, { ...v, total_due_base_units: wireInt(v.total_due_base_units) }])),
        },
      ]),
    ),
    by_status: byStatus,
  };
}
