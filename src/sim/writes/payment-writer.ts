import { hashString, Stream } from '../core/prng.js';
import { nowMicros } from '../core/time.js';
import { uuidOf } from '../core/ids.js';
import {
  CAT_STANDARD,
  CAT_TREASURY,
  DIR_RECEIVE,
  DIR_SEND,
  F_CHECK,
  F_SWAP,
  KIND_BIP21,
  KIND_BOLT11,
  KIND_NAMES,
  KIND_ONCHAIN,
  KIND_TAPROOT,
  ST_GENERATING,
  ST_SENDING,
} from '../dataset/codes.js';
import type { Dataset } from '../dataset/dataset.js';
import { centsToMsats, msatsToCentsCeil, processingFeeOf } from '../dataset/fees.js';
import { NS_HOLD, type PaymentCore } from '../dataset/payment-core.js';
import type { SimWallet } from '../dataset/world.js';
import { ApiError } from '../server/api-error.js';
import type { QuoteBook, QuoteRecord } from './quotes.js';
import { describeIssues, receiveRequestSchema, sendRequestSchema, type AmountInput, type ReceiveRequest, type SendRequest } from './request-schemas.js';
import { PaymentLifecycle, type LifecycleOptions } from './payment-lifecycle.js';
import type { Scheduler } from './scheduler.js';
import type { Webhooks } from './webhooks.js';

/**
 * Payments written through the API (create payment, treasury movement, policy check): validated
 * like the service does (400/404/409/422), built as a PaymentCore, answered 202, then handed to
 * their state machine (payment-lifecycle.ts).
 */

export type WriteMode = 'payment' | 'treasury' | 'check';

export interface PaymentWriterOptions extends LifecycleOptions {
  /** a freshly created payment reads as 404 for this long, ms (default 50) */
  readableAfterMs: number;
  treasuryEnabled: boolean;
}

const NS_WRITE = hashString('written-payment');

const invalid = (type: string, detail: string): ApiError => new ApiError(400, type, detail);
const required = (type: string, field: string): ApiError => new ApiError(400, type, `${field} is required`, { code: 'required', context: { field } });

/** Amount of a lightning invoice of our own format `lnbc<N><multiplier>1…`, in msats. */
export function invoiceAmountMsats(invoice: string): bigint | null {
  const m = /^ln(?:bc|tb|bcrt)(\d+)([munp]?)1/i.exec(invoice);
  if (!m) return null;
  const n = BigInt(m[1] as string);
  switch (m[2]) {
    case 'm':
      return n * 100_000_000n;
    case 'u':
      return n * 100_000n;
    case 'n':
      return n * 100n;
    case 'p':
      return n / 10n;
    default:
      return n * 100_000_000_000n;
  }
}

export class PaymentWriter {
  private readonly readableAt = new Map<number, number>();
  private readonly lifecycle: PaymentLifecycle;

  constructor(
    private readonly dataset: Dataset,
    private readonly quotes: QuoteBook,
    scheduler: Scheduler,
    webhooks: Webhooks,
    private readonly options: PaymentWriterOptions,
  ) {
    this.lifecycle = new PaymentLifecycle(dataset, scheduler, webhooks, options);
  }

  /** End the brief not-found window of every written payment now (time passes, as in `settle()`). */
  makeAllReadable(): void {
    this.readableAt.clear();
  }

  isReadable(handle: number): boolean {
    const at = this.readableAt.get(handle);
    return at === undefined || Date.now() >= at;
  }

  create(environmentIndex: number, body: unknown, mode: WriteMode): void {
    const isReceive = typeof body === 'object' && body !== null && 'payment_kind' in body;
    if (mode === 'check' && isReceive) throw new ApiError(422, 'invalid_data', 'a policy check takes a send request');
    const parsed = isReceive ? receiveRequestSchema.safeParse(body) : sendRequestSchema.safeParse(body);
    if (!parsed.success) throw new ApiError(422, 'invalid_data', describeIssues(parsed.error));
    const request = parsed.data;
    const ds = this.dataset;
    const w = ds.walletIndexOf(request.wallet_id);
    const wallet = w === null ? undefined : ds.wallets[w];
    if (!wallet || wallet.environmentIndex !== environmentIndex || (wallet.readableFromMs ?? 0) > Date.now()) {
      if (mode === 'treasury') throw new ApiError(404, 'wallet_not_found', 'Wallet or its line of credit not found', { context: { wallet_id: request.wallet_id } });
      throw invalid('invalid_payment', `Wallet ${request.wallet_id} not found in this environment`);
    }
    if (wallet.deactivatedUs !== null) throw invalid('invalid_payment', 'The wallet is inactive');
    if (ds.store.handleOf(request.id) !== null) throw new ApiError(409, 'payment_exists', 'A payment with this id exists', { context: { payment_id: request.id } });
    if (mode === 'treasury' && !this.options.treasuryEnabled) {
      throw new ApiError(400, 'feature_flag_disabled', 'Treasury movements are not enabled for this organization', { code: 'disabled', context: { feature: 'treasury_movements' } });
    }
    const core = isReceive ? this.receiveCore(environmentIndex, wallet, request as ReceiveRequest, mode) : this.sendCore(environmentIndex, wallet, request as SendRequest, mode);
    ds.store.addWritten(core);
    this.readableAt.set(core.handle, Date.now() + this.options.readableAfterMs);
    if (core.rail) this.quotes.consume(core.rail.quoteId, wallet.id);
    if (isReceive) this.lifecycle.startReceive(core.handle, (request as ReceiveRequest).amount === undefined && (request as ReceiveRequest).amount_msats === undefined && (request as ReceiveRequest).amount_sats === undefined);
    else this.lifecycle.startSend(core.handle, mode === 'check');
  }

