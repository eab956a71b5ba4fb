import { paymentIdOf, uuidOf } from '../core/ids.js';
import { hashString, Stream } from '../core/prng.js';
import { US_PER_HOUR, type Micros } from '../core/time.js';
import type { AnomalyKind } from './anomaly-kinds.js';
import {
  CAT_STANDARD,
  CAT_TREASURY,
  DIR_SEND,
  F_CHECK,
  F_HUGE,
  F_LEGACY,
  F_NO_BREAKDOWN,
  F_OVERPAID,
  F_REJECTED,
  F_SHORTCIRCUIT,
  F_SWAP,
  KIND_BIP21,
  KIND_ONCHAIN,
  KIND_TAPROOT,
  KIND_USDBATCH,
  ST_COMPLETED,
  ST_EXPIRED,
  ST_FAILED,
} from './codes.js';
import { centsToMsats, msatsToCentsCeil, msatsToCentsFloor, processingFeeOf, type Rate } from './fees.js';
import type { ResolvedDatasetOptions } from './options.js';
import { expirationSecondsOf, type Timeline } from './timeline.js';
import { transferPrincipal } from './transfer-pairs.js';
import type { SimWallet, World } from './world.js';

/**
 * Everything about one payment that accounting depends on, as numbers and bigints (no wire
 * shapes): amounts in the WALLET's base units, the BTC rail values of cross-currency payments,
 * fee terms vs the settled fee, ledger ids, error. render-payment.ts turns it into the wire
 * object, ledger.ts into ledger events. Generated payments derive it from (seed, i); written
 * payments (POST) build it from the request.
 */
export interface PaymentCore {
  handle: number;
  id: string;
  walletIndex: number;
  environmentIndex: number;
  direction: number;
  kind: number;
  status: number;
  category: number;
  flags: number;
  createdUs: Micros;
  updatedUs: Micros;
  /** the payment's currency as sent (the wallet's, unless the currency_mismatch anomaly changed it) */
  currency: string;
  /** sends: amount paid; receives: amount requested */
  principal: bigint;
  /** receives: principal actually credited (≠ principal when overpaid); sends: = principal */
  settledPrincipal: bigint;
  networkFee: bigint;
  /** network/provider fee ceiling of a send (processing fees do not count against it); null when none */
  maxFee: bigint | null;
  /** basis points of the processing fee terms; 0 = no processing fee applies */
  feeBps: number;
  /** processing fee terms fixed at approval (payment.processing_fee) */
  feeTerms: bigint | null;
  /** processing fee actually charged (payment_breakdown.processing_fee) */
  feeSettled: bigint | null;
  /** show payment_breakdown on the payment record */
  breakdownVisible: boolean;
  /** bolt11/bip21 sends and receives may settle on chain: amounts are whole sats then */
  railOnchain: boolean;
  /** cross-currency (USD wallet over a BTC rail): BTC values in msats and the quote */
  rail: { amountMsats: bigint; feeMsats: bigint; maxFeeMsats: bigint; rate: Rate; quoteId: string; quotedUs: Micros } | null;
  /** usdbatch transfers in cents */
  transfers: bigint[];
  holdId: string | null;
  creditId: string | null;
  /** ledger: amount reserved by the hold of a send */
  holdAmount: bigint;
  /** ledger: amount debited by the capture of a completed send (principal + network + processing) */
  captureAmount: bigint;
  /** ledger: net amount credited to a completed receive */
  creditAmount: bigint;
  error: { type: string; code: string | null; detail: string; context?: Record<string, unknown> } | null;
  expirationSeconds: number | null;
  shortCircuitOffsetId: string | null;
  /** planted anomaly on this payment, if any */
  anomaly: AnomalyKind | null;
  /** malformed_amount: the value written in data.amount.amount instead of the real one */
  malformedAmount?: unknown;
  /** missing_fee: the record states no fee (the ledger still captures it) */
  feeHidden?: boolean;
  /** client-supplied text of written payments; generated ones derive it (payment-text.ts) */
  written?: WrittenText;
}

export interface WrittenText {
  memo: string | null;
  metadata: Record<string, string> | null;
  paymentRequest: string | null;
  address: string | null;
}

export interface GenContext {
  options: ResolvedDatasetOptions;
  world: World;
  timeline: Timeline;
}

export const NS_CORE = hashString('core');
export const NS_HOLD = hashString('hold');
export const NS_CREDIT = hashString('credit');
export const NS_QUOTE = hashString('quote');

