import type { Micros } from '../core/time.js';
import type { PaymentStore } from './store.js';

/**
 * Sorted lists of payment handles: per environment and per wallet, by created_at or updated_at,
 * ties broken by payment id (so pages are stable). Built once from the timeline (which is already
 * in creation order) and merged with written payments when those change. Filtered lists are cached
 * per filter set in a bounded LRU, so a page costs a binary search plus a slice — never a scan.
 */

export type SortField = 'created_at' | 'updated_at';

export interface Scope {
  environmentIndex: number;
  /** one wallet, or a set of wallets (line of credit), or every wallet of the environment */
  walletIndex?: number;
  walletSet?: ReadonlySet<number>;
}

/** A compiled filter: `key` identifies it in caches, `test` decides one handle. */
export interface Predicate {
  key: string;
  test: ((h: number) => boolean) | null;
}

export class Orderings {
  private readonly generatedBase = new Map<string, Uint32Array>();
  private readonly merged = new Map<string, { version: number; order: Uint32Array }>();
  private readonly filtered = new LruCache<Uint32Array>(24_000_000);

  constructor(
    private readonly store: PaymentStore,
    private readonly versionOf: () => number,
  ) {}

  keyOf(field: SortField, h: number): Micros {
    return field === 'created_at' ? this.store.created(h) : this.store.updated(h);
  }

  /** (key, id) order: negative when a sorts before b. */
  compare(field: SortField, a: number, b: number): number {
    const d = this.keyOf(field, a) - this.keyOf(field, b);
    if (d !== 0) return d;
    const ia = this.store.id(a);
    const ib = this.store.id(b);
    return ia < ib ? -1 : ia > ib ? 1 : 0;
  }

  /** Handles of one environment or wallet, all payments, sorted by `field` ascending. */
  order(scope: { environmentIndex: number; walletIndex?: number }, field: SortField): Uint32Array {
    const name = `e${scope.environmentIndex}${scope.walletIndex === undefined ? '' : `w${scope.walletIndex}`}:${field}`;
    const base = this.generatedOrder(scope, field, name);
    const written = this.store.writtenHandles().filter((h) => (scope.walletIndex === undefined ? this.store.environmentIndex(h) === scope.environmentIndex : this.store.walletIndex(h) === scope.walletIndex));
    if (written.length === 0) return base;
    const version = this.versionOf();
    const cached = this.merged.get(name);
    if (cached && cached.version === version) return cached.order;
    written.sort((a, b) => this.compare(field, a, b));
    const order = mergeSorted(base, written, (a, b) => this.compare(field, a, b));
    this.merged.set(name, { version, order });
    return order;
  }

  private generatedOrder(scope: { environmentIndex: number; walletIndex?: number }, field: SortField, name: string): Uint32Array {
    const cached = this.generatedBase.get(name);
    if (cached) return cached;
    let order: Uint32Array;
    if (field === 'updated_at') {
      order = Uint32Array.from(this.generatedOrder(scope, 'created_at', name.replace(/:.*/, ':created_at')));
      order.sort((a, b) => this.compare('updated_at', a, b));
    } else if (scope.walletIndex !== undefined) {
      const env = this.generatedOrder({ environmentIndex: scope.environmentIndex }, 'created_at', `e${scope.environmentIndex}:created_at`);
      const w = scope.walletIndex;
      const wallets = this.store.ctx.timeline.wallet;
      order = filterOrder(env, (h) => wallets[h] === w);
    } else {
      order = this.environmentCreatedOrder(scope.environmentIndex);
    }
    this.generatedBase.set(name, order);
    return order;
  }

