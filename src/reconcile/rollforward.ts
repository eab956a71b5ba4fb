/**
 * Balance roll-forward of one wallet, per currency, over the half-open window [from, to):
 *   opening = Σ effects before `from`; credits/debits = Σ in [from, to); closing = Σ before `to`
 * (summed independently, so opening + credits − debits = closing is a real control).
 *
 * Then the closing balance is checked against the service, in one of three ways (`balance_check`):
 * - `direct`: the API balance was read inside the window (the window reaches the present) and no
 *   ledger entry falls between that reading and the window end: closing is compared with it, and
 *   `difference` = closing − api_balance.
 * - `bridge`: a past period (or entries after the reading): closing + movements since the window
 *   end up to the API balance's effective_time = the API balance now. The movements come from the
 *   same ledger, which every pull reads through the run's clock, after the wallet balances (a
 *   resumed pull reads the part past the window end again: src/extract/streams/ledger-tail.ts).
 * - `not_checked`: the wallet lists no balances, the reading has no time, or an entry in the bridge
 *   span has an unknown amount or effect: nothing is compared rather than a guess.
 * Entries may arrive in any order: every test is on the entry's time, none on arrival order.
 */
import type { LedgerRow, UtcInstant, WalletRow } from '../model/rows.js';
import { unitOf } from '../money/units.js';
import type { Window } from '../model/window.js';
import type { BalanceRow } from '../model/results.js';

interface CurrencyState {
  opening: bigint;
  credits: bigint;
  debits: bigint;
  closing: bigint;
  entries: number;
  unknown: number;
  all: bigint;
  atApiTime: bigint;
  /** Σ effects in [to, api time] (a past period's movements since its end) */
  since: bigint;
  /** Σ effects in (api time, to): entries after the API reading that are inside the window */
  afterReading: number;
  afterReadingSum: bigint;
  /** entries with an unknown effect in the bridge span */
  unknownInBridge: number;
}

interface ApiBalance {
  total: bigint;
  time: UtcInstant;
  /** the API lists the wallet's balances but not this currency: it is zero */
  listed: boolean;
}

export class Rollforward {
  private readonly byCurrency = new Map<string, CurrencyState>();
  private readonly apiBalances: ReadonlyMap<string, ApiBalance>;
  /** the time of the wallet's balance reading, for a currency the API does not list */
  private readonly readingTime: UtcInstant | null;

  constructor(
    private readonly wallet: WalletRow,
    private readonly window: Window,
  ) {
    this.apiBalances = new Map(wallet.balances.map((b) => [b.currency, { total: b.total_base, time: b.effective_time, listed: true }]));
    const times = wallet.balances.map((b) => b.effective_time).filter((t) => t !== '').sort();
    this.readingTime = times.length > 0 ? (times[times.length - 1] as UtcInstant) : null;
    for (const currency of this.apiBalances.keys()) this.state(currency);
  }

  add(row: LedgerRow): void {
    if (row.currency === '') return; // unreadable currency: reported by the data checks, cannot be placed
    const s = this.state(row.currency);
    const t = row.effective_time;
    const unknownEffect = (row.amount_base === null && row.effect !== 'memo') || row.flags.some((f) => f.startsWith('unknown_entry_type:'));
    const effect = row.balance_effect_base;
    s.all += effect;
    const apiTime = this.apiFor(row.currency)?.time ?? null;
    if (apiTime !== null && apiTime !== '' && t !== '') {
      if (t <= apiTime) s.atApiTime += effect;
      if (t >= this.window.to && t <= apiTime) {
        s.since += effect;
        if (unknownEffect) s.unknownInBridge += 1;
      } else if (t > apiTime && t < this.window.to) {
        s.afterReading += 1;
        s.afterReadingSum += effect;
        if (unknownEffect) s.unknownInBridge += 1;
      }
    }
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
      const api = this.apiFor(currency);
      const base: BalanceRow = {
        wallet_id: this.wallet.wallet_id,
        environment_id: this.wallet.environment_id,
        currency,
        unit: unitOf(currency),
        opening_base: s.opening,
        credits_base: s.credits,
        debits_base: s.debits,
        closing_base: s.closing,
        entries: s.entries,
        api_balance_base: null,
        difference_base: null,
        ledger_at_api_time_base: api ? s.atApiTime : s.all,
        api_balance_time: api ? api.time : null,
        unknown_entries: s.unknown,
        balance_check: 'not_checked',
        movements_since_base: null,
        api_balance_now_base: null,
        bridge_difference_base: null,
        balance_check_note: null,
      };
      if (api === null) return { ...base, balance_check_note: 'the API lists no balances for this wallet' };
      if (api.time === '') return { ...base, balance_check_note: 'the API balance has no effective_time' };
      if (s.unknownInBridge > 0) {
        return { ...base, balance_check_note: `${s.unknownInBridge} ledger entr${s.unknownInBridge === 1 ? 'y' : 'ies'} between the window end and the API reading with an unknown amount or effect` };
      }
      const listed = api.listed ? '' : `the API lists no ${currency} balance: zero; `;
      if (api.time < this.window.to && s.afterReading === 0) {
        // the window reaches the present: the closing balance is what the service holds now
        return { ...base, balance_check: 'direct', api_balance_base: api.total, difference_base: s.closing - api.total, balance_check_note: listed === '' ? null : listed.slice(0, -2) };
      }
      const movements = s.since - s.afterReadingSum;
      const note =
        s.afterReading > 0
          ? `${s.afterReading} entr${s.afterReading === 1 ? 'y' : 'ies'} in the window after the API reading at ${api.time} taken back`
          : `movements from the window end to the API reading at ${api.time}`;
      return {
        ...base,
        balance_check: 'bridge',
        movements_since_base: movements,
        api_balance_now_base: api.total,
        bridge_difference_base: s.closing + movements - api.total,
        balance_check_note: listed + note,
      };
    });
  }

  private apiFor(currency: string): ApiBalance | null {
    const listed = this.apiBalances.get(currency);
    if (listed) return listed;
    // A wallet listing balances says an absent currency is zero, as of the same reading.
    if (this.wallet.balances.length === 0) return null;
    return { total: 0n, time: this.readingTime ?? '', listed: false };
  }

  private state(currency: string): CurrencyState {
    let s = this.byCurrency.get(currency);
    if (!s) {
      s = { opening: 0n, credits: 0n, debits: 0n, closing: 0n, entries: 0, unknown: 0, all: 0n, atApiTime: 0n, since: 0n, afterReading: 0, afterReadingSum: 0n, unknownInBridge: 0 };
      this.byCurrency.set(currency, s);
    }
    return s;
  }
}