const HUGE_AMOUNTS = [9_007_199_254_740_993n, 12_345_678_901_234_567n, 2_100_000_000_000_000n] as const;

/** log-uniform integer in [lo, hi] */
function logUniform(s: Stream, lo: number, hi: number): bigint {
  const v = Math.exp(Math.log(lo) + s.unit() * (Math.log(hi) - Math.log(lo)));
  return BigInt(Math.max(lo, Math.min(hi, Math.floor(v))));
}

/**
 * What a mid-sized business's customers and suppliers pay (the `business` profile): Lightning
 * $1–$2,000, on chain 20,000 sats–0.05 BTC, USD $5–$5,000 (batch payouts as in `stress`: $10–$20,000
 * a leg), stablecoin 10–5,000 USDT.
 */
function businessPrincipal(s: Stream, currencyKind: SimWallet['currencyKind'], onchainAmounts: boolean): bigint {
  if (currencyKind === 'asset') return logUniform(s, 10_000_000, 5_000_000_000);
  if (currencyKind === 'usd') return logUniform(s, 500, 500_000);
  if (onchainAmounts) return logUniform(s, 20_000, 5_000_000) * 1_000n;
  return logUniform(s, 1_000_000, 2_000_000_000);
}

/** USD per BTC drifts between ~$88k and ~$112k over the range; scale 2 → coefficient in 1/100 cent. */
export function rateAt(seed: number, key: number, at: Micros): Rate {
  const days = at / (24 * US_PER_HOUR);
  const drift = 1 + 0.12 * Math.sin(days / 9 + (seed % 7));
  const s = new Stream(seed, key, NS_QUOTE);
  const centsPerBtcTimes100 = Math.floor(10_000_000 * drift * 100 + s.int(0, 99_999));
  return { coefficient: BigInt(centsPerBtcTimes100), scale: 2 };
}

/** What every part of a payment's core is drawn from: its timeline entry, its wallet and its own random stream. */
interface Draw {
  ctx: GenContext;
  i: number;
  /** the payment's own stream: every part draws from it in the same order, so a seed gives the same payment */
  s: Stream;
  wallet: SimWallet;
  direction: number;
  kind: number;
  status: number;
  category: number;
  flags: number;
  createdUs: Micros;
  isSend: boolean;
  business: boolean;
  railOnchain: boolean;
  /** the amounts are an on-chain transaction's (whole sats) */
  onchainAmounts: boolean;
}

/**
 * The core of generated payment i. With `lite`, the id strings (payment, hold, credit, quote,
 * short-circuit) are left empty: balance sums over a million payments need amounts only.
 */
export function baseCore(ctx: GenContext, i: number, lite = false): PaymentCore {
  const d = drawOf(ctx, i);
  const { s, wallet, isSend, flags, status } = d;
  const seed = ctx.options.seed;
  const { principal, transfers } = principalOf(d);
  const fees = networkFeesOf(d, principal);
  const rail = fees.rate ? { amountMsats: fees.railPrincipal, feeMsats: fees.railFee, maxFeeMsats: fees.railMaxFee, rate: fees.rate, quoteId: lite ? '' : uuidOf(seed, NS_QUOTE, i), quotedUs: d.createdUs - s.int(1, 20) * 1_000_000 } : null;
  const { networkFee, maxFee } = fees;
  const { bps, settledPrincipal, feeTerms, feeSettled } = processingFeesOf(d, principal, fees.rate);
  const check = (flags & F_CHECK) !== 0;
  const holdId = isSend && !check && (flags & F_REJECTED) === 0 ? (lite ? '' : uuidOf(seed, NS_HOLD, i)) : null;
  const creditId = !isSend && status === ST_COMPLETED ? (lite ? '' : uuidOf(seed, NS_CREDIT, i)) : null;
  return {
    handle: i,
    id: lite ? '' : paymentIdOf(seed, i),
    walletIndex: ctx.timeline.wallet[i] as number,
    environmentIndex: wallet.environmentIndex,
    direction: d.direction,
    kind: d.kind,
    status,
    category: d.category,
    flags,
    createdUs: d.createdUs,
    updatedUs: ctx.timeline.updated[i] as number,
    currency: wallet.currency,
    principal,
    settledPrincipal,
    networkFee,
    maxFee,
    feeBps: bps,
    feeTerms,
    feeSettled,
    breakdownVisible: feeSettled !== null && (flags & F_NO_BREAKDOWN) === 0,
    railOnchain: d.railOnchain,
    rail,
    transfers,
    holdId,
    creditId,
    holdAmount: principal + (maxFee ?? 0n) + (feeTerms ?? 0n),
    captureAmount: principal + networkFee + (feeSettled ?? 0n),
    creditAmount: settledPrincipal,
    error: lite ? null : errorOf(s, isSend, d.kind, status, flags, maxFee),
    expirationSeconds: isSend ? null : expirationSecondsOf(d.kind),
    shortCircuitOffsetId: !lite && (flags & F_SHORTCIRCUIT) !== 0 ? paymentIdOf(seed, d.business && d.category === CAT_TREASURY ? i + 1 : (i * 7 + 3) % Math.max(1, ctx.timeline.count)) : null,
    anomaly: null,
  };
}

