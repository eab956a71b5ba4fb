/**
 * The company's own custody wallets in the journal (docs/lots.md "Withdrawals and own custody"):
 * coins the company moved off the service to a wallet of its own are still its crypto assets, so
 * they are remeasured to fair value at each period end like the service's wallets (ASC 350-60-35-1
 * measures every crypto asset the entity holds at fair value, wherever it is held).
 *
 * The journal sees the custody wallet only through the moves to and from it (withdrawals and
 * deposits the lots configuration classifies `own_custody`), so its units at a boundary are the
 * units moved there less the units moved back, over the whole ledger up to that instant, and its
 * carrying value the journal's own: the moves' books amounts on top of the opening units at the
 * period-start price (as remeasurement.ts assumes of every wallet, the previous period was
 * remeasured too).
 */
import type { LedgerRow } from '../model/rows.js';
import type { Window } from '../model/window.js';
import type { JournalEntry } from './model.js';
import type { RemeasuredHolding } from './remeasurement.js';

/** The custody wallets as the configuration declares them (implemented by lots/custody.ts). */
export interface CustodyPort {
  /** the custody wallet (`custody:<id>`) a no-payment movement of `walletId` moves to or from (`withdrawn:…`, `deposited:…`); null: none */
  holder(walletId: string, ref: string): string | null;
  /** the journal account key its moves post to; null: the journal's balanceMovements */
  account(holder: string): string | null;
  /** how files and sheets name it */
  name(holder: string): string | null;
}

/** A custody wallet's units at the window's boundaries and the books value moved to or from it in the window. */
export interface CustodyHolding extends RemeasuredHolding {
  /** Σ of the window's moves' books amounts (in: +, out: −); null when one has no books amount or was not posted */
  periodFiat: bigint | null;
}

interface Tally {
  holding: CustodyHolding;
  /** window moves seen in the ledger, and posted by the journal with a books amount */
  seen: number;
  posted: number;
}

export class CustodyTally {
  private readonly tallies = new Map<string, Tally>();

  constructor(
    private readonly port: CustodyPort,
    private readonly window: Window,
  ) {}

  /** A ledger row of a mapped wallet, any time up to the window's end. */
  see(row: LedgerRow): void {
    if (row.payment_id !== null || row.effect === 'memo' || row.effective_time === '' || row.effective_time >= this.window.to) return;
    const holder = this.port.holder(row.wallet_id, `${row.entry_type}:${row.entry_id}`);
    if (holder === null || row.balance_effect_base === 0n) return;
    const t = this.tally(holder, row.currency, row.unit);
    // what leaves the service's wallet arrives at the custody wallet, and the reverse
    const units = -row.balance_effect_base;
    t.holding.closing_base += units;
    if (row.effective_time < this.window.from) t.holding.opening_base += units;
    else t.seen += 1;
  }

  /** An entry the journal built for a window movement: the books value it moved to or from a custody wallet. */
  posted(entry: JournalEntry): void {
    if (entry.paymentId !== null || entry.ledgerRef === null) return;
    const holder = this.port.holder(entry.walletId, entry.ledgerRef);
    const wallet = entry.lines.find((l) => l.component === 'wallet');
    if (holder === null || wallet?.source === undefined || wallet.source === null) return;
    const t = this.tally(holder, wallet.source.currency, wallet.source.unit);
    const counter = entry.lines.find((l) => l.component === 'principal');
    t.posted += 1;
    if (counter?.amount === null || counter === undefined || t.holding.periodFiat === null) t.holding.periodFiat = null;
    else t.holding.periodFiat += counter.side === 'debit' ? counter.amount : -counter.amount;
  }

  /** Every custody wallet and currency met, in a stable order; a window move the journal did not post leaves its value unknown. */
  holdings(): CustodyHolding[] {
    return [...this.tallies.values()]
      .map((t) => (t.seen === t.posted ? t.holding : { ...t.holding, periodFiat: null }))
      .sort((a, b) => (a.wallet_id < b.wallet_id ? -1 : a.wallet_id > b.wallet_id ? 1 : a.currency < b.currency ? -1 : 1));
  }

  private tally(holder: string, currency: string, unit: string): Tally {
    const key = `${holder}|${currency}`;
    let t = this.tallies.get(key);
    if (t === undefined) {
      t = { holding: { wallet_id: holder, currency, unit, opening_base: 0n, closing_base: 0n, periodFiat: 0n }, seen: 0, posted: 0 };
      this.tallies.set(key, t);
    }
    return t;
  }
}

/** The account a no-payment movement posts against instead of balanceMovements: its custody wallet's own (build-movement.ts). */
export function custodyAccount(port: CustodyPort): (walletId: string, ref: string) => string | null {
  return (walletId, ref) => {
    const holder = port.holder(walletId, ref);
    return holder === null ? null : port.account(holder);
  };
}