  /** The timeline is in creation order already; only runs of equal timestamps need sorting by id. */
  private environmentCreatedOrder(environmentIndex: number): Uint32Array {
    const t = this.store.ctx.timeline;
    const envOfWallet = this.store.ctx.world.wallets.map((w) => w.environmentIndex);
    let count = 0;
    for (let h = 0; h < t.count; h++) if (envOfWallet[t.wallet[h] as number] === environmentIndex) count++;
    const order = new Uint32Array(count);
    let k = 0;
    for (let h = 0; h < t.count; h++) if (envOfWallet[t.wallet[h] as number] === environmentIndex) order[k++] = h;
    let start = 0;
    while (start < order.length) {
      let end = start + 1;
      const key = t.created[order[start] as number];
      while (end < order.length && t.created[order[end] as number] === key) end++;
      if (end - start > 1) order.subarray(start, end).sort((a, b) => this.compare('created_at', a, b));
      start = end;
    }
    return order;
  }

  /** `order(scope, field)` narrowed by `predicate` (and a wallet set), cached per filter set. */
  matching(scope: Scope, field: SortField, predicate: Predicate): Uint32Array {
    const base = this.order(scope, field);
    const walletSet = scope.walletSet;
    if (predicate.test === null && walletSet === undefined) return base;
    const key = `${this.versionOf()}|${scope.environmentIndex}|${scope.walletIndex ?? ''}|${walletSet ? [...walletSet].sort().join(',') : ''}|${field}|${predicate.key}`;
    const hit = this.filtered.get(key);
    if (hit) return hit;
    const test = predicate.test;
    const store = this.store;
    const result = filterOrder(base, (h) => (walletSet === undefined || walletSet.has(store.walletIndex(h))) && (test === null || test(h)));
    this.filtered.set(key, result, result.length + 64);
    return result;
  }

  /** First position in `order` whose key is ≥ `us` (binary search on a created_at-sorted list). */
  lowerBoundByKey(order: Uint32Array, field: SortField, us: Micros): number {
    let lo = 0;
    let hi = order.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.keyOf(field, order[mid] as number) < us) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  /** First position whose (key, id) is strictly after (key, id) given. */
  upperBoundByPosition(order: Uint32Array, field: SortField, key: Micros, id: string): number {
    let lo = 0;
    let hi = order.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      const h = order[mid] as number;
      const k = this.keyOf(field, h);
      const after = k > key || (k === key && this.store.id(h) > id);
      if (after) hi = mid;
      else lo = mid + 1;
    }
    return lo;
  }
}

export function filterOrder(order: Uint32Array, keep: (h: number) => boolean): Uint32Array {
  const out = new Uint32Array(order.length);
  let k = 0;
  for (let i = 0; i < order.length; i++) {
    const h = order[i] as number;
    if (keep(h)) out[k++] = h;
  }
  return out.slice(0, k);
}

function mergeSorted(base: Uint32Array, extra: readonly number[], compare: (a: number, b: number) => number): Uint32Array {
  const out = new Uint32Array(base.length + extra.length);
  let i = 0;
  let j = 0;
  let k = 0;
  while (i < base.length || j < extra.length) {
    if (j >= extra.length || (i < base.length && compare(base[i] as number, extra[j] as number) <= 0)) out[k++] = base[i++] as number;
    else out[k++] = extra[j++] as number;
  }
  return out;
}

/** A least-recently-used cache bounded by a total weight (here: array elements). */
export class LruCache<V> {
  private readonly entries = new Map<string, { value: V; weight: number }>();
  private total = 0;

  constructor(private readonly budget: number) {}

  get(key: string): V | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    this.entries.delete(key);
    this.entries.set(key, entry);
    return entry.value;
  }

  set(key: string, value: V, weight: number): void {
    const old = this.entries.get(key);
    if (old) {
      this.total -= old.weight;
      this.entries.delete(key);
    }
    this.entries.set(key, { value, weight });
    this.total += weight;
    for (const [k, e] of this.entries) {
      if (this.total <= this.budget || this.entries.size <= 1) break;
      this.entries.delete(k);
      this.total -= e.weight;
    }
  }

  clear(): void {
    this.entries.clear();
    this.total = 0;
  }
}
