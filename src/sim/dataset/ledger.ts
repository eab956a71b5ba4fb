import { uuidOf } from '../core/ids.js';
import { hash32, hashString } from '../core/prng.js';
import { formatMicros, US_PER_DAY, US_PER_HOUR, type Micros } from '../core/time.js';
import type { AnomalyPlan } from './anomaly-plan.js';
import type { DatasetProfile } from './options.js';
import { DIR_SEND, F_CHECK, F_LEGACY, F_REJECTED, F_SHORTCIRCUIT, F_SWAP, KIND_NAMES, ST_COMPLETED, ST_FAILED, ST_SENDING, ST_SETTLING_V2 } from './codes.js';
import type { PaymentCore } from './payment-core.js';
import { amountOf, wireInt } from './render-payment.js';
import type { PaymentStore } from './store.js';
import type { SimWallet, World } from './world.js';

/**
 * Wallet ledgers (OpenAPI `LedgerEvent`), consistent with the payments:
 *   send      held (principal + max_fee + processing terms) → captured (principal + network fee +
 *             processing fee) on completion, or → released on failure; open sends stay held.
 *   receive   credited (net principal) on completion.
 *   wallet    deposited / withdrawn (funding, not payments).
 * An entry is addressed by a REF: ≥ 0 → payment event (handle × 8 + event type); < 0 → the
 * wallet's extra entry −(ref + 1) (deposits, withdrawals, planted orphans).
 */

export const EV_CREDITED = 0;
export const EV_CAPTURED = 1;
export const EV_HELD = 2;
export const EV_RELEASED = 3;
export const EV_DEPOSITED = 4;
export const EV_WITHDRAWN = 5;
export const EVENT_NAMES = ['credited', 'captured', 'held', 'released', 'deposited', 'withdrawn'] as const;

/** The hold is placed a few milliseconds after the payment is created. */
export const HOLD_LAG_US = 30_000;

export interface ExtraEntry {
  type: number;
  id: string;
  paymentId: string | null;
  effectiveUs: Micros;
  amount: bigint;
}

const NS_DEPOSIT = hashString('deposit');
const NS_WITHDRAW = hashString('withdraw');
const NS_MESSAGE = hashString('message-time');

/** Event types of a payment, in ledger order (cheap: attributes only, no amounts). */
export function eventTypesOf(store: PaymentStore, h: number, plan: AnomalyPlan): number[] {
  const flags = store.flags(h);
  const status = store.status(h);
  if ((flags & F_CHECK) !== 0) return [];
  if (h < store.generated && plan.byHandle.get(h)?.kind === 'missing_ledger_entry') return [];
  if (store.direction(h) === DIR_SEND) {
    if ((flags & F_REJECTED) !== 0) return [];
    if (status === ST_COMPLETED) return [EV_HELD, EV_CAPTURED];
    if (status === ST_FAILED) return [EV_HELD, EV_RELEASED];
    return [EV_HELD];
  }
  return status === ST_COMPLETED ? [EV_CREDITED] : [];
}

export function isOpenSend(status: number): boolean {
  return status === ST_SENDING || status === ST_SETTLING_V2;
}

export function paymentEventEffectiveUs(store: PaymentStore, h: number, type: number): Micros {
  return type === EV_HELD ? store.created(h) + HOLD_LAG_US : store.updated(h);
}

