import { uuidOf } from '../core/ids.js';
import { hash32, hashString } from '../core/prng.js';
import { US_PER_HOUR } from '../core/time.js';
import type { AnomalyKind } from './anomaly-kinds.js';
import { CAT_STANDARD, DIR_SEND, F_CHECK, F_HUGE, F_LEGACY, F_SHORTCIRCUIT, F_SWAP, KIND_BOLT11, KIND_NAMES, ST_COMPLETED, STATUS_NAMES, DIRECTION_NAMES } from './codes.js';
import { baseCore, type GenContext, type PaymentCore } from './payment-core.js';
import type { SimWallet } from './world.js';
import { planBillAnomalies } from './bill-anomalies.js';
import type { AnomalyPlan } from './anomaly-plan.js';

/**
 * Chooses where to plant each requested anomaly (deterministically from the seed) and records
 * what was planted, so tests can assert that reconciliation finds every one.
 */

const NS_ANOMALY = hashString('anomaly');
const MALFORMED_VALUES: readonly unknown[] = ['1e3', '1,000', '', 1.5, -500];

export function emptyPlan(): AnomalyPlan {
  return { byHandle: new Map(), orphans: [], balanceDelta: new Map(), summaryBump: null, bills: new Map(), planted: [] };
}

/** The summary bucket a payment falls in: `wallet_id|direction|status|currency|kind`. */
export function bucketKeyOf(walletId: string, direction: number, status: number, currency: string, kind: number): string {
  return `${walletId}|${DIRECTION_NAMES[direction]}|${STATUS_NAMES[status]}|${currency.toLowerCase()}|${KIND_NAMES[kind]}`;
}

/**
 * What a planter sees: the plan it adds to, and the payments not yet used by another anomaly,
 * searched from a point the seed chooses so the same seed plants in the same places.
 */
interface Planting {
  ctx: GenContext;
  plan: AnomalyPlan;
  /** the first unused payment, from a point the salt and seed choose, that `eligible` accepts (marked used) */
  find(salt: string, eligible: (i: number) => boolean): number | null;
  /** a completed standard payment of an active BTC wallet, without any quirk that would hide the anomaly */
  plain(i: number): boolean;
  plainSend(i: number): boolean;
  /** a BOLT11 send, not a swap: where the service applies max_fee and shows fees */
  bolt11Send(i: number): boolean;
  walletOf(i: number): SimWallet;
  /** records a planted payment anomaly (the map entry and what tests expect to be found) */
  plant(kind: AnomalyKind, i: number, detail: (core: PaymentCore) => string, malformed?: unknown): void;
  environmentOf(wallet: SimWallet): string;
}

export function planAnomalies(ctx: GenContext): AnomalyPlan {
  const plan = emptyPlan();
  if (ctx.options.anomalies.length === 0) return plan;
  planBillAnomalies(ctx, plan);
  if (ctx.timeline.count === 0) return plan;
  const planting = plantingOf(ctx, plan);
  // bill anomalies have no planter here: planBillAnomalies above
  for (const kind of ctx.options.anomalies) PLANTERS[kind]?.(planting, kind);
  return plan;
}

function plantingOf(ctx: GenContext, plan: AnomalyPlan): Planting {
  const { options, world, timeline: t } = ctx;
  const n = t.count;
  const used = new Set<number>();
  const walletOf = (i: number): SimWallet => world.wallets[t.wallet[i] as number] as SimWallet;
  const environmentOf = (wallet: SimWallet): string => (world.environments[wallet.environmentIndex] as { id: string }).id;
  const plain = (i: number): boolean =>
    t.status[i] === ST_COMPLETED && t.category[i] === CAT_STANDARD && ((t.flags[i] as number) & (F_LEGACY | F_CHECK | F_HUGE | F_SHORTCIRCUIT)) === 0 && walletOf(i).currencyKind === 'btc' && walletOf(i).deactivatedUs === null;
  const plainSend = (i: number): boolean => plain(i) && t.direction[i] === DIR_SEND;
  return {
    ctx,
    plan,
    find(salt, eligible) {
      const start = hash32(options.seed, hashString(salt), NS_ANOMALY) % n;
      for (let step = 0; step < n; step++) {
        const i = (start + step) % n;
        if (!used.has(i) && eligible(i)) {
          used.add(i);
          return i;
        }
      }
      return null;
    },
    plain,
    plainSend,
    bolt11Send: (i) => plainSend(i) && t.kind[i] === KIND_BOLT11 && ((t.flags[i] as number) & F_SWAP) === 0,
    walletOf,
    environmentOf,
    plant(kind, i, detail, malformed) {
      plan.byHandle.set(i, malformed === undefined ? { kind } : { kind, malformed });
      const core = baseCore(ctx, i);
      const wallet = walletOf(i);
      plan.planted.push({ kind, subjectKind: 'payment', subjectId: core.id, walletId: wallet.id, environmentId: environmentOf(wallet), paymentId: core.id, detail: detail(core) });
    },
  };
}