function drawOf(ctx: GenContext, i: number): Draw {
  const { options, world, timeline: t } = ctx;
  const s = new Stream(options.seed, i, NS_CORE);
  const kind = t.kind[i] as number;
  const flags = t.flags[i] as number;
  const direction = t.direction[i] as number;
  const railOnchain = kind === KIND_ONCHAIN || (kind === KIND_BIP21 && s.chance(0.3)) || (flags & F_SWAP) !== 0;
  return {
    ctx,
    i,
    s,
    wallet: world.wallets[t.wallet[i] as number] as SimWallet,
    direction,
    kind,
    status: t.status[i] as number,
    category: t.category[i] as number,
    flags,
    createdUs: t.created[i] as number,
    isSend: direction === DIR_SEND,
    business: options.profile === 'business',
    railOnchain,
    onchainAmounts: kind === KIND_ONCHAIN || (kind === KIND_BIP21 && railOnchain),
  };
}

/** The principal in the wallet's base units (and a USD batch's parts). */
function principalOf(d: Draw): { principal: bigint; transfers: bigint[] } {
  const { s, wallet, kind, category, flags, onchainAmounts } = d;
  if (d.business && category === CAT_TREASURY) {
    // both legs of a pair carry the send's principal (transfer-pairs.ts)
    return { principal: transferPrincipal(d.ctx.options.seed, d.isSend ? d.i : d.i - 1, wallet.currencyKind, kind), transfers: [] };
  }
  if (d.business && kind !== KIND_USDBATCH) return { principal: businessPrincipal(s, wallet.currencyKind, onchainAmounts), transfers: [] };
  if (wallet.currencyKind === 'asset') return { principal: logUniform(s, 1_000_000, 10_000_000_000), transfers: [] };
  if (wallet.currencyKind === 'usd') {
    if (kind === KIND_USDBATCH) {
      const parts = s.int(1, 3);
      const transfers = Array.from({ length: parts }, () => logUniform(s, 1_000, 2_000_000));
      return { principal: transfers.reduce((a, b) => a + b, 0n), transfers };
    }
    return { principal: logUniform(s, 100, category === CAT_STANDARD ? 2_000_000 : 20_000_000), transfers: [] };
  }
  if ((flags & F_HUGE) !== 0) {
    const huge = HUGE_AMOUNTS[s.int(0, HUGE_AMOUNTS.length - 1)] as bigint;
    return { principal: onchainAmounts ? (huge / 1_000n) * 1_000n : huge, transfers: [] }; // on chain: whole sats
  }
  if (onchainAmounts) return { principal: logUniform(s, 10_000, category === CAT_STANDARD ? 5_000_000 : 100_000_000) * 1_000n, transfers: [] };
  return { principal: logUniform(s, 1_000, category === CAT_STANDARD ? 5_000_000_000 : 50_000_000_000), transfers: [] };
}

interface NetworkFees {
  networkFee: bigint;
  maxFee: bigint | null;
  /** a USD payment's quote (its rail is Bitcoin), else null */
  rate: Rate | null;
  railPrincipal: bigint;
  railFee: bigint;
  railMaxFee: bigint;
}

