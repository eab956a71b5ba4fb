import { uuidOf } from '../core/ids.js';
import { hashString } from '../core/prng.js';
import { formatMicros, parseMicros, type Micros } from '../core/time.js';
import { planAnomalies } from './anomalies.js';
import type { AnomalyPlan } from './anomaly-plan.js';
import type { PlantedAnomaly } from './anomaly-kinds.js';
import { CATEGORY_NAMES, DIRECTION_NAMES, KIND_NAMES, STATUS_NAMES } from './codes.js';
import { resolveDatasetOptions, type DatasetOptions, type ResolvedDatasetOptions } from './options.js';
import { Orderings, type SortField } from './orderings.js';
import type { GenContext, PaymentCore } from './payment-core.js';
import { predicateOf, scopeOf, type PaymentFilter } from './payment-query.js';
import { renderPayment, amountOf, wireInt } from './render-payment.js';
import { PaymentStore } from './store.js';
import { bucketize, renderEnvironmentSummary, renderWalletSummary, type WalletBuckets } from './summaries.js';
import { buildTimeline } from './timeline.js';
import { pairTransfers } from './transfer-pairs.js';
import { EV_DEPOSITED, EV_WITHDRAWN } from './ledger.js';
import { WalletLedgers, type LedgerQuery } from './wallet-ledgers.js';
import { SimBills } from './bills.js';
import { buildWorld, type SimEnvironment, type SimLineOfCredit, type SimWallet, type World } from './world.js';

export type SortOrder = 'ASC' | 'DESC';
export type { LedgerQuery };

export type PageRequest = { mode: 'offset'; offset: number; limit: number } | { mode: 'cursor'; after: { key: Micros; id: string } | null; limit: number };

export interface PaymentPage {
  handles: number[];
  /** matching payments in total (offset mode reports it; cursor mode does not need it) */
  total: number;
  hasMore: boolean;
}


/** A filter in API terms, for the ground-truth accessors (same semantics as the list endpoint). */
export interface TruthFilter {
  environmentId?: string;
  walletId?: string;
  lineOfCreditId?: string;
  /** inclusive lower bound on created_at (RFC 3339 or YYYY-MM-DD) */
  from?: string;
  /** inclusive upper bound on created_at (RFC 3339) */
  to?: string;
  statuses?: readonly string[];
  kind?: string;
  direction?: string;
  category?: string;
  metadata?: Readonly<Record<string, string>>;
}

export interface TruthLedgerEntry {
  entryType: string;
  /** hold_id / credit_id / deposit_id / withdraw_id (held and captured share their hold_id) */
  entryId: string;
  paymentId: string | null;
  effectiveAt: string;
}

const NS_BALANCE = hashString('balance');

/**
 * The seeded dataset: world + timeline + derived views, plus the payments written through the
 * API. The server reads it; tests read the same object as ground truth (`paymentIds`,
 * `ledgerEntries`, `walletBalance`, `anomalies`, ...) to prove no row is lost or doubled.
 */
export class Dataset {
  readonly options: ResolvedDatasetOptions;
  readonly world: World;
  readonly ctx: GenContext;
  readonly plan: AnomalyPlan;
  readonly store: PaymentStore;
  readonly orderings: Orderings;
  readonly ledgers: WalletLedgers;
  /** bills per line of credit and period, consistent with the payments (bills.ts) */
  readonly bills: SimBills;
  private walletVersion = 0;
  private readonly walletById = new Map<string, number>();
  private readonly summaryCache = new Map<string, { version: number; buckets: WalletBuckets }>();

  constructor(options: DatasetOptions = {}) {
    this.options = resolveDatasetOptions(options);
    this.world = buildWorld(this.options);
    const timeline = buildTimeline(this.options, this.world);
    pairTransfers(this.options, this.world, timeline); // business profile: treasury sends get their receiving leg
    this.ctx = { options: this.options, world: this.world, timeline };
    this.plan = planAnomalies(this.ctx);
    this.store = new PaymentStore(this.ctx, this.plan);
    this.orderings = new Orderings(this.store, () => this.version);
    this.ledgers = new WalletLedgers(this.store, this.orderings, this.world, this.plan, this.options.scale, () => this.version);
    this.bills = new SimBills(this.world, this.store, this.ledgers, this.plan, () => this.version);
    this.world.wallets.forEach((w) => this.walletById.set(w.id, w.index));
  }

  /** Changes whenever a payment or wallet is written through the API. */
  get version(): number {
    return this.store.version + this.walletVersion;
  }

  get organizationId(): string {
    return this.world.organizationId;
  }

  get environments(): readonly SimEnvironment[] {
    return this.world.environments;
  }

  get wallets(): readonly SimWallet[] {
    return this.world.wallets;
  }

