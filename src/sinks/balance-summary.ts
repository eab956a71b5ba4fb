/**
 * balances.csv rows summed per currency for the Overview's roll-forward (opening, in, out, fees,
 * closing) and how many balances were checked against the service. Bounded by currencies.
 */
import type { BalanceRow } from '../model/results.js';

export interface CurrencyRollforward {
  currency: string;
  wallets: number;
  opening: bigint;
  credits: bigint;
  debits: bigint;
  closing: bigint;
  /** balances compared directly / by the bridge / not compared, and those that differ */
  direct: number;
  bridged: number;
  notChecked: number;
  differing: number;
}

export class BalanceSummary {
  private readonly byCurrency = new Map<string, CurrencyRollforward>();

  add(row: BalanceRow): void {
    let t = this.byCurrency.get(row.currency);
    if (t === undefined) {
      t = { currency: row.currency, wallets: 0, opening: 0n, credits: 0n, debits: 0n, closing: 0n, direct: 0, bridged: 0, notChecked: 0, differing: 0 };
      this.byCurrency.set(row.currency, t);
    }
    t.wallets += 1;
    t.opening += row.opening_base;
    t.credits += row.credits_base;
    t.debits += row.debits_base;
    t.closing += row.closing_base;
    if (row.balance_check === 'direct') {
      t.direct += 1;
      if ((row.difference_base ?? 0n) !== 0n) t.differing += 1;
    } else if (row.balance_check === 'bridge') {
      t.bridged += 1;
      if ((row.bridge_difference_base ?? 0n) !== 0n) t.differing += 1;
    } else {
      t.notChecked += 1;
    }
  }

  /** btc, usd, then assets */
  rows(): CurrencyRollforward[] {
    const rank = (c: string): string => (c === 'btc' ? '0' : c === 'usd' ? '1' : `2${c}`);
    return [...this.byCurrency.values()].sort((a, b) => (rank(a.currency) < rank(b.currency) ? -1 : rank(a.currency) > rank(b.currency) ? 1 : 0));
  }
}

/** "12 wallets checked (3 directly, 9 by bridge), 0 differ; 1 not checked" */
export function apiCheckWords(t: CurrencyRollforward): string {
  const checked = t.direct + t.bridged;
  const how = [t.direct > 0 ? `${t.direct} now` : '', t.bridged > 0 ? `${t.bridged} by bridge` : ''].filter((x) => x !== '').join(', ');
  const parts = [checked === 0 ? 'none checked' : `${checked} checked${how === '' ? '' : ` (${how})`}, ${t.differing === 0 ? 'all agree' : `${t.differing} differ`}`];
  if (t.notChecked > 0) parts.push(`${t.notChecked} not checked`);
  return parts.join('; ');
}
