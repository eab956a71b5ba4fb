import { uuidOf } from '../core/ids.js';
import type { Micros } from '../core/time.js';
import type { AnomalyPlan } from './anomaly-plan.js';
import { NS_CREDIT, NS_HOLD } from './payment-core.js';
import {
  EV_CAPTURED,
  EV_CREDITED,
  EV_DEPOSITED,
  EV_HELD,
  EV_RELEASED,
  EV_WITHDRAWN,
  EVENT_NAMES,
  eventTypesOf,
  isOpenSend,
  messageLagUs,
  paymentEventEffectiveUs,
  renderExtraEntry,
  renderPaymentEvent,
  walletExtras,
  type ExtraEntry,
} from './ledger.js';
import type { Orderings } from './orderings.js';
import type { PaymentStore } from './store.js';
import type { SimWallet, World } from './world.js';

export type LedgerSortKey = 'effective_time' | 'message_time' | 'time_and_effective_time';

export interface LedgerQuery {
  walletIndex: number;
  offset: number;
  limit: number;
  paymentId?: string;
  startUs?: Micros;
  endUs?: Micros;
  sortKey: LedgerSortKey;
  sortOrder: 'ASC' | 'DESC';
}

export interface LedgerEntryRef {
  ref: number;
  entryType: string;
  entryId: string;
  paymentId: string | null;
  effectiveUs: Micros;
}

export interface WalletBalance {
  /** ledger sum: credits + deposits − captures − withdrawals */
  total: bigint;
  /** total − open holds */
  available: bigint;
  holds: Array<{ id: string; amount: bigint; effectiveUs: Micros }>;
  lastEffectiveUs: Micros | null;
}

/**
 * Per-wallet ledger indexes: every entry ref of a wallet sorted by one of the three ledger sort
 * keys (ties by entry id, then held before captured), built on first use and rebuilt when
 * written payments change; and wallet balances summed from the same entries.
 */
export class WalletLedgers {
  private readonly extrasCache = new Map<number, ExtraEntry[]>();
  private readonly sorted = new Map<string, { version: number; refs: Float64Array }>();
  private readonly balances = new Map<number, { version: number; balance: WalletBalance }>();
  private readonly windows = new Map<string, Float64Array>();

  constructor(
    private readonly store: PaymentStore,
    private readonly orderings: Orderings,
    private readonly world: World,
    private readonly plan: AnomalyPlan,
    private readonly scale: number,
    private readonly versionOf: () => number,
  ) {}

  extras(w: number): ExtraEntry[] {
    let extras = this.extrasCache.get(w);
    if (!extras) {
      const wallet = this.world.wallets[w] as SimWallet;
      extras = w < this.generatedWalletCount() ? walletExtras(this.world, wallet, this.scale, this.plan, this.store.ctx.options.profile) : [];
      this.extrasCache.set(w, extras);
    }
    return extras;
  }

  private generatedWalletCount(): number {
    return this.store.ctx.options.wallets;
  }

  typeOf(w: number, ref: number): number {
    return ref >= 0 ? ref % 8 : (this.extras(w)[-ref - 1] as ExtraEntry).type;
  }

  effectiveUs(w: number, ref: number): Micros {
    if (ref < 0) return (this.extras(w)[-ref - 1] as ExtraEntry).effectiveUs;
    return paymentEventEffectiveUs(this.store, Math.floor(ref / 8), ref % 8);
  }

  messageUs(w: number, ref: number): Micros {
    return this.effectiveUs(w, ref) + messageLagUs(this.world.seed, ref);
  }

  entryId(w: number, ref: number): string {
    if (ref < 0) return (this.extras(w)[-ref - 1] as ExtraEntry).id;
    const h = Math.floor(ref / 8);
    const type = ref % 8;
    if (h >= this.store.generated) {
      const core = this.store.core(h);
      return (type === EV_CREDITED ? core.creditId : core.holdId) ?? '';
    }
    return uuidOf(this.world.seed, type === EV_CREDITED ? NS_CREDIT : NS_HOLD, h);
  }

  paymentIdOf(w: number, ref: number): string | null {
    if (ref < 0) return (this.extras(w)[-ref - 1] as ExtraEntry).paymentId;
    return this.store.id(Math.floor(ref / 8));
  }