  private quoteFor(environmentIndex: number, wallet: SimWallet, quoteId: string | undefined): QuoteRecord | null {
    if (wallet.currencyKind !== 'usd') return null;
    if (quoteId === undefined) throw required('quote_required', 'quote_id');
    const quote = this.quotes.get(quoteId);
    if (!quote || quote.environmentIndex !== environmentIndex) throw invalid('invalid_quote', 'The quote does not exist');
    if (quote.consumedUs !== null) throw invalid('invalid_quote', 'The quote was already used');
    if (quote.expiresUs < nowMicros()) throw invalid('invalid_quote', 'The quote expired');
    return quote;
  }

  private baseCore(environmentIndex: number, wallet: SimWallet, id: string, direction: number, kind: number, category: number, flags: number, status: number): PaymentCore {
    const handle = this.dataset.store.nextHandle();
    const now = nowMicros();
    return {
      handle,
      id: id.toLowerCase(),
      walletIndex: wallet.index,
      environmentIndex,
      direction,
      kind,
      status,
      category,
      flags,
      createdUs: now,
      updatedUs: now,
      currency: wallet.currency,
      principal: 0n,
      settledPrincipal: 0n,
      networkFee: 0n,
      maxFee: null,
      feeBps: 0,
      feeTerms: null,
      feeSettled: null,
      breakdownVisible: false,
      railOnchain: kind === KIND_ONCHAIN,
      rail: null,
      transfers: [],
      holdId: null,
      creditId: null,
      holdAmount: 0n,
      captureAmount: 0n,
      creditAmount: 0n,
      error: null,
      expirationSeconds: null,
      shortCircuitOffsetId: null,
      anomaly: null,
      written: { memo: null, metadata: null, paymentRequest: null, address: null },
    };
  }

  private positive(amount: bigint, field: string): bigint {
    if (amount <= 0n) throw new ApiError(400, 'invalid_amount', `${field} must be greater than 0`);
    return amount;
  }

  private btcAmount(input: AmountInput | undefined, field: string): bigint | null {
    if (input === undefined) return null;
    if (input.currency !== 'btc') throw invalid('invalid_currency', `${field} must be in btc`);
    return this.positive(input.amount, field);
  }

  private sendCore(environmentIndex: number, wallet: SimWallet, request: SendRequest, mode: WriteMode): PaymentCore {
    const kind = (KIND_NAMES as readonly string[]).indexOf(request.type);
    const swap = request.flow_preference === 'swap' || (typeof request.flow_preference === 'object' && request.flow_preference.type === 'swap');
    checkSendRequest(wallet, request, kind, swap, mode);
    const flags = (mode === 'check' ? F_CHECK : 0) | (swap ? F_SWAP : 0);
    const category = mode === 'treasury' ? CAT_TREASURY : CAT_STANDARD;
    const core = this.baseCore(environmentIndex, wallet, request.id, DIR_SEND, kind, category, flags, ST_SENDING);
    const s = new Stream(this.dataset.options.seed, core.handle, NS_WRITE);
    const quote = this.quoteFor(environmentIndex, wallet, 'quote_id' in request ? request.quote_id : undefined);
    const text = core.written as NonNullable<PaymentCore['written']>;
    text.metadata = request.metadata ?? null;
    const { railAmount, maxFeeInput } = this.railInput(request, wallet, core, text);
    if (railAmount === null) throw required('amount_required', 'data.amount');
    this.sendAmounts(core, { s, quote, kind, swap, railAmount, maxFeeInput });
    core.settledPrincipal = core.principal;
    const bps = wallet.processingFee && category === CAT_STANDARD && mode !== 'check' && kind !== KIND_TAPROOT ? wallet.processingFee.sendBps : 0;
    if (bps > 0) {
      core.feeBps = bps;
      core.feeTerms = processingFeeOf(core.principal, bps, wallet.currencyKind === 'btc' && core.railOnchain);
    }
    if (mode !== 'check') {
      core.holdId = uuidOf(this.dataset.options.seed, NS_HOLD, core.handle);
      core.holdAmount = core.principal + (core.maxFee ?? 0n) + (core.feeTerms ?? 0n);
    }
    return core;
  }