/** Deposits and withdrawals of a wallet: funding at creation, weekly top-ups, monthly withdrawals. */
export function walletExtras(world: World, wallet: SimWallet, scale: number, plan: AnomalyPlan, profile: DatasetProfile = 'stress'): ExtraEntry[] {
  const seed = world.seed;
  // stress: funding no payment mix can exhaust; business: a treasury's size (at the demo's 5,000
  // payments over 12 wallets, ~9 BTC, ~$500,000 or ~170,000 USDT a wallet at the start)
  const unit = profile === 'business'
    ? (wallet.currencyKind === 'usd' ? 2n : wallet.currencyKind === 'asset' ? 20_000n : 100_000n)
    : (wallet.currencyKind === 'usd' ? 1n : wallet.currencyKind === 'asset' ? 10_000n : 100_000n);
  const initialUnits = profile === 'business' ? (wallet.currencyKind === 'usd' ? 60_000n : 20_000n) : 2_000_000n;
  const stepUnits = profile === 'business' ? 1_000n : 10_000n;
  const perWallet = BigInt(Math.ceil(scale / Math.max(1, world.wallets.length)) + 10);
  const extras: ExtraEntry[] = [
    { type: EV_DEPOSITED, id: uuidOf(seed, NS_DEPOSIT, wallet.index, 0), paymentId: null, effectiveUs: wallet.createdUs + US_PER_HOUR, amount: perWallet * initialUnits * unit },
  ];
  const end = wallet.deactivatedUs ?? world.toUs;
  let k = 1;
  for (let at = world.fromUs + 3 * US_PER_DAY + 7_000_000 * wallet.index; at < end; at += 7 * US_PER_DAY, k++) {
    extras.push({ type: EV_DEPOSITED, id: uuidOf(seed, NS_DEPOSIT, wallet.index, k), paymentId: null, effectiveUs: at, amount: BigInt(1 + (hash32(seed, wallet.index, k) % 50)) * stepUnits * unit });
  }
  let m = 0;
  for (let at = world.fromUs + 20 * US_PER_DAY + 11_000_000 * wallet.index; at < end; at += 30 * US_PER_DAY, m++) {
    extras.push({ type: EV_WITHDRAWN, id: uuidOf(seed, NS_WITHDRAW, wallet.index, m), paymentId: null, effectiveUs: at, amount: (BigInt(1 + (hash32(seed, wallet.index, 1000 + m) % 20)) * stepUnits * unit) / 2n });
  }
  for (const orphan of plan.orphans) {
    if (orphan.walletIndex === wallet.index) extras.push({ type: EV_CAPTURED, id: orphan.holdId, paymentId: orphan.paymentId, effectiveUs: orphan.effectiveUs, amount: orphan.amount });
  }
  return extras;
}

/** Ledger `message_time` (when the event was recorded): a few seconds after effective_time, not monotonic with it. */
export function messageLagUs(seed: number, ref: number): Micros {
  return (hash32(seed, Math.abs(ref), NS_MESSAGE) % 3_000) * 1_000;
}

type Json = Record<string, unknown>;

/** One ledger event as the wire shows it. */
export function renderPaymentEvent(core: PaymentCore, type: number, world: World): Json {
  const wallet = world.wallets[core.walletIndex] as SimWallet;
  const legacy = (core.flags & F_LEGACY) !== 0;
  // the ledger is in the WALLET's currency, even when the payment record says otherwise
  const currency = wallet.currency;
  const effective = type === EV_HELD ? core.createdUs + HOLD_LAG_US : core.updatedUs;
  const money = (amount: bigint): Json => (legacy ? { amount_msats: wireInt(amount), currency: 'BTC' } : { amount: amountOf(currency, amount) });
  switch (type) {
    case EV_HELD:
      return { type: 'held', hold_id: core.holdId, payment_id: core.id, ...money(core.holdAmount), effective_time: formatMicros(effective) };
    case EV_RELEASED:
      return { type: 'released', hold_id: core.holdId, payment_id: core.id, currency: legacy ? 'BTC' : currency, effective_time: formatMicros(effective) };
    case EV_CAPTURED:
      return { type: 'captured', hold_id: core.holdId, payment_id: core.id, ...money(core.captureAmount), ...breakdownOf(core, currency, legacy), effective_time: formatMicros(effective) };
    default:
      return { type: 'credited', credit_id: core.creditId, payment_id: core.id, ...money(core.creditAmount), ...breakdownOf(core, currency, legacy), effective_time: formatMicros(effective) };
  }
}

function breakdownOf(core: PaymentCore, currency: string, legacy: boolean): Json {
  // "Fee details when available. Omitted for historical entries." (OpenAPI CapturedEvent)
  if (legacy || core.feeSettled === null) return {};
  const route = (core.flags & F_SHORTCIRCUIT) !== 0 ? 'short_circuit' : (core.flags & F_SWAP) !== 0 ? 'swap' : 'direct';
  return {
    payment_breakdown: {
      principal: amountOf(currency, core.settledPrincipal),
      network_fee: amountOf(currency, core.networkFee),
      processing_fee: { amount: amountOf(currency, core.feeSettled), basis_points: core.feeBps, payment_classification: { kind: KIND_NAMES[core.kind], route } },
    },
  };
}

export function renderExtraEntry(entry: ExtraEntry, wallet: SimWallet): Json {
  const amount = amountOf(wallet.currency, entry.amount);
  const effective_time = formatMicros(entry.effectiveUs);
  if (entry.type === EV_DEPOSITED) return { type: 'deposited', deposit_id: entry.id, amount, effective_time };
  if (entry.type === EV_WITHDRAWN) return { type: 'withdrawn', withdraw_id: entry.id, amount, effective_time };
  return { type: 'captured', hold_id: entry.id, payment_id: entry.paymentId, amount, payment_breakdown: null, effective_time };
}