  get linesOfCredit(): readonly SimLineOfCredit[] {
    return this.world.linesOfCredit;
  }

  /** Every planted anomaly with the ids it touched (empty unless `anomalies` was set). */
  get anomalies(): readonly PlantedAnomaly[] {
    return this.plan.planted;
  }

  // ------------------------------------------------------------------ lookups

  walletIndexOf(id: string): number | null {
    return this.walletById.get(id.toLowerCase()) ?? null;
  }

  environmentIndexOf(id: string): number | null {
    const index = this.world.environments.findIndex((e) => e.id === id.toLowerCase());
    return index < 0 ? null : index;
  }

  isWalletActive(w: number): boolean {
    const wallet = this.world.wallets[w];
    return wallet !== undefined && wallet.deactivatedUs === null;
  }

  addWallet(wallet: SimWallet): void {
    this.world.wallets.push(wallet);
    this.walletById.set(wallet.id, wallet.index);
    this.walletVersion++;
  }

  /**
   * A ledger movement without a payment that the service records after the fact, effective in the
   * past (a late ledger event: a back-dated deposit or withdrawal): listed by the wallet's ledger
   * and counted in its balance from now on. Tests of closed periods use it.
   */
  addLateLedgerEntry(w: number, entry: { type: 'deposited' | 'withdrawn'; id: string; amount: bigint; effective: string }): void {
    const effectiveUs = parseMicros(entry.effective);
    if (effectiveUs === null) throw new Error(`bad effective time ${entry.effective}`);
    this.ledgers.extras(w).push({ type: entry.type === 'deposited' ? EV_DEPOSITED : EV_WITHDRAWN, id: entry.id, paymentId: null, effectiveUs, amount: entry.amount });
    this.walletVersion++;
  }

  updateWallet(w: number, change: (wallet: SimWallet) => void): void {
    const wallet = this.world.wallets[w];
    if (!wallet) throw new Error(`no wallet ${w}`);
    change(wallet);
    this.walletVersion++;
  }

  // ------------------------------------------------------------------ payments

  renderPayment(h: number): Record<string, unknown> {
    return renderPayment(this.ctx, this.store.core(h));
  }

  paymentCore(h: number): PaymentCore {
    return this.store.core(h);
  }

  /** One page of the payments list. Date bounds are inclusive on created_at. */
  listPayments(filter: PaymentFilter, field: SortField, order: SortOrder, page: PageRequest): PaymentPage {
    const matched = this.orderings.matching(scopeOf(filter), field, predicateOf(this.store, filter, field, (w) => this.isWalletActive(w)));
    let lo = 0;
    let hi = matched.length;
    if (field === 'created_at') {
      if (filter.startUs !== undefined) lo = this.orderings.lowerBoundByKey(matched, field, filter.startUs);
      if (filter.endUs !== undefined) hi = this.orderings.lowerBoundByKey(matched, field, filter.endUs + 1);
      if (hi < lo) hi = lo;
    }
    const total = hi - lo;
    const at = (k: number): number => (order === 'ASC' ? (matched[lo + k] as number) : (matched[hi - 1 - k] as number));
    let start: number;
    if (page.mode === 'offset') start = Math.min(page.offset, total);
    else if (page.after === null) start = 0;
    else if (order === 'ASC') start = Math.max(lo, this.orderings.upperBoundByPosition(matched, field, page.after.key, page.after.id)) - lo;
    else {
      // DESC: continue with the items strictly before `after` in ascending order
      const notBefore = this.boundNotBefore(matched, field, page.after.key, page.after.id);
      start = hi - Math.min(hi, Math.max(lo, notBefore));
    }
    start = Math.max(0, Math.min(start, total));
    const end = Math.min(total, start + page.limit);
    const handles: number[] = [];
    for (let k = start; k < end; k++) handles.push(at(k));
    return { handles, total, hasMore: end < total };
  }

