/**
 * Balance roll-forward of one wallet, per currency, over the half-open window [from, to):
 *   opening = Σ effects before `from`; credits/debits = Σ in [from, to); closing = Σ before `to`
 * (summed independently, so opening + credits − debits = closing is a real control), plus the sum
 * up to the API balance's own effective_time for the comparison with the wallet's API `total`.
 * Entries may arrive in any order: every test is on the entry's time, none on arrival order.
 */
import type { LedgerRow, UtcInstant, WalletRow } from '../normalize/rows.js';
import { unitOf } from '../money/units.js';
import type { Window } from '../store/ports.js';
import type { BalanceRow } from './results.js';

interface CurrencyState {
  opening: bigint;
  credits: bigint;
  debits: bigint;
  closing: bigint;
  entries: number;
  unknown: number;
  all: bigint;
  atApiTime: bigint;
}

export class Rollforward {
  private readonly byCurrency = new Map<string, CurrencyState>();
  private readonly apiBalances: ReadonlyMap<string, { total: bigint; time: UtcInstant }>;

  constructor(
    private readonly wallet: WalletRow,
    private readonly window: Window,
  ) {
    this.apiBalances = new Map(wallet.balances.map((b) => [b.currency, { total: b.total_base, time: b.effective_time }]));
    for (const currency of this.apiBalances.keys()) this.state(currency);
  }

  add(row: LedgerRow): void {
    if (row.currency === '') return; // unreadable currency: reported by the data checks, cannot be placed
    const s = this.state(row.currency);
    const t = row.effective_time;
    const unknownEffect = (row.amount_base === null && row.effect !== 'memo') || row.flags.some((f) => f.startsWith('unknown_entry_type:'));
    const effect = row.balance_effect_base;
    s.all += effect;
    const api = this.apiBalances.get(row.currency);
    if (api && t !== '' && t <= api.time) s.atApiTime += effect;
    if (t === '' || t < this.window.to) {
      if (unknownEffect || t === '') s.unknown += 1;
      s.closing += effect;
    }
    if (t === '') return;
    if (t < this.window.from) {
      s.opening += effect;
    } else if (t < this.window.to) {
      s.entries += 1;
      if (row.effect === 'credit') s.credits += effect;
      else if (row.effect === 'debit') s.debits -= effect;
    }
  }

  rows(): BalanceRow[] {
    return [...this.byCurrency.keys()].sort().map((currency) => {
      const s = this.byCurrency.get(currency) as CurrencyState;
      const api = this.apiBalances.get(currency);
      return {
        wallet_id: this.wallet.wallet_id,
        environment_id: this.wallet.environment_id,
        currency,
        unit: unitOf(currency),
        opening_base: s.opening,
        credits_base: s.credits,
        debits_base: s.debits,
        closing_base: s.closing,
        entries: s.entries,
        api_balance_base: api ? api.total : null,
        difference_base: api ? s.atApiTime - api.total : null,
        ledger_at_api_time_base: api ? s.atApiTime : s.all,
        api_balance_time: api ? api.time : null,
        unknown_entries: s.unknown,
      };
    });
  }

  private state(currency: string): CurrencyState {
    let s = this.byCurrency.get(currency);
    if (!s) {
      s = { opening: 0n, credits: 0n, debits: 0n, closing: 0n, entries: 0, unknown: 0, all: 0n, atApiTime: 0n };
      this.byCurrency.set(currency, s);
    }
    return s;
  }
}
