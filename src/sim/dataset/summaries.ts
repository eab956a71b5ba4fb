import { formatMicros, type Micros } from '../core/time.js';
import type { AnomalyPlan } from './anomaly-plan.js';
import { bucketKeyOf } from './anomalies.js';
import { DIRECTION_NAMES, KIND_NAMES, STATUS_NAMES } from './codes.js';
import type { PaymentStore } from './store.js';
import type { World } from './world.js';

/**
 * Payment summaries (OpenAPI `PaymentSummary`, `PaymentWalletSummary`): counts, not money,
 * bucketed by direction × status × currency × kind, computed from the SAME filtered handle list
 * the payments endpoint pages through — so summaries equal list counts unless an anomaly is planted.
 */

export interface Bucket {
  direction: string;
  status: string;
  currency: string;
  kind: string;
  count: number;
  oldestUs: Micros;
  newestUs: Micros;
}

/** Buckets per wallet: walletIndex → bucket key → bucket. */
export type WalletBuckets = Map<number, Map<string, Bucket>>;

export function bucketize(store: PaymentStore, world: World, handles: Uint32Array, plan: AnomalyPlan, includes: (h: number) => boolean): WalletBuckets {
  const result: WalletBuckets = new Map();
  const add = (h: number, extra: number): void => {
    const w = store.walletIndex(h);
    const wallet = world.wallets[w];
    if (!wallet) return;
    const direction = store.direction(h);
    const status = store.status(h);
    const kind = store.kind(h);
    const currency = store.currency(h).toLowerCase();
    const key = bucketKeyOf(wallet.id, direction, status, currency, kind);
    let buckets = result.get(w);
    if (!buckets) result.set(w, (buckets = new Map()));
    const created = store.created(h);
    const bucket = buckets.get(key);
    if (bucket) {
      bucket.count += extra;
      if (created < bucket.oldestUs) bucket.oldestUs = created;
      if (created > bucket.newestUs) bucket.newestUs = created;
    } else {
      buckets.set(key, { direction: DIRECTION_NAMES[direction] as string, status: STATUS_NAMES[status] as string, currency, kind: KIND_NAMES[kind] as string, count: extra, oldestUs: created, newestUs: created });
    }
  };
  for (let i = 0; i < handles.length; i++) add(handles[i] as number, 1);
  const bump = plan.summaryBump;
  if (bump && includes(bump.handle)) add(bump.handle, 1);
  return result;
}

interface Totals {
  count: number;
  oldestUs: Micros | null;
  newestUs: Micros | null;
}

function totalsOf(buckets: Iterable<Bucket>): Totals {
  let count = 0;
  let oldestUs: Micros | null = null;
  let newestUs: Micros | null = null;
  for (const b of buckets) {
    count += b.count;
    if (oldestUs === null || b.oldestUs < oldestUs) oldestUs = b.oldestUs;
    if (newestUs === null || b.newestUs > newestUs) newestUs = b.newestUs;
  }
  return { count, oldestUs, newestUs };
}

function renderBuckets(buckets: Iterable<Bucket>): Array<Record<string, unknown>> {
  const merged = new Map<string, Bucket>();
  for (const b of buckets) {
    const key = `${b.direction}|${b.status}|${b.currency}|${b.kind}`;
    const m = merged.get(key);
    if (!m) merged.set(key, { ...b });
    else {
      m.count += b.count;
      m.oldestUs = Math.min(m.oldestUs, b.oldestUs);
      m.newestUs = Math.max(m.newestUs, b.newestUs);
    }
  }
  return [...merged.entries()]
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([, b]) => ({ direction: b.direction, status: b.status, currency: b.currency, kind: b.kind, total_count: b.count, oldest_created_at: formatMicros(b.oldestUs), newest_created_at: formatMicros(b.newestUs) }));
}

const instant = (us: Micros | null): string | null => (us === null ? null : formatMicros(us));

export function renderEnvironmentSummary(world: World, environmentIndex: number, perWallet: WalletBuckets): Record<string, unknown> {
  const environment = world.environments[environmentIndex];
  const all: Bucket[] = [];
  const byLoc = new Map<number, Bucket[]>();
  for (const [w, buckets] of perWallet) {
    const wallet = world.wallets[w];
    if (!wallet) continue;
    all.push(...buckets.values());
    if (wallet.lineOfCreditIndex !== null) {
      const list = byLoc.get(wallet.lineOfCreditIndex) ?? [];
      list.push(...buckets.values());
      byLoc.set(wallet.lineOfCreditIndex, list);
    }
  }
  const totals = totalsOf(all);
  const empty = totals.count === 0;
  const byLineOfCredit: Record<string, unknown> = {};
  for (const [locIndex, buckets] of [...byLoc.entries()].sort(([a], [b]) => a - b)) {
    const t = totalsOf(buckets);
    if (t.count === 0) continue;
    const loc = world.linesOfCredit[locIndex];
    if (!loc) continue;
    byLineOfCredit[loc.id] = { organization_id: world.organizationId, environment_id: environment?.id, total_count: t.count, oldest_created_at: instant(t.oldestUs), newest_created_at: instant(t.newestUs), buckets: renderBuckets(buckets) };
  }
  return {
    organization_id: world.organizationId,
    environment_id: environment?.id ?? null,
    total_count: totals.count,
    oldest_created_at: instant(totals.oldestUs),
    newest_created_at: instant(totals.newestUs),
    // zero counts and empty maps when nothing matches (docs/service-facts.md#endpoints, endpoint 14)
    by_organization_id: empty ? {} : { [world.organizationId]: { total_count: totals.count, oldest_created_at: instant(totals.oldestUs), newest_created_at: instant(totals.newestUs) } },
    by_environment_id: empty || !environment ? {} : { [environment.id]: { organization_id: world.organizationId, total_count: totals.count, oldest_created_at: instant(totals.oldestUs), newest_created_at: instant(totals.newestUs) } },
    by_line_of_credit_id: byLineOfCredit,
  };
}

export function renderWalletSummary(world: World, walletIndex: number, perWallet: WalletBuckets): Record<string, unknown> {
  const wallet = world.wallets[walletIndex];
  const buckets = [...(perWallet.get(walletIndex)?.values() ?? [])];
  const totals = totalsOf(buckets);
  const loc = wallet?.lineOfCreditIndex !== null && wallet?.lineOfCreditIndex !== undefined ? world.linesOfCredit[wallet.lineOfCreditIndex] : undefined;
  return {
    wallet_id: wallet?.id,
    organization_id: world.organizationId,
    environment_id: wallet ? world.environments[wallet.environmentIndex]?.id : null,
    line_of_credit_id: loc?.id ?? null,
    total_count: totals.count,
    oldest_created_at: instant(totals.oldestUs),
    newest_created_at: instant(totals.newestUs),
    buckets: renderBuckets(buckets),
  };
}
