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

export function planAnomalies(ctx: GenContext): AnomalyPlan {
  const plan = emptyPlan();
  const { options, world, timeline: t } = ctx;
  const n = t.count;
  if (options.anomalies.length === 0) return plan;
  planBillAnomalies(ctx, plan);
  if (n === 0) return plan;
  const used = new Set<number>();
  const walletOf = (i: number): SimWallet => world.wallets[t.wallet[i] as number] as SimWallet;

  const find = (salt: string, eligible: (i: number) => boolean): number | null => {
    const start = hash32(options.seed, hashString(salt), NS_ANOMALY) % n;
    for (let step = 0; step < n; step++) {
      const i = (start + step) % n;
      if (!used.has(i) && eligible(i)) {
        used.add(i);
        return i;
      }
    }
    return null;
  };
  const plain = (i: number): boolean =>
    t.status[i] === ST_COMPLETED && t.category[i] === CAT_STANDARD && ((t.flags[i] as number) & (F_LEGACY | F_CHECK | F_HUGE | F_SHORTCIRCUIT)) === 0 && walletOf(i).currencyKind === 'btc' && walletOf(i).deactivatedUs === null;
  const plainSend = (i: number): boolean => plain(i) && t.direction[i] === DIR_SEND;

  const record = (kind: AnomalyKind, i: number, detail: string): void => {
    const core = baseCore(ctx, i);
    const wallet = walletOf(i);
    plan.planted.push({ kind, subjectKind: 'payment', subjectId: core.id, walletId: wallet.id, environmentId: (world.environments[wallet.environmentIndex] as { id: string }).id, paymentId: core.id, detail });
  };

  for (const kind of options.anomalies) {
    switch (kind) {
      case 'missing_ledger_entry': {
        const i = find(kind, plain);
        if (i !== null) {
          plan.byHandle.set(i, { kind });
          record(kind, i, 'completed payment has no ledger entry');
        }
        break;
      }
      case 'capture_amount_mismatch': {
        const i = find(kind, plainSend);
        if (i !== null) {
          plan.byHandle.set(i, { kind });
          const core = baseCore(ctx, i);
          record(kind, i, `captured ${core.captureAmount + 1_000n} msats, payment total is ${core.captureAmount}`);
        }
        break;
      }
      case 'network_fee_above_max': {
        const i = find(kind, (j) => plainSend(j) && t.kind[j] === KIND_BOLT11 && ((t.flags[j] as number) & F_SWAP) === 0);
        if (i !== null) {
          plan.byHandle.set(i, { kind });
          const core = baseCore(ctx, i);
          record(kind, i, `network fee ${(core.maxFee ?? 0n) + 2_500n} msats above max_fee ${core.maxFee ?? 0n}`);
        }
        break;
      }
      case 'processing_fee_mismatch': {
        const i = find(kind, (j) => {
          if (!plainSend(j)) return false;
          const core = baseCore(ctx, j);
          return core.feeSettled !== null && core.breakdownVisible;
        });
        if (i !== null) {
          plan.byHandle.set(i, { kind });
          const core = baseCore(ctx, i);
          record(kind, i, `settled processing fee ${(core.feeSettled ?? 0n) + 7n} ≠ round(${core.principal} × ${core.feeBps} / 10000) = ${core.feeSettled ?? 0n}`);
        }
        break;
      }
      case 'currency_mismatch': {
        const i = find(kind, plain);
        if (i !== null) {
          plan.byHandle.set(i, { kind });
          record(kind, i, `payment currency usd in btc wallet ${walletOf(i).id}`);
        }
        break;
      }
      case 'malformed_amount': {
        for (const value of MALFORMED_VALUES) {
          const i = find(`${kind}:${String(value)}`, plain);
          if (i === null) continue;
          plan.byHandle.set(i, { kind, malformed: value });
          record(kind, i, `data.amount.amount is ${JSON.stringify(value)}`);
        }
        break;
      }
      case 'missing_fee': {
        const i = find(kind, (j) => plainSend(j) && t.kind[j] === KIND_BOLT11 && ((t.flags[j] as number) & F_SWAP) === 0);
        if (i !== null) {
          plan.byHandle.set(i, { kind });
          record(kind, i, 'completed send without data.fees, fee_msats or payment_breakdown (its fee is unknown)');
        }
        break;
      }
      case 'orphan_ledger_entry': {
        const wallet = world.wallets.find((w) => w.currencyKind === 'btc' && w.deactivatedUs === null) as SimWallet;
        const holdId = uuidOf(options.seed, NS_ANOMALY, 1);
        const paymentId = uuidOf(options.seed, NS_ANOMALY, 2);
        const effectiveUs = world.fromUs + Math.floor((world.toUs - world.fromUs) / 2) + 3 * US_PER_HOUR;
        plan.orphans.push({ walletIndex: wallet.index, holdId, paymentId, amount: 4_200_000n, effectiveUs });
        plan.planted.push({
          kind,
          subjectKind: 'ledger_entry',
          subjectId: holdId,
          walletId: wallet.id,
          environmentId: (world.environments[wallet.environmentIndex] as { id: string }).id,
          paymentId,
          detail: `captured event for payment ${paymentId}, which does not exist`,
        });
        break;
      }
      case 'balance_mismatch': {
        const wallet = world.wallets.find((w) => w.currencyKind === 'btc' && w.deactivatedUs === null) as SimWallet;
        plan.balanceDelta.set(wallet.index, 12_345_000n);
        plan.planted.push({ kind, subjectKind: 'wallet', subjectId: wallet.id, walletId: wallet.id, environmentId: (world.environments[wallet.environmentIndex] as { id: string }).id, paymentId: null, detail: 'reported balance is 12345000 msats above the ledger sum' });
        break;
      }
      case 'summary_count_off_by_one': {
        const i = find(kind, plain);
        if (i === null) break;
        const wallet = walletOf(i);
        const bucketKey = bucketKeyOf(wallet.id, t.direction[i] as number, t.status[i] as number, wallet.currency, t.kind[i] as number);
        plan.summaryBump = { handle: i, walletIndex: wallet.index, bucketKey };
        plan.planted.push({ kind, subjectKind: 'summary_bucket', subjectId: bucketKey, walletId: wallet.id, environmentId: (world.environments[wallet.environmentIndex] as { id: string }).id, paymentId: null, detail: 'bucket total_count is one more than the listed payments' });
        break;
      }
      default:
        // bill anomalies: planBillAnomalies above
        break;
    }
  }
  return plan;
}

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
