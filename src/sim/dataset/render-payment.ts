import { uuidOf } from '../core/ids.js';
import { hashString, Stream } from '../core/prng.js';
import { formatMicros, US_PER_SECOND } from '../core/time.js';
import {
  CATEGORY_NAMES,
  DIR_SEND,
  DIRECTION_NAMES,
  F_LEGACY,
  F_SHORTCIRCUIT,
  F_SWAP,
  KIND_BIP21,
  KIND_BOLT11,
  KIND_NAMES,
  KIND_ONCHAIN,
  KIND_TAPROOT,
  KIND_USDBATCH,
  ST_COMPLETED,
  ST_GENERATING,
  ST_SENDING,
  ST_SETTLING_V2,
  STATUS_NAMES,
} from './codes.js';
import { centsToMsats, formatRate } from './fees.js';
import type { GenContext, PaymentCore } from './payment-core.js';
import { textOf, type PaymentText } from './payment-text.js';
import type { SimWallet } from './world.js';

/**
 * PaymentCore → the wire object of OpenAPI `Payment` (SendPayment / ReceivePayment and the
 * per-type `data` of PaymentSendType / PaymentReceiveType). Amounts are numbers when safe and
 * bigints beyond 2^53 (`wireInt`); the serializer writes both as exact JSON integers.
 */

type Json = Record<string, unknown>;

const NS_EXTRA = hashString('unknown-fields');
const NS_BATCH = hashString('usd-batch');

export function unitOfCurrency(currency: string): string {
  if (currency === 'btc') return 'msats';
  if (currency === 'usd') return 'cents';
  return 'base units';
}

/**
 * A wire integer: a number when it is safe, else the exact bigint (the serializer writes both as
 * JSON integers). Keeping safe values as numbers lets most responses take JSON.stringify's fast path.
 */
export function wireInt(value: bigint): number | bigint {
  return value <= MAX_SAFE && value >= -MAX_SAFE ? Number(value) : value;
}

const MAX_SAFE = BigInt(Number.MAX_SAFE_INTEGER);

export function amountOf(currency: string, amount: bigint): Json {
  return { currency, amount: wireInt(amount), unit: unitOfCurrency(currency) };
}

function sats(msats: bigint): number | bigint {
  return wireInt(msats / 1_000n);
}

export function renderPayment(ctx: GenContext, core: PaymentCore): Json {
  const wallet = ctx.world.wallets[core.walletIndex] as SimWallet;
  const environment = ctx.world.environments[core.environmentIndex];
  const text = textOf(ctx, core);
  const isSend = core.direction === DIR_SEND;
  const legacy = (core.flags & F_LEGACY) !== 0;

  const out: Json = {
    id: core.id,
    wallet_id: wallet.id,
    organization_id: ctx.world.organizationId,
    environment_id: environment?.id,
    direction: DIRECTION_NAMES[core.direction],
    type: KIND_NAMES[core.kind],
    status: STATUS_NAMES[core.status],
  };
  if (!legacy) out['payment_category'] = CATEGORY_NAMES[core.category];
  if (isSend && !legacy) out['route'] = (core.flags & F_SWAP) !== 0 ? 'swap' : 'direct';
  out['metadata'] = text.metadata;
  out['created_at'] = formatMicros(core.createdUs);
  out['updated_at'] = formatMicros(core.updatedUs);
  // Old records spell the currency in capitals (docs/service-facts.md#amounts-and-fees).
  out['currency'] = legacy ? 'BTC' : core.currency;
  if (core.error) out['error'] = { type: core.error.type, code: core.error.code, detail: core.error.detail, ...(core.error.context ? { context: core.error.context } : {}) };
  out['data'] = legacy ? legacyData(core, text) : isSend ? sendData(ctx, core, text, wallet) : receiveData(ctx, core, text, wallet);
  if (!legacy) {
    out['exchanges'] = exchangesOf(core);
    if (core.feeTerms !== null) out['processing_fee'] = { basis_points: core.feeBps, amount: amountOf(core.currency, core.feeTerms) };
    if (core.breakdownVisible && core.feeSettled !== null) {
      out['payment_breakdown'] = {
        principal: amountOf(core.currency, core.settledPrincipal),
        network_fee: amountOf(core.currency, core.networkFee),
        processing_fee: amountOf(core.currency, core.feeSettled),
      };
    }
  }
  if (!isSend && !legacy) {
    out['requested_amount'] = amountOf(core.currency, core.principal);
    out['frozen'] = [];
    if ((core.kind === KIND_BIP21 || core.kind === KIND_BOLT11) && core.status !== ST_GENERATING) out['bip21_uri'] = bip21Uri(core, text);
  }
  if (ctx.options.unknownFields) addUnknownFields(ctx, core, out);
  return out;
}

