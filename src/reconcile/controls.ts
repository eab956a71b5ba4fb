/**
 * Control totals per currency (manifest.json `control_totals`, Overview sheet) and the fee rollup
 * (fees.csv). Both stream: constant memory per currency / per rollup key.
 *
 * Control totals are defined so anyone can re-derive them from payments.csv and ledger.csv:
 * counts over every payment of the currency created in the window; amount sums over the rows with
 * status `completed`, each column summing its non-null values; ledger sums over the entries
 * effective in the window; hash totals as below.
 */
import { hash } from 'node:crypto';
import type { LedgerRow, PaymentRow } from '../model/rows.js';
import { unitOf } from '../money/units.js';
import { compareText } from './findings.js';
import type { ControlTotals, CurrencyControlTotals, FeeRow } from '../model/results.js';

/**
 * An order-independent hash total: Σ SHA-256(id) mod 2^256. Unlike a hash over sorted ids it needs
 * no memory of the ids, and it still changes when one id is swapped for another.
 */
export class HashTotal {
  private total = 0n;

  add(id: string): void {
    // one-shot hash: no Hash object per row (a createHash per row is GC churn); asUintN is the mod 2^256
    this.total = BigInt.asUintN(256, this.total + BigInt(`0x${hash('sha256', id, 'hex')}`));
  }

  hex(): string {
    return this.total.toString(16).padStart(64, '0');
  }
}

interface CurrencyAccumulator {
  totals: CurrencyControlTotals;
  paymentHash: HashTotal;
  ledgerHash: HashTotal;
}

export class ControlTotalsAccumulator {
  private readonly byCurrency = new Map<string, CurrencyAccumulator>();

  addPayment(p: PaymentRow): void {
    const a = this.accumulator(p.currency);
    const t = a.totals;
    t.payments += 1;
    a.paymentHash.add(p.payment_id);
    if (p.status_class === 'failed') t.failed_payments = (t.failed_payments ?? 0) + 1;
    if (p.status_class === 'open' || p.status_class === 'unknown') t.open_payments = (t.open_payments ?? 0) + 1;
    if (p.status_class !== 'completed') return;
    t.completed_payments += 1;
    t.principal_base += p.principal_base ?? 0n;
    t.network_fee_base += p.network_fee_base ?? 0n;
    t.processing_fee_base += p.processing_fee_base ?? 0n;
    t.total_base += p.total_base ?? 0n;
    if (p.principal_base === null || p.network_fee_base === null || p.processing_fee_base === null || p.total_base === null) {
      t.unknown_fee_payments = (t.unknown_fee_payments ?? 0) + 1;
    }
  }

  /** An entry effective in the window. */
  addLedger(e: LedgerRow): void {
    const a = this.accumulator(e.currency);
    const t = a.totals;
    t.ledger_entries += 1;
    a.ledgerHash.add(`${e.entry_type}:${e.entry_id}`);
    if (e.effect === 'credit') t.ledger_credits_base += e.balance_effect_base;
    if (e.effect === 'debit') t.ledger_debits_base -= e.balance_effect_base;
  }

  result(): ControlTotals {
    const out: ControlTotals = {};
    for (const currency of [...this.byCurrency.keys()].sort(compareText)) {
      const a = this.byCurrency.get(currency) as CurrencyAccumulator;
      out[currency] = { ...a.totals, id_hash: a.paymentHash.hex(), ledger_id_hash: a.ledgerHash.hex() };
    }
    return out;
  }

  private accumulator(currency: string): CurrencyAccumulator {
    let a = this.byCurrency.get(currency);
    if (!a) {
      a = {
        totals: {
          payments: 0,
          completed_payments: 0,
          principal_base: 0n,
          network_fee_base: 0n,
          processing_fee_base: 0n,
          total_base: 0n,
          ledger_entries: 0,
          ledger_credits_base: 0n,
          ledger_debits_base: 0n,
          id_hash: '',
          failed_payments: 0,
          open_payments: 0,
          unknown_fee_payments: 0,
          ledger_id_hash: '',
        },
        paymentHash: new HashTotal(),
        ledgerHash: new HashTotal(),
      };
      this.byCurrency.set(currency, a);
    }
    return a;
  }
}

/** Whether a payment's fees count in the fee sums: completed, with every amount known (FeeRollup). */
export function inFeeSums(p: PaymentRow): boolean {
  return p.status_class === 'completed' && p.principal_base !== null && p.network_fee_base !== null && p.processing_fee_base !== null && p.total_base !== null;
}

/**
 * fees.csv: completed payments by environment × wallet × currency × kind × category × direction.
 * A payment with an unknown principal or fee counts in `payments` and `unknown_fee_count` but not
 * in the sums (it is listed as a payment.fee_unknown finding).
 */
export class FeeRollup {
  private readonly rows = new Map<string, FeeRow>();

  add(p: PaymentRow): void {
    if (p.status_class !== 'completed') return;
    const key = JSON.stringify([p.environment_id, p.wallet_id, p.currency, p.kind, p.category, p.direction]);
    let row = this.rows.get(key);
    if (!row) {
      row = {
        environment_id: p.environment_id,
        wallet_id: p.wallet_id,
        currency: p.currency,
        unit: unitOf(p.currency),
        kind: p.kind,
        category: p.category,
        direction: p.direction,
        payments: 0,
        principal_base: 0n,
        network_fee_base: 0n,
        processing_fee_base: 0n,
        total_base: 0n,
        settled_count: 0,
        terms_count: 0,
        none_count: 0,
        unknown_fee_count: 0,
      };
      this.rows.set(key, row);
    }
    row.payments += 1;
    if (p.processing_fee_source === 'settled') row.settled_count += 1;
    else if (p.processing_fee_source === 'terms') row.terms_count += 1;
    else row.none_count += 1;
    if (p.principal_base === null || p.network_fee_base === null || p.processing_fee_base === null || p.total_base === null) {
      row.unknown_fee_count += 1;
      return;
    }
    row.principal_base += p.principal_base;
    row.network_fee_base += p.network_fee_base;
    row.processing_fee_base += p.processing_fee_base;
    row.total_base += p.total_base;
  }

  result(): FeeRow[] {
    return [...this.rows.entries()].sort(([a], [b]) => compareText(a, b)).map(([, row]) => row);
  }
}