  /** The amount on the rail and the max fee a send asks for, by its type; records its texts on the core. */
  private railInput(request: SendRequest, wallet: SimWallet, core: PaymentCore, text: NonNullable<PaymentCore['written']>): { railAmount: bigint | null; maxFeeInput: bigint | null } {
    const maxFeeOf = (maxFee: AmountInput | undefined): bigint | null => (maxFee ? this.positive(maxFee.amount, 'data.max_fee') : null);
    switch (request.type) {
      case 'bolt11': {
        text.paymentRequest = request.data.payment_request;
        if (request.data.payment_request === '') throw required('missing_payment_request', 'data.payment_request');
        const railAmount = this.btcAmount(request.data.amount, 'data.amount') ?? (request.data.amount_msats !== undefined ? this.positive(request.data.amount_msats, 'data.amount_msats') : null) ?? invoiceAmountMsats(request.data.payment_request);
        return { railAmount, maxFeeInput: maxFeeOf(request.data.max_fee) ?? (request.data.max_fee_msats !== undefined ? this.positive(request.data.max_fee_msats, 'data.max_fee_msats') : null) };
      }
      case 'onchain': {
        text.address = request.data.address;
        text.memo = request.data.description ?? null;
        if (request.data.address === '') throw required('missing_address', 'data.address');
        const railAmount = this.btcAmount(request.data.amount, 'data.amount') ?? (request.data.amount_sats !== undefined ? this.positive(request.data.amount_sats, 'data.amount_sats') * 1_000n : null);
        if (railAmount !== null && railAmount % 1_000n !== 0n) throw new ApiError(400, 'invalid_amount', 'on-chain amounts are whole sats (multiples of 1000 msats)');
        core.railOnchain = true;
        return { railAmount, maxFeeInput: maxFeeOf(request.data.max_fee) };
      }
      case 'bip21': {
        text.address = request.data.address;
        text.paymentRequest = request.data.payment_request ?? null;
        text.memo = request.data.description ?? null;
        if (request.data.address === '') throw required('missing_address', 'data.address');
        const uriAmount = /[?&]amount=(\d+(?:\.\d{1,8})?)/.exec(request.data.address)?.[1];
        const railAmount = this.btcAmount(request.data.amount, 'data.amount') ?? (uriAmount !== undefined ? BigInt(Math.round(Number(uriAmount) * 1e8)) * 1_000n : null);
        core.railOnchain = text.paymentRequest === null && !request.data.address.includes('lightning=');
        return { railAmount, maxFeeInput: maxFeeOf(request.data.max_fee) };
      }
      case 'taprootasset':
        text.paymentRequest = request.data.payment_request;
        if (request.data.amount.currency !== wallet.currency) throw invalid('invalid_currency', 'data.amount must be in the wallet asset');
        return { railAmount: this.positive(request.data.amount.amount, 'data.amount'), maxFeeInput: null };
    }
  }

  /** A send's principal, network fee and max fee in the wallet's unit (a USD wallet's through its quote). */
  private sendAmounts(core: PaymentCore, input: { s: Stream; quote: QuoteRecord | null; kind: number; swap: boolean; railAmount: bigint; maxFeeInput: bigint | null }): void {
    const { s, quote, railAmount, maxFeeInput } = input;
    if (quote) {
      // USD wallet: the quote converts between the BTC amount on the rail and the wallet's cents.
      const cents = quote.from.currency === 'usd' ? quote.from.amount : quote.to === 'usd' ? quote.converted : msatsToCentsCeil(railAmount, quote.rate);
      const msats = quote.from.currency === 'btc' ? quote.from.amount : quote.to === 'btc' ? quote.converted : centsToMsats(cents, quote.rate);
      const railMax = maxFeeInput ?? (msats / 100n > 1_000n ? msats / 100n : 1_000n);
      const railFee = this.networkFeeMsats(s, msats, railMax, core.railOnchain || input.swap);
      core.principal = cents;
      core.rail = { amountMsats: msats, feeMsats: railFee, maxFeeMsats: railMax, rate: quote.rate, quoteId: quote.id, quotedUs: quote.requestedUs };
      core.networkFee = msatsToCentsCeil(railFee, quote.rate);
      core.maxFee = msatsToCentsCeil(railMax, quote.rate);
    } else if (input.kind === KIND_TAPROOT) {
      core.principal = railAmount;
      core.maxFee = null;
    } else {
      core.principal = railAmount;
      core.maxFee = maxFeeInput ?? (railAmount / 100n > 1_000n ? railAmount / 100n : 1_000n);
      core.networkFee = this.networkFeeMsats(s, railAmount, core.maxFee, core.railOnchain || input.swap);
    }
  }