  private boundNotBefore(order: Uint32Array, field: SortField, key: Micros, id: string): number {
    let lo = 0;
    let hi = order.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      const h = order[mid] as number;
      const k = this.orderings.keyOf(field, h);
      const before = k < key || (k === key && this.store.id(h) < id);
      if (before) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  // ------------------------------------------------------------------ summaries

  /** Buckets per wallet for one environment and filter set; cached per filter set. */
  summaryBuckets(filter: PaymentFilter): WalletBuckets {
    const predicate = predicateOf(this.store, filter, 'created_at', (w) => this.isWalletActive(w));
    const scope = scopeOf(filter);
    const key = `${filter.environmentIndex}|${filter.walletIndex ?? ''}|${filter.walletSet ? [...filter.walletSet].sort().join(',') : ''}|${predicate.key}|${filter.startUs ?? ''}|${filter.endUs ?? ''}`;
    const version = this.version;
    const hit = this.summaryCache.get(key);
    if (hit && hit.version === version) return hit.buckets;
    const page = this.listPayments(filter, 'created_at', 'ASC', { mode: 'offset', offset: 0, limit: Number.MAX_SAFE_INTEGER });
    const includes = (h: number): boolean => {
      if (this.store.environmentIndex(h) !== filter.environmentIndex) return false;
      if (scope.walletIndex !== undefined && this.store.walletIndex(h) !== scope.walletIndex) return false;
      if (scope.walletSet !== undefined && !scope.walletSet.has(this.store.walletIndex(h))) return false;
      const c = this.store.created(h);
      if ((filter.startUs !== undefined && c < filter.startUs) || (filter.endUs !== undefined && c > filter.endUs)) return false;
      return predicate.test === null || predicate.test(h);
    };
    const buckets = bucketize(this.store, this.world, Uint32Array.from(page.handles), this.plan, includes);
    if (this.summaryCache.size > 64) this.summaryCache.clear();
    this.summaryCache.set(key, { version, buckets });
    return buckets;
  }

  environmentSummary(filter: PaymentFilter): Record<string, unknown> {
    return renderEnvironmentSummary(this.world, filter.environmentIndex, this.summaryBuckets(filter));
  }

  walletSummary(filter: PaymentFilter & { walletIndex: number }): Record<string, unknown> {
    return renderWalletSummary(this.world, filter.walletIndex, this.summaryBuckets(filter));
  }

  // ------------------------------------------------------------------ ledger

  listLedger(query: LedgerQuery): { refs: number[]; total: number } {
    return this.ledgers.page(query);
  }

  // ------------------------------------------------------------------ wallets

  renderWallet(w: number): Record<string, unknown> {
    const wallet = this.world.wallets[w] as SimWallet;
    const ledger = this.ledgers.balance(w);
    const delta = this.plan.balanceDelta.get(w) ?? 0n;
    const total = ledger.total + delta;
    const available = ledger.available + delta;
    const effective = formatMicros(ledger.lastEffectiveUs ?? wallet.createdUs);
    const signed = (v: bigint): Record<string, unknown> => ({ ...amountOf(wallet.currency, v < 0n ? -v : v), negative: v < 0n });
    const loc = wallet.lineOfCreditIndex === null ? null : this.world.linesOfCredit[wallet.lineOfCreditIndex];
    return {
      id: wallet.id,
      active: wallet.deactivatedUs === null,
      created_at: formatMicros(wallet.createdUs),
      updated_at: formatMicros(Math.max(wallet.createdUs, wallet.deactivatedUs ?? 0, ledger.lastEffectiveUs ?? 0)),
      deleted_at: wallet.deactivatedUs === null ? null : formatMicros(wallet.deactivatedUs),
      deletion_failed_at: null,
      name: wallet.name,
      organization_id: this.world.organizationId,
      environment_id: this.world.environments[wallet.environmentIndex]?.id,
      limit: wallet.limit === null ? null : wireInt(wallet.limit),
      line_of_credit_id: loc?.id ?? null,
      network: wallet.network,
      metadata: wallet.metadata,
      balances: [{ id: uuidOf(this.world.seed, NS_BALANCE, w), wallet_id: wallet.id, effective_time: effective, available: signed(available), total: signed(total), network: wallet.network, currency: wallet.currency }],
      holds: ledger.holds.map((hold) => ({ id: hold.id, amount: signed(hold.amount), effective_time: formatMicros(hold.effectiveUs) })),
      pending_settlements: [],
      error: null,
      // behind the flag: a field the document does not list yet (clients must ignore it)
      ...(this.options.unknownFields ? { features_v2: { instant_settlement: w % 2 === 0 } } : {}),
    };
  }

  // ------------------------------------------------------------------ ground truth

  /** Translate an API-terms filter for one environment (throws on unknown ids / values). */
  toPaymentFilter(filter: TruthFilter, environmentIndex: number): PaymentFilter {
    const code = (names: readonly string[], value: string, what: string): number => {
      const index = names.indexOf(value);
      if (index < 0) throw new RangeError(`unknown ${what} ${JSON.stringify(value)}`);
      return index;
    };
    const instant = (text: string): Micros => {
      const us = /^\d{4}-\d{2}-\d{2}$/.test(text) ? parseMicros(`${text}T00:00:00Z`) : parseMicros(text);
      if (us === null) throw new RangeError(`not an instant: ${text}`);
      return us;
    };
    const out: PaymentFilter = { environmentIndex };
    if (filter.walletId !== undefined) {
      const w = this.walletIndexOf(filter.walletId);
      if (w === null) throw new RangeError(`unknown wallet ${filter.walletId}`);
      out.walletIndex = w;
    }
    if (filter.lineOfCreditId !== undefined) {
      const loc = this.world.linesOfCredit.find((l) => l.id === filter.lineOfCreditId);
      out.walletSet = new Set(this.world.wallets.filter((w) => loc !== undefined && w.lineOfCreditIndex === loc.index).map((w) => w.index));
    }
    if (filter.from !== undefined) out.startUs = instant(filter.from);
    if (filter.to !== undefined) out.endUs = instant(filter.to);
    if (filter.statuses !== undefined) out.statuses = new Set(filter.statuses.map((s) => code(STATUS_NAMES, s, 'status')));
    if (filter.kind !== undefined) out.kind = code(KIND_NAMES, filter.kind, 'kind');
    if (filter.direction !== undefined) out.direction = code(DIRECTION_NAMES, filter.direction, 'direction');
    if (filter.category !== undefined) out.category = code(CATEGORY_NAMES, filter.category, 'category');
    if (filter.metadata !== undefined) out.metadata = Object.entries(filter.metadata);
    return out;
  }

  private environmentsFor(filter: TruthFilter): number[] {
    if (filter.environmentId !== undefined) {
      const e = this.environmentIndexOf(filter.environmentId);
      if (e === null) throw new RangeError(`unknown environment ${filter.environmentId}`);
      return [e];
    }
    if (filter.walletId !== undefined) {
      const w = this.walletIndexOf(filter.walletId);
      if (w === null) throw new RangeError(`unknown wallet ${filter.walletId}`);
      return [(this.world.wallets[w] as SimWallet).environmentIndex];
    }
    return this.world.environments.map((e) => e.index);
  }

  /** Ids of the payments matching `filter`, per environment in (created_at, id) order. */
  *iteratePaymentIds(filter: TruthFilter = {}): Generator<string> {
    for (const e of this.environmentsFor(filter)) {
      const page = this.listPayments(this.toPaymentFilter(filter, e), 'created_at', 'ASC', { mode: 'offset', offset: 0, limit: Number.MAX_SAFE_INTEGER });
      for (const h of page.handles) yield this.store.id(h);
    }
  }

  paymentIds(filter: TruthFilter = {}): string[] {
    return [...this.iteratePaymentIds(filter)];
  }

  countPayments(filter: TruthFilter = {}): number {
    let n = 0;
    for (const e of this.environmentsFor(filter)) n += this.listPayments(this.toPaymentFilter(filter, e), 'created_at', 'ASC', { mode: 'offset', offset: 0, limit: 0 }).total;
    return n;
  }

  /** The wire object of a payment (amounts as bigint), or null. */
  getPayment(id: string): Record<string, unknown> | null {
    const h = this.store.handleOf(id);
    return h === null ? null : this.renderPayment(h);
  }

  /** Ledger entries of a wallet in effective_time order, optionally within inclusive bounds. */
  ledgerEntries(walletId: string, window: { from?: string; to?: string } = {}): TruthLedgerEntry[] {
    const w = this.walletIndexOf(walletId);
    if (w === null) throw new RangeError(`unknown wallet ${walletId}`);
    const lo = window.from === undefined ? -Infinity : (parseMicros(window.from) ?? -Infinity);
    const hi = window.to === undefined ? Infinity : (parseMicros(window.to) ?? Infinity);
    const out: TruthLedgerEntry[] = [];
    for (const ref of this.ledgers.refs(w, 'effective_time')) {
      const d = this.ledgers.describe(w, ref);
      if (d.effectiveUs < lo || d.effectiveUs > hi) continue;
      out.push({ entryType: d.entryType, entryId: d.entryId, paymentId: d.paymentId, effectiveAt: formatMicros(d.effectiveUs) });
    }
    return out;
  }

  /** A ledger event as the wire shows it. */
  renderLedgerEntry(walletIndex: number, ref: number): Record<string, unknown> {
    return this.ledgers.render(walletIndex, ref);
  }

  /** The wallet's balance as its ledger sums it, and as the API reports it (they differ only under balance_mismatch). */
  walletBalance(walletId: string): { currency: string; ledgerTotal: bigint; reportedTotal: bigint; available: bigint } {
    const w = this.walletIndexOf(walletId);
    if (w === null) throw new RangeError(`unknown wallet ${walletId}`);
    const b = this.ledgers.balance(w);
    const delta = this.plan.balanceDelta.get(w) ?? 0n;
    return { currency: (this.world.wallets[w] as SimWallet).currency, ledgerTotal: b.total, reportedTotal: b.total + delta, available: b.available + delta };
  }
}