  /** All entry refs of a wallet in ascending `key` order. */
  refs(w: number, key: LedgerSortKey): Float64Array {
    const version = this.versionOf();
    const name = `${w}:${key}`;
    const hit = this.sorted.get(name);
    if (hit && hit.version === version) return hit.refs;
    const wallet = this.world.wallets[w] as SimWallet;
    const handles = this.orderings.order({ environmentIndex: wallet.environmentIndex, walletIndex: w }, 'created_at');
    const refs: number[] = [];
    for (let i = 0; i < handles.length; i++) {
      const h = handles[i] as number;
      for (const type of eventTypesOf(this.store, h, this.plan)) refs.push(h * 8 + type);
    }
    this.extras(w).forEach((_, k) => refs.push(-(k + 1)));
    const array = Float64Array.from(refs);
    array.sort(this.comparator(w, key));
    this.sorted.set(name, { version, refs: array });
    return array;
  }

  /** Ledger order for `key`: the time(s), then entry id, then held before captured/released. */
  comparator(w: number, key: LedgerSortKey): (a: number, b: number) => number {
    const primary = key === 'effective_time' ? (r: number) => this.effectiveUs(w, r) : (r: number) => this.messageUs(w, r);
    const secondary = key === 'time_and_effective_time' ? (r: number) => this.effectiveUs(w, r) : () => 0;
    const rank = (r: number): number => (this.typeOf(w, r) === EV_HELD ? 0 : 1);
    return (a, b) => {
      const d = primary(a) - primary(b) || secondary(a) - secondary(b);
      if (d !== 0) return d;
      const ia = this.entryId(w, a);
      const ib = this.entryId(w, b);
      return ia < ib ? -1 : ia > ib ? 1 : rank(a) - rank(b);
    };
  }

  /** One page of a wallet's ledger (offset pagination); date bounds are inclusive on effective_time. */
  page(query: LedgerQuery): { refs: number[]; total: number } {
    const w = query.walletIndex;
    const windowed = query.startUs !== undefined || query.endUs !== undefined;
    const from = query.startUs ?? -Infinity;
    const to = query.endUs ?? Infinity;
    const inWindow = (ref: number): boolean => {
      const at = this.effectiveUs(w, ref);
      return at >= from && at <= to;
    };
    // the matching entries are refs[lo, hi) in ascending order of the sort key
    let refs: ArrayLike<number>;
    let lo = 0;
    let hi: number;
    if (query.paymentId !== undefined) {
      refs = this.ledgerRefsOfPayment(w, query.paymentId.toLowerCase(), query.sortKey).filter(inWindow);
      hi = refs.length;
    } else if (!windowed) {
      refs = this.refs(w, query.sortKey);
      hi = refs.length;
    } else if (query.sortKey === 'effective_time') {
      // already in effective_time order: the window is a slice found by binary search
      const all = this.refs(w, query.sortKey);
      refs = all;
      lo = query.startUs === undefined ? 0 : this.ledgerLowerBound(w, all, query.startUs);
      hi = query.endUs === undefined ? all.length : Math.max(lo, this.ledgerLowerBound(w, all, query.endUs + 1));
    } else {
      const key = `${this.versionOf()}|${w}|${query.sortKey}|${query.startUs ?? ''}|${query.endUs ?? ''}`;
      let hit = this.windows.get(key);
      if (!hit) {
        hit = this.refs(w, query.sortKey).filter(inWindow);
        if (this.windows.size > 32) this.windows.clear();
        this.windows.set(key, hit);
      }
      refs = hit;
      hi = hit.length;
    }
    const total = hi - lo;
    const out: number[] = [];
    const end = Math.min(total, query.offset + query.limit);
    for (let k = query.offset; k < end; k++) out.push((query.sortOrder === 'ASC' ? refs[lo + k] : refs[hi - 1 - k]) as number);
    return { refs: out, total };
  }

