import type { Micros } from '../core/time.js';
import { CATEGORY_NAMES, DIRECTION_NAMES, KIND_NAMES, STATUS_NAMES } from './codes.js';
import type { Predicate, Scope, SortField } from './orderings.js';
import type { PaymentStore } from './store.js';

/**
 * A payments filter in internal terms (codes and µs), shared by the list endpoint, the summary
 * endpoints and the ground-truth accessors, so all three count the same rows.
 */
export interface PaymentFilter {
  environmentIndex: number;
  walletIndex?: number;
  /** wallets of a line of credit */
  walletSet?: ReadonlySet<number>;
  category?: number;
  /** every pair must match */
  metadata?: ReadonlyArray<readonly [string, string]>;
  statuses?: ReadonlySet<number>;
  kind?: number;
  direction?: number;
  /** inclusive bounds on created_at */
  startUs?: Micros;
  endUs?: Micros;
  /** summaries: include payments of inactive wallets (default false there) */
  excludeInactiveWallets?: boolean;
}

export function scopeOf(filter: PaymentFilter): Scope {
  return {
    environmentIndex: filter.environmentIndex,
    ...(filter.walletIndex !== undefined ? { walletIndex: filter.walletIndex } : {}),
    ...(filter.walletSet !== undefined ? { walletSet: filter.walletSet } : {}),
  };
}

/**
 * Compile the non-scope filters into a predicate. With `field === 'created_at'` the date bounds
 * are left out (the caller binary-searches them); otherwise they are tested per handle.
 */
export function predicateOf(store: PaymentStore, filter: PaymentFilter, field: SortField, isWalletActive: (w: number) => boolean): Predicate {
  const tests: Array<(h: number) => boolean> = [];
  const parts: string[] = [];
  if (filter.category !== undefined) {
    const c = filter.category;
    tests.push((h) => store.category(h) === c);
    parts.push(`cat=${CATEGORY_NAMES[c]}`);
  }
  if (filter.direction !== undefined) {
    const d = filter.direction;
    tests.push((h) => store.direction(h) === d);
    parts.push(`dir=${DIRECTION_NAMES[d]}`);
  }
  if (filter.kind !== undefined) {
    const k = filter.kind;
    tests.push((h) => store.kind(h) === k);
    parts.push(`kind=${KIND_NAMES[k]}`);
  }
  if (filter.statuses !== undefined) {
    const set = filter.statuses;
    tests.push((h) => set.has(store.status(h)));
    parts.push(`st=${[...set].sort().map((s) => STATUS_NAMES[s]).join(',')}`);
  }
  if (filter.excludeInactiveWallets) {
    tests.push((h) => isWalletActive(store.walletIndex(h)));
    parts.push('active');
  }
  if (field !== 'created_at' && (filter.startUs !== undefined || filter.endUs !== undefined)) {
    const lo = filter.startUs ?? -Infinity;
    const hi = filter.endUs ?? Infinity;
    tests.push((h) => {
      const c = store.created(h);
      return c >= lo && c <= hi;
    });
    parts.push(`created=${filter.startUs ?? ''}..${filter.endUs ?? ''}`);
  }
  // metadata last: it is the only test that derives anything
  if (filter.metadata !== undefined && filter.metadata.length > 0) {
    const pairs = filter.metadata;
    tests.push((h) => {
      const meta = store.metadata(h);
      if (meta === null) return false;
      for (const [k, v] of pairs) if (!Object.prototype.hasOwnProperty.call(meta, k) || meta[k] !== v) return false;
      return true;
    });
    parts.push(`meta=${JSON.stringify([...pairs].sort())}`);
  }
  if (tests.length === 0) return { key: '', test: null };
  return { key: parts.join('&'), test: (h) => tests.every((t) => t(h)) };
}