/** A payment anomaly planted on the first payment `eligible` accepts. */
const onPayment =
  (eligible: (p: Planting) => (i: number) => boolean, detail: (core: PaymentCore, p: Planting, i: number) => string) =>
  (p: Planting, kind: AnomalyKind): void => {
    const i = p.find(kind, eligible(p));
    if (i !== null) p.plant(kind, i, (core) => detail(core, p, i));
  };

const firstActiveBtcWallet = (p: Planting): SimWallet => p.ctx.world.wallets.find((w) => w.currencyKind === 'btc' && w.deactivatedUs === null) as SimWallet;

const PLANTERS: Partial<Record<AnomalyKind, (p: Planting, kind: AnomalyKind) => void>> = {
  missing_ledger_entry: onPayment((p) => p.plain, () => 'completed payment has no ledger entry'),
  capture_amount_mismatch: onPayment((p) => p.plainSend, (core) => `captured ${core.captureAmount + 1_000n} msats, payment total is ${core.captureAmount}`),
  network_fee_above_max: onPayment((p) => p.bolt11Send, (core) => `network fee ${(core.maxFee ?? 0n) + 2_500n} msats above max_fee ${core.maxFee ?? 0n}`),
  processing_fee_mismatch: onPayment(
    (p) => (j) => {
      if (!p.plainSend(j)) return false;
      const core = baseCore(p.ctx, j);
      return core.feeSettled !== null && core.breakdownVisible;
    },
    (core) => `settled processing fee ${(core.feeSettled ?? 0n) + 7n} ≠ round(${core.principal} × ${core.feeBps} / 10000) = ${core.feeSettled ?? 0n}`,
  ),
  currency_mismatch: onPayment((p) => p.plain, (_core, p, i) => `payment currency usd in btc wallet ${p.walletOf(i).id}`),
  malformed_amount: (p, kind) => {
    for (const value of MALFORMED_VALUES) {
      const i = p.find(`${kind}:${String(value)}`, p.plain);
      if (i !== null) p.plant(kind, i, () => `data.amount.amount is ${JSON.stringify(value)}`, value);
    }
  },
  missing_fee: onPayment((p) => p.bolt11Send, () => 'completed send without data.fees, fee_msats or payment_breakdown (its fee is unknown)'),
  orphan_ledger_entry: (p, kind) => {
    const { options, world } = p.ctx;
    const wallet = firstActiveBtcWallet(p);
    const holdId = uuidOf(options.seed, NS_ANOMALY, 1);
    const paymentId = uuidOf(options.seed, NS_ANOMALY, 2);
    const effectiveUs = world.fromUs + Math.floor((world.toUs - world.fromUs) / 2) + 3 * US_PER_HOUR;
    p.plan.orphans.push({ walletIndex: wallet.index, holdId, paymentId, amount: 4_200_000n, effectiveUs });
    p.plan.planted.push({ kind, subjectKind: 'ledger_entry', subjectId: holdId, walletId: wallet.id, environmentId: p.environmentOf(wallet), paymentId, detail: `captured event for payment ${paymentId}, which does not exist` });
  },
  balance_mismatch: (p, kind) => {
    const wallet = firstActiveBtcWallet(p);
    p.plan.balanceDelta.set(wallet.index, 12_345_000n);
    p.plan.planted.push({ kind, subjectKind: 'wallet', subjectId: wallet.id, walletId: wallet.id, environmentId: p.environmentOf(wallet), paymentId: null, detail: 'reported balance is 12345000 msats above the ledger sum' });
  },
  summary_count_off_by_one: (p, kind) => {
    const t = p.ctx.timeline;
    const i = p.find(kind, p.plain);
    if (i === null) return;
    const wallet = p.walletOf(i);
    const bucketKey = bucketKeyOf(wallet.id, t.direction[i] as number, t.status[i] as number, wallet.currency, t.kind[i] as number);
    p.plan.summaryBump = { handle: i, walletIndex: wallet.index, bucketKey };
    p.plan.planted.push({ kind, subjectKind: 'summary_bucket', subjectId: bucketKey, walletId: wallet.id, environmentId: p.environmentOf(wallet), paymentId: null, detail: 'bucket total_count is one more than the listed payments' });
  },
};

/** The core of a generated payment with its planted anomaly (if any) applied. */
export function applyAnomaly(core: PaymentCore, entry: { kind: AnomalyKind; malformed?: unknown } | undefined): PaymentCore {
  if (!entry) return core;
  core.anomaly = entry.kind;
  switch (entry.kind) {
    case 'capture_amount_mismatch':
      core.captureAmount += 1_000n;
      break;
    case 'network_fee_above_max':
      core.networkFee = (core.maxFee ?? 0n) + 2_500n;
      core.captureAmount = core.principal + core.networkFee + (core.feeSettled ?? 0n);
      break;
    case 'processing_fee_mismatch':
      core.feeSettled = (core.feeSettled ?? 0n) + 7n;
      core.captureAmount = core.principal + core.networkFee + core.feeSettled;
      break;
    case 'currency_mismatch':
      core.currency = 'usd';
      break;
    case 'malformed_amount':
      core.malformedAmount = entry.malformed;
      break;
    case 'missing_fee':
      core.feeHidden = true;
      core.breakdownVisible = false;
      break;
    default:
      break;
  }
  return core;
}