/** The network fee and its ceiling (sends only; the payer pays on receives), on the rail and in the wallet's unit. */
function networkFeesOf(d: Draw, principal: bigint): NetworkFees {
  const { s, wallet, kind, flags, onchainAmounts } = d;
  const quoted = wallet.currencyKind === 'usd' && kind !== KIND_USDBATCH;
  const rate = quoted ? rateAt(d.ctx.options.seed, d.i, d.createdUs) : null;
  const railPrincipal = rate ? (onchainAmounts ? (centsToMsats(principal, rate) / 1_000n) * 1_000n : centsToMsats(principal, rate)) : principal;
  if (!d.isSend || wallet.currencyKind === 'asset' || kind === KIND_USDBATCH) return { networkFee: 0n, maxFee: null, rate, railPrincipal, railFee: 0n, railMaxFee: 0n };
  let railFee: bigint;
  let railMaxFee: bigint;
  if ((flags & F_SHORTCIRCUIT) !== 0) {
    railFee = 0n;
    railMaxFee = railPrincipal / 100n > 1_000n ? railPrincipal / 100n : 1_000n;
  } else if (onchainAmounts || (flags & F_SWAP) !== 0) {
    const vbytes = BigInt(s.int(140, 260));
    const satPerVbyte = BigInt(s.int(2, 40));
    railFee = vbytes * satPerVbyte * 1_000n;
    if ((flags & F_SWAP) !== 0) railFee += (railPrincipal * BigInt(s.int(10, 50))) / 10_000n; // routing + swap provider leg
    railMaxFee = ((railFee * BigInt(s.int(120, 300))) / 100n / 1_000n + 1n) * 1_000n;
  } else {
    railFee = (railPrincipal * BigInt(s.int(0, 40))) / 10_000n + BigInt(s.int(0, 1_000));
    // docs/service-facts.md#limits: default max_fee = greater of 1 % of the value or 1,000 msats; some clients set more
    const byDefault = railPrincipal / 100n > 1_000n ? railPrincipal / 100n : 1_000n;
    railMaxFee = s.chance(0.2) ? byDefault * 3n : byDefault;
    if (railFee > railMaxFee) railFee = railMaxFee;
  }
  return { networkFee: rate ? msatsToCentsCeil(railFee, rate) : railFee, maxFee: rate ? msatsToCentsCeil(railMaxFee, rate) : railMaxFee, rate, railPrincipal, railFee, railMaxFee };
}

/** The processing fee: its terms at approval, the settled amount on completion. */
function processingFeesOf(d: Draw, principal: bigint, rate: Rate | null): { bps: number; settledPrincipal: bigint; feeTerms: bigint | null; feeSettled: bigint | null } {
  const { s, wallet, kind, category, flags } = d;
  const check = (flags & F_CHECK) !== 0;
  const legacy = (flags & F_LEGACY) !== 0;
  const bps =
    wallet.processingFee && category === CAT_STANDARD && !legacy && !check && kind !== KIND_USDBATCH && kind !== KIND_TAPROOT
      ? d.isSend
        ? wallet.processingFee.sendBps
        : wallet.processingFee.receiveBps
      : 0;
  const wholeSats = wallet.currencyKind === 'btc' && d.onchainAmounts;
  let settledPrincipal = principal;
  if ((flags & F_OVERPAID) !== 0) {
    // The payer sent extra whole sats on chain; a USD wallet is credited what they are worth at the quote.
    const extraMsats = BigInt(s.int(1, 5_000)) * 1_000n;
    settledPrincipal = principal + (rate ? msatsToCentsFloor(extraMsats, rate) : extraMsats);
  }
  const feeTerms = bps > 0 ? processingFeeOf(principal, bps, wholeSats) : null;
  const feeSettled = bps > 0 && d.status === ST_COMPLETED ? processingFeeOf(settledPrincipal, bps, wholeSats) : null;
  return { bps, settledPrincipal, feeTerms, feeSettled };
}

function errorOf(s: Stream, isSend: boolean, kind: number, status: number, flags: number, maxFee: bigint | null): PaymentCore['error'] {
  if (status === ST_EXPIRED) return { type: 'expired', code: 'expired', detail: 'The invoice expired before it was paid' };
  if (status !== ST_FAILED) return null;
  if (!isSend) return { type: 'receive_failed', code: 'receive_failed', detail: 'Invoice generation failed upstream' };
  if ((flags & (F_CHECK | F_REJECTED)) !== 0) return { type: 'rejected', code: 'rejected', detail: 'Payment rejected by policy max_payment_size' };
  if (kind === KIND_ONCHAIN && s.chance(0.5)) {
    const maxFeeSats = Number((maxFee ?? 0n) / 1_000n);
    return {
      type: 'send_failed',
      code: 'broadcast_fee_above_max',
      detail: 'Estimated broadcast fee is above max_fee',
      context: { estimated_fee_sats: maxFeeSats + s.int(1, 5_000), max_fee_sats: maxFeeSats, target_blocks: 6 },
    };
  }
  const code = s.pick(['no_route', 'insufficient_funds', 'upstream_failure'] as const);
  return { type: 'send_failed', code, detail: code === 'no_route' ? 'No route found to the destination' : code === 'insufficient_funds' ? 'Insufficient funds in wallet' : 'Upstream node failure' };
}