function bip21Uri(core: PaymentCore, text: PaymentText): string {
  if (core.kind === KIND_BOLT11) return `lightning:${text.paymentRequest ?? ''}`;
  const btc = Number(core.rail?.amountMsats ?? core.principal) / 1e11;
  return `bitcoin:${text.address ?? ''}?amount=${btc.toFixed(8)}&lightning=${text.paymentRequest ?? ''}`;
}

function exchangesOf(core: PaymentCore): Json[] {
  if (!core.rail) return [];
  const ledgerId = core.direction === DIR_SEND ? core.holdId : core.creditId;
  if (ledgerId === null || core.status !== ST_COMPLETED) return [];
  const quote = { type: 'market_rate', detail: marketQuoteOf(core) };
  if (core.direction === DIR_SEND) {
    return [{ ledger_id: ledgerId, quote_id: core.rail.quoteId, quote, from_amount: amountOf(core.currency, core.captureAmount), to_amount: amountOf('btc', core.rail.amountMsats + core.rail.feeMsats) }];
  }
  return [{ ledger_id: ledgerId, quote_id: core.rail.quoteId, quote, from_amount: amountOf('btc', receivedMsats(core)), to_amount: amountOf(core.currency, core.creditAmount + (core.feeSettled ?? 0n)) }];
}

function marketQuoteOf(core: PaymentCore): Json | null {
  if (!core.rail) return null;
  const send = core.direction === DIR_SEND;
  return {
    from: send ? core.currency : 'btc',
    to: send ? 'btc' : core.currency,
    rate: formatRate(core.rail.rate),
    quoted_at: formatMicros(core.rail.quotedUs),
    expires_at: formatMicros(core.rail.quotedUs + 60 * US_PER_SECOND),
  };
}

/** BTC values of the deprecated msat/sat fields: the rail values for cross-currency payments. */
function railMsats(core: PaymentCore): { amount: bigint; fee: bigint; maxFee: bigint } {
  if (core.rail) {
    const processing = core.feeSettled !== null ? centsToMsats(core.feeSettled, core.rail.rate) : 0n;
    return { amount: core.rail.amountMsats, fee: core.rail.feeMsats + processing, maxFee: core.rail.maxFeeMsats };
  }
  return { amount: core.principal, fee: core.networkFee + (core.feeSettled ?? 0n), maxFee: core.maxFee ?? 0n };
}

function totalFees(core: PaymentCore): Json | null {
  if (core.status !== ST_COMPLETED || core.feeHidden === true) return null;
  return amountOf(core.currency, core.networkFee + (core.feeSettled ?? 0n));
}

function principalAmount(core: PaymentCore): Json {
  const amount = amountOf(core.currency, core.principal);
  if (core.malformedAmount !== undefined) amount['amount'] = core.malformedAmount;
  return amount;
}

function sendData(ctx: GenContext, core: PaymentCore, text: PaymentText, wallet: SimWallet): Json {
  const btc = railMsats(core);
  const completed = core.status === ST_COMPLETED;
  const outflows = outflowsOf(ctx, core, text);
  switch (core.kind) {
    case KIND_ONCHAIN:
      return {
        address: text.address,
        amount: principalAmount(core),
        max_fee: amountOf(core.currency, core.maxFee ?? 0n),
        fees: totalFees(core),
        amount_sats: sats(btc.amount),
        max_fee_sats: sats(btc.maxFee),
        fee_sats: completed ? sats(btc.fee) : null,
        label: text.memo,
        outflows,
        market_quote: marketQuoteOf(core),
      };
    case KIND_TAPROOT:
      return {
        payment_request: text.paymentRequest ?? '',
        max_fee: null,
        // Optional in the OpenAPI, but a client cannot tell "no fee" from "not reported": like every
        // other completed send, state what was charged (network/provider + processing; 0 here).
        fees: totalFees(core),
        asset: wallet.currency.slice('asset:'.length),
        amount: principalAmount(core),
        peer_quote: null,
        memo: text.memo,
        market_quote: null,
        outflows,
      };
    case KIND_USDBATCH:
      return usdBatchData(ctx, core, 'DEBIT');
    default: {
      const data: Json = {
        payment_request: text.paymentRequest,
        ...(core.kind === KIND_BIP21 ? { address: text.address } : {}),
        amount: principalAmount(core),
        max_fee: amountOf(core.currency, core.maxFee ?? 0n),
        fees: totalFees(core),
        amount_msats: wireInt(btc.amount),
        max_fee_msats: wireInt(btc.maxFee),
        fee_msats: completed && core.feeHidden !== true ? wireInt(btc.fee) : null,
      };
      if (core.kind === KIND_BIP21) data['description'] = text.memo;
      else data['memo'] = text.memo;
      data['market_quote'] = marketQuoteOf(core);
      data['outflows'] = outflows;
      return data;
    }
  }
}