  /** The entries of one payment in a wallet's ledger, in `all`'s order, without scanning the ledger. */
  private ledgerRefsOfPayment(w: number, paymentId: string, key: LedgerSortKey): number[] {
    const refs: number[] = [];
    const h = this.store.handleOf(paymentId);
    if (h !== null && this.store.walletIndex(h) === w) for (const type of eventTypesOf(this.store, h, this.plan)) refs.push(h * 8 + type);
    this.extras(w).forEach((extra, k) => {
      if (extra.paymentId === paymentId) refs.push(-(k + 1));
    });
    return refs.sort(this.comparator(w, key));
  }

  private ledgerLowerBound(w: number, refs: Float64Array, us: Micros): number {
    let lo = 0;
    let hi = refs.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.effectiveUs(w, refs[mid] as number) < us) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  render(w: number, ref: number): Record<string, unknown> {
    const wallet = this.world.wallets[w] as SimWallet;
    if (ref < 0) return renderExtraEntry(this.extras(w)[-ref - 1] as ExtraEntry, wallet);
    return renderPaymentEvent(this.store.core(Math.floor(ref / 8)), ref % 8, this.world);
  }

  describe(w: number, ref: number): LedgerEntryRef {
    return { ref, entryType: EVENT_NAMES[this.typeOf(w, ref)] as string, entryId: this.entryId(w, ref), paymentId: this.paymentIdOf(w, ref), effectiveUs: this.effectiveUs(w, ref) };
  }

  /**
   * The ledger total (credits + deposits − captures − withdrawals) strictly before each instant of
   * `instants` (ascending): a bill line item's starting balance.
   */
  totalsBefore(w: number, instants: readonly Micros[]): bigint[] {
    const out: bigint[] = [];
    const refs = this.refs(w, 'effective_time');
    let total = 0n;
    let i = 0;
    for (const at of instants) {
      for (; i < refs.length && this.effectiveUs(w, refs[i] as number) < at; i++) total += this.effectOf(w, refs[i] as number);
      out.push(total);
    }
    return out;
  }

  private effectOf(w: number, ref: number): bigint {
    const type = this.typeOf(w, ref);
    if (ref < 0) {
      const extra = this.extras(w)[-ref - 1] as ExtraEntry;
      if (type === EV_DEPOSITED) return extra.amount;
      return type === EV_WITHDRAWN || type === EV_CAPTURED ? -extra.amount : 0n;
    }
    const h = Math.floor(ref / 8);
    if (type === EV_CAPTURED) return -this.store.amounts(h).captureAmount;
    if (type === EV_CREDITED) return this.store.amounts(h).creditAmount;
    return 0n;
  }

  /** Balance of a wallet summed from its ledger (before any planted balance anomaly). */
  balance(w: number): WalletBalance {
    const version = this.versionOf();
    const hit = this.balances.get(w);
    if (hit && hit.version === version) return hit.balance;
    let total = 0n;
    let held = 0n;
    let last: Micros | null = null;
    const holds: WalletBalance['holds'] = [];
    const refs = this.refs(w, 'effective_time');
    for (let i = 0; i < refs.length; i++) {
      const ref = refs[i] as number;
      const type = this.typeOf(w, ref);
      const at = this.effectiveUs(w, ref);
      if (last === null || at > last) last = at;
      if (ref < 0) {
        const extra = this.extras(w)[-ref - 1] as ExtraEntry;
        if (type === EV_DEPOSITED) total += extra.amount;
        else if (type === EV_WITHDRAWN || type === EV_CAPTURED) total -= extra.amount;
        continue;
      }
      const h = Math.floor(ref / 8);
      if (type === EV_HELD) {
        if (!isOpenSend(this.store.status(h))) continue;
        const core = this.store.amounts(h);
        held += core.holdAmount;
        holds.push({ id: this.entryId(w, ref), amount: core.holdAmount, effectiveUs: at });
      } else if (type === EV_CAPTURED) {
        total -= this.store.amounts(h).captureAmount;
      } else if (type === EV_CREDITED) {
        total += this.store.amounts(h).creditAmount;
      } else if (type === EV_RELEASED) {
        // a release returns the hold to `available`; the total never moved
      }
    }
    const balance: WalletBalance = { total, available: total - held, holds, lastEffectiveUs: last };
    this.balances.set(w, { version, balance });
    return balance;
  }
}
