/**
 * The journal's two tie-outs, in source base units so no valuation can hide a difference:
 *  - wallet: per wallet and currency, the net of the wallet asset account's lines (debits −
 *    credits) = credits − debits of the balance roll-forward (balances.csv);
 *  - fees: per wallet, currency and fee account, over sends: the journal's fee lines, minus those
 *    of payments created before the window (in the journal, not in fees.csv), plus the fees of
 *    completed sends created in the window whose movement falls after it (in fees.csv, not yet in
 *    the journal) = fees.csv's network and processing fee sums.
 */
import type { JournalConfig } from '../config/journal-schema.js';
import type { PaymentRow } from '../model/rows.js';
import { finding } from '../reconcile/findings.js';
import type { BalanceRow, FeeRow, Finding } from '../model/results.js';
import type { Window } from '../model/window.js';
import type { JournalEntry } from './model.js';

export interface TieResult {
  check: 'journal.wallet_tieout' | 'journal.fee_tieout';
  finding: Finding | null;
}

export class WalletTieout {
  private readonly net = new Map<string, { source: bigint; fiat: bigint; unvalued: number }>();

  add(entry: JournalEntry): void {
    if (entry.kind !== 'movement') return;
    for (const line of entry.lines) {
      if (line.component !== 'wallet' || line.source === null) continue;
      const key = `${entry.walletId}|${line.source.currency}`;
      const s = this.net.get(key) ?? { source: 0n, fiat: 0n, unvalued: 0 };
      const sign = line.side === 'debit' ? 1n : -1n;
      s.source += sign * line.source.amount;
      if (line.amount === null) s.unvalued += 1;
      else s.fiat += sign * line.amount;
      this.net.set(key, s);
    }
  }

  /** The books-currency net of the wallet's lines, or null when some movement is not valued. */
  valuedNet(walletId: string, currency: string): bigint | null {
    const s = this.net.get(`${walletId}|${currency}`);
    if (s === undefined) return 0n;
    return s.unvalued > 0 ? null : s.fiat;
  }

  check(balances: readonly BalanceRow[], mapped: (walletId: string) => boolean): TieResult[] {
    const out: TieResult[] = [];
    const seen = new Set<string>();
    for (const b of balances) {
      if (!mapped(b.wallet_id)) continue;
      const key = `${b.wallet_id}|${b.currency}`;
      seen.add(key);
      out.push(compare('journal.wallet_tieout', b.wallet_id, b.currency, b.credits_base - b.debits_base, this.net.get(key)?.source ?? 0n, 'net movement on the wallet asset account vs the roll-forward (credits − debits)'));
    }
    for (const [key, s] of this.net) {
      if (seen.has(key)) continue;
      const [wallet = '', currency = ''] = key.split('|');
      out.push(compare('journal.wallet_tieout', wallet, currency, 0n, s.source, 'journal movement in a currency the roll-forward does not list'));
    }
    return out;
  }
}

interface FeeSums {
  network: bigint;
  processing: bigint;
}

export class FeeTieout {
  /** journal − before-window + posted-later, per wallet|currency */
  private readonly sums = new Map<string, FeeSums>();

  constructor(private readonly config: JournalConfig) {}

  private at(wallet: string, currency: string): FeeSums {
    const key = `${wallet}|${currency}`;
    let s = this.sums.get(key);
    if (s === undefined) {
      s = { network: 0n, processing: 0n };
      this.sums.set(key, s);
    }
    return s;
  }

  add(entry: JournalEntry, payment: PaymentRow | null, window: Window): void {
    // sends of payments created in the window are what fees.csv counts
    if (payment === null || payment.direction !== 'send' || payment.created_at < window.from || payment.status_class !== 'completed') return;
    for (const line of entry.lines) {
      if (line.source === null || line.side !== 'debit') continue;
      const s = this.at(entry.walletId, line.source.currency);
      if (line.component === 'network_fee') s.network += line.source.amount;
      if (line.component === 'processing_fee') s.processing += line.source.amount;
    }
  }

  /** A completed send created in the window with no movement in it: its fees are in fees.csv only. */
  postedLater(payment: PaymentRow): void {
    if (payment.direction !== 'send' || payment.status_class !== 'completed') return;
    if (payment.network_fee_base === null || payment.processing_fee_base === null || payment.principal_base === null) return;
    const s = this.at(payment.wallet_id, payment.currency);
    s.network += payment.network_fee_base;
    s.processing += payment.processing_fee_base;
  }

  check(fees: readonly FeeRow[], mapped: (walletId: string) => boolean): TieResult[] {
    const expected = new Map<string, FeeSums>();
    for (const f of fees) {
      if (f.direction !== 'send' || !mapped(f.wallet_id)) continue;
      const key = `${f.wallet_id}|${f.currency}`;
      const e = expected.get(key) ?? { network: 0n, processing: 0n };
      e.network += f.network_fee_base;
      e.processing += f.processing_fee_base;
      expected.set(key, e);
    }
    const keys = new Set([...expected.keys(), ...[...this.sums.keys()].filter((k) => mapped(k.split('|')[0] ?? ''))]);
    const out: TieResult[] = [];
    for (const key of [...keys].sort()) {
      const [wallet = '', currency = ''] = key.split('|');
      const e = expected.get(key) ?? { network: 0n, processing: 0n };
      const a = this.sums.get(key) ?? { network: 0n, processing: 0n };
      out.push(compare('journal.fee_tieout', wallet, currency, e.network, a.network, `network fees on ${this.config.fees.network} vs fees.csv`));
      out.push(compare('journal.fee_tieout', wallet, currency, e.processing, a.processing, `processing fees on ${this.config.fees.processing} vs fees.csv`));
    }
    return out;
  }
}

function compare(check: TieResult['check'], wallet: string, currency: string, expected: bigint, actual: bigint, what: string): TieResult {
  if (expected === actual) return { check, finding: null };
  return {
    check,
    finding: finding(check, { subject_kind: 'wallet', subject_id: wallet, wallet_id: wallet, currency, expected, actual, difference: actual - expected, message: `${what}: ${actual} ≠ ${expected} base units` }),
  };
}