function lightningReceipt(text: PaymentText, ledgerId: string | null): Json {
  return { preimage: text.rail.preimage, payment_hash: text.rail.paymentHash, ledger_id: ledgerId };
}

function onchainReceipt(core: PaymentCore, text: PaymentText, amountSats: number | bigint, ledgerId: string | null, confirmations: number): Json {
  const pending = core.status !== ST_COMPLETED;
  return {
    required_confirmations_num: confirmations,
    tx_id: text.rail.txId,
    ledger_id: ledgerId,
    height_mined_at: pending ? null : text.rail.blockHeight,
    amount_sats: amountSats,
    mined_at: pending ? null : Math.floor(core.updatedUs / US_PER_SECOND),
    is_pending: pending,
  };
}

function outflowsOf(ctx: GenContext, core: PaymentCore, text: PaymentText): Json[] {
  const btc = railMsats(core);
  const done = core.status === ST_COMPLETED;
  const open = core.status === ST_SENDING || core.status === ST_SETTLING_V2;
  if (!done && !open) return [];
  if ((core.flags & F_SHORTCIRCUIT) !== 0) {
    return [{ type: 'shortcircuit', data: { amount_msats: wireInt(btc.amount), offset_payment_id: core.shortCircuitOffsetId, ledger_id: core.holdId } }];
  }
  if ((core.flags & F_SWAP) !== 0) {
    // docs/service-facts.md#swap-progress: on-chain → Lightning pays an invoice (bolt11 send), Lightning → on-chain pays an address.
    const steps: Array<[string, 'onchain' | 'lightning']> =
      core.kind === KIND_BOLT11
        ? [['source_submitted', 'onchain'], ['target_paid', 'lightning'], ['source_claimed', 'onchain']]
        : [['source_payment_submitted', 'lightning'], ['target_submitted', 'onchain'], ['target_claimed', 'onchain']];
    const reached = done ? steps : steps.slice(0, 1);
    const s = new Stream(ctx.options.seed, core.handle, NS_EXTRA);
    return reached.map(([step, rail], k) => {
      const ledgerId = k === 0 ? core.holdId : null;
      const receipt =
        rail === 'lightning'
          ? { type: 'lightning', data: lightningReceipt(text, ledgerId) }
          : { type: 'onchain', data: { ...onchainReceipt(core, text, sats(btc.amount), ledgerId, 1), tx_id: k === 0 ? text.rail.txId : s.hex(32) } };
      return { type: 'swap', data: { step, rail, receipt } };
    });
  }
  if (core.kind === KIND_ONCHAIN || (core.kind === KIND_BIP21 && core.railOnchain)) {
    return [{ type: 'onchain', data: onchainReceipt(core, text, sats(btc.amount), core.holdId, 1) }];
  }
  return done ? [{ type: 'lightning', data: lightningReceipt(text, core.holdId) }] : [];
}

/**
 * What arrived over the rail for a completed receive: the settled principal plus the payer-funded
 * processing fee, in msats. A cross-currency receive converts its cents at the quote the way its
 * rail principal was (rounded down, to whole sats on chain), so a receive without fee or
 * overpayment arrives as exactly its rail principal.
 */
function receivedMsats(core: PaymentCore): bigint {
  const gross = core.settledPrincipal + (core.feeSettled ?? 0n);
  if (!core.rail) return gross;
  const msats = centsToMsats(gross, core.rail.rate);
  return core.kind === KIND_ONCHAIN || (core.kind === KIND_BIP21 && core.railOnchain) ? (msats / 1_000n) * 1_000n : msats;
}

function receiptsOf(core: PaymentCore, text: PaymentText): Json[] {
  if (core.status !== ST_COMPLETED) return [];
  if (core.kind === KIND_ONCHAIN || (core.kind === KIND_BIP21 && core.railOnchain)) {
    // docs/service-facts.md#amounts-and-fees: on-chain receipts carry WHOLE SATS; the payer paid the processing fee on top.
    return [{ type: 'onchain', data: onchainReceipt(core, text, sats(receivedMsats(core)), core.creditId, 3) }];
  }
  return [{ type: 'lightning', data: lightningReceipt(text, core.creditId) }];
}