  private networkFeeMsats(s: Stream, amount: bigint, maxFee: bigint, onchain: boolean): bigint {
    const fee = onchain ? BigInt(s.int(140, 260) * s.int(2, 20)) * 1_000n : (amount * BigInt(s.int(0, 30))) / 10_000n + BigInt(s.int(0, 1_000));
    return fee > maxFee ? maxFee : fee;
  }

  private receiveCore(environmentIndex: number, wallet: SimWallet, request: ReceiveRequest, mode: WriteMode): PaymentCore {
    const kind = (KIND_NAMES as readonly string[]).indexOf(request.payment_kind);
    if (kind === KIND_TAPROOT && wallet.currencyKind !== 'asset') throw invalid('invalid_payment', 'taprootasset receives need an asset wallet');
    if (kind !== KIND_TAPROOT && wallet.currencyKind === 'asset') throw invalid('invalid_payment', 'asset wallets receive taprootasset payments only');
    const category = mode === 'treasury' ? CAT_TREASURY : CAT_STANDARD;
    const core = this.baseCore(environmentIndex, wallet, request.id, DIR_RECEIVE, kind, category, 0, ST_GENERATING);
    const text = core.written as NonNullable<PaymentCore['written']>;
    text.metadata = request.metadata ?? null;
    text.memo = request.description ?? null;
    core.expirationSeconds = request.expiration ?? (kind === KIND_ONCHAIN ? 86_400 : 3_600);
    const quote = this.quoteFor(environmentIndex, wallet, request.quote_id);

    let amount: bigint | null = null;
    if (request.amount) {
      const expected = wallet.currencyKind === 'btc' ? 'btc' : wallet.currency;
      if (request.amount.currency !== expected) throw invalid('invalid_currency', `amount must be in ${expected}`);
      amount = this.positive(request.amount.amount, 'amount');
    } else if (request.amount_msats !== undefined) amount = this.positive(request.amount_msats, 'amount_msats');
    else if (request.amount_sats !== undefined) amount = this.positive(request.amount_sats, 'amount_sats') * 1_000n;

    if (amount === null) {
      // interface: any-amount receives are BTC only, bolt11 (or bip21), with the currency at top level
      if (wallet.currencyKind !== 'btc' || (kind !== KIND_BOLT11 && kind !== KIND_BIP21)) throw required('amount_required', 'amount');
      core.principal = 0n;
    } else if (quote) {
      const cents = quote.to === 'btc' ? quote.from.amount : amount;
      core.principal = cents;
      core.rail = { amountMsats: quote.to === 'btc' ? quote.converted : centsToMsats(cents, quote.rate), feeMsats: 0n, maxFeeMsats: 0n, rate: quote.rate, quoteId: quote.id, quotedUs: quote.requestedUs };
    } else {
      if (kind === KIND_ONCHAIN && amount % 1_000n !== 0n) throw new ApiError(400, 'invalid_amount', 'on-chain amounts are whole sats (multiples of 1000 msats)');
      core.principal = amount;
    }
    core.settledPrincipal = core.principal;
    const bps = wallet.processingFee && category === CAT_STANDARD && kind !== KIND_TAPROOT ? wallet.processingFee.receiveBps : 0;
    if (bps > 0) {
      core.feeBps = bps;
      if (amount !== null) core.feeTerms = processingFeeOf(core.principal, bps, wallet.currencyKind === 'btc' && kind === KIND_ONCHAIN);
    }
    return core;
  }
}

/** A send the service would refuse for its wallet, before anything is written. */
function checkSendRequest(wallet: SimWallet, request: SendRequest, kind: number, swap: boolean, mode: WriteMode): void {
  if (swap && (!wallet.swaps || mode === 'check')) throw invalid('invalid_payment', 'Swaps are only available to node-backed BTC wallets with swaps enabled, and not for policy checks');
  const expectedCurrency = kind === KIND_TAPROOT ? wallet.currency : wallet.currencyKind === 'asset' ? 'btc' : wallet.currency;
  if (request.currency !== expectedCurrency) throw invalid('invalid_currency', `currency must be ${expectedCurrency} for this wallet`);
  if (kind === KIND_TAPROOT && wallet.currencyKind !== 'asset') throw invalid('invalid_payment', 'taprootasset payments need an asset wallet');
  if (kind !== KIND_TAPROOT && wallet.currencyKind === 'asset') throw invalid('invalid_payment', 'asset wallets send taprootasset payments only');
  if (kind === KIND_BIP21 && wallet.currencyKind !== 'btc') throw invalid('invalid_currency', 'bip21 sends must be in btc');
}