function receiveData(ctx: GenContext, core: PaymentCore, text: PaymentText, wallet: SimWallet): Json {
  const generated = core.status !== ST_GENERATING;
  const fee = core.feeSettled ?? core.feeTerms;
  const fees = fee !== null ? amountOf(core.currency, fee) : null;
  const btcAmount = core.rail ? core.rail.amountMsats : core.principal;
  switch (core.kind) {
    case KIND_ONCHAIN:
      return {
        address: generated ? text.address : null,
        amount: principalAmount(core),
        fees,
        amount_sats: sats(btcAmount),
        label: text.memo,
        expiration: core.expirationSeconds,
        receipts: receiptsOf(core, text),
        market_quote: marketQuoteOf(core),
      };
    case KIND_BIP21:
      return {
        payment_request: generated ? text.paymentRequest : null,
        address: generated ? text.address : null,
        amount: principalAmount(core),
        fees,
        amount_msats: wireInt(btcAmount),
        receipts: receiptsOf(core, text),
        expiration: core.expirationSeconds,
        market_quote: marketQuoteOf(core),
      };
    case KIND_TAPROOT:
      return {
        payment_request: generated ? text.paymentRequest : null,
        amount: principalAmount(core),
        fees: null,
        asset: wallet.currency.slice('asset:'.length),
        quote: null,
        btc_amount: null,
        asset_amount: { asset: wallet.currency.slice('asset:'.length), amount: wireInt(core.principal) },
        memo: text.memo,
        expiration: core.expirationSeconds,
        market_quote: null,
        receipts: receiptsOf(core, text),
      };
    case KIND_USDBATCH:
      return usdBatchData(ctx, core, 'CREDIT');
    default:
      return {
        payment_request: generated ? text.paymentRequest : null,
        amount: principalAmount(core),
        fees,
        amount_msats: wireInt(btcAmount),
        memo: text.memo,
        expiration: core.expirationSeconds,
        market_quote: marketQuoteOf(core),
        receipts: receiptsOf(core, text),
      };
  }
}

function usdBatchData(ctx: GenContext, core: PaymentCore, direction: 'DEBIT' | 'CREDIT'): Json {
  const s = new Stream(ctx.options.seed, core.handle, NS_BATCH);
  const wallet = ctx.world.wallets[core.walletIndex] as SimWallet;
  const loc = wallet.lineOfCreditIndex === null ? null : ctx.world.linesOfCredit[wallet.lineOfCreditIndex];
  const key = uuidOf(ctx.options.seed, NS_BATCH, core.handle);
  const status = core.status === ST_COMPLETED ? 'SUCCEEDED' : core.status === ST_SENDING || core.status === ST_SETTLING_V2 ? 'PROCESSING' : core.status === ST_GENERATING ? 'PENDING' : 'FAILED';
  const transfers = core.transfers.map((amount, k) => ({
    id: uuidOf(ctx.options.seed, NS_BATCH, core.handle, k + 1),
    amount: wireInt(amount),
    identification_number: `TRN${s.int(100_000_000, 999_999_999)}`,
    loc_id: loc?.id ?? uuidOf(ctx.options.seed, NS_BATCH, core.handle, 99),
    bill_id: uuidOf(ctx.options.seed, NS_BATCH, core.handle, 50 + k),
    status,
    provider_updated_at: formatMicros(core.updatedUs),
    error: status === 'FAILED' ? 'R01 insufficient funds' : null,
    purpose: direction === 'DEBIT' ? 'payout' : 'collection',
  }));
  return {
    idempotency_key: key,
    direction,
    payments: transfers,
    receipts: core.status === ST_COMPLETED ? [{ type: 'Ach', data: { idempotency_key: key, transfers } }] : [],
    market_quote: null,
  };
}

function legacyData(core: PaymentCore, text: PaymentText): Json {
  const isSend = core.direction === DIR_SEND;
  const completed = core.status === ST_COMPLETED;
  if (core.kind === KIND_ONCHAIN) {
    return isSend
      ? { address: text.address, amount_sats: sats(core.principal), max_fee_sats: sats(core.maxFee ?? 0n), fee_sats: completed ? sats(core.networkFee) : null, label: text.memo, outflows: completed ? [{ type: 'onchain', data: onchainReceipt(core, text, sats(core.principal), core.holdId, 1) }] : [] }
      : { address: text.address, amount_sats: sats(core.principal), label: text.memo, receipts: receiptsOf(core, text) };
  }
  return isSend
    ? { payment_request: text.paymentRequest, amount_msats: wireInt(core.principal), max_fee_msats: wireInt(core.maxFee ?? 0n), fee_msats: completed ? wireInt(core.networkFee) : null, memo: text.memo, outflows: completed ? [{ type: 'lightning', data: lightningReceipt(text, core.holdId) }] : [] }
    : { payment_request: text.paymentRequest, amount_msats: wireInt(core.principal), memo: text.memo, receipts: receiptsOf(core, text) };
}

function addUnknownFields(ctx: GenContext, core: PaymentCore, out: Json): void {
  const s = new Stream(ctx.options.seed, core.handle, NS_EXTRA + 1);
  if (!s.chance(0.15) && core.status !== ST_SETTLING_V2) return;
  out['settlement_batch_id'] = uuidOf(ctx.options.seed, NS_EXTRA, core.handle);
  out['risk'] = { score_bps: s.int(0, 10_000), model: 'v2' };
  const data = out['data'] as Json;
  data['routing_hints_v2'] = [];
}
