import { hashString, Stream } from '../core/prng.js';
import { nowMicros, type Micros } from '../core/time.js';
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
  ST_APPROVED,
  ST_COMPLETED,
  ST_EXPIRED,
  ST_FAILED,
  ST_GENERATING,
  ST_RECEIVING,
  ST_SENDING,
} from '../dataset/codes.js';
import type { Dataset } from '../dataset/dataset.js';
import { centsToMsats, msatsToCentsCeil, processingFeeOf } from '../dataset/fees.js';
import { HOLD_LAG_US } from '../dataset/ledger.js';
import { NS_CREDIT, NS_HOLD, type PaymentCore } from '../dataset/payment-core.js';
import { railIdsOf } from '../dataset/payment-text.js';
import type { SimWallet } from '../dataset/world.js';
import { ApiError } from '../server/api-error.js';
import type { QuoteBook, QuoteRecord } from './quotes.js';
import { describeIssues, receiveRequestSchema, sendRequestSchema, type AmountInput, type ReceiveRequest, type SendRequest } from './request-schemas.js';
import type { Scheduler } from './scheduler.js';
import type { Webhooks } from './webhooks.js';

/**
 * Payments written through the API (create payment, treasury movement, policy check): validated
 * like the service does, answered 202, then moved through their state machine on timers
 *   send     sending → completed | failed                       (held, then captured | released)
 *   check    sending → approved | failed                         (no money moves)
 *   receive  generating → receiving → completed | expired | failed  (credited on completion)
 * with a webhook per event. Magic values steer outcomes (like Stripe's test cards): a
 * payment_request/address containing `fail`, or metadata `simulate=fail|expire`.
 */

export type WriteMode = 'payment' | 'treasury' | 'check';

export interface PaymentWriterOptions {
  /** delay of each state transition, ms (default 100) */
  stepMs: number;
  /** a freshly created payment reads as 404 for this long, ms (default 50) */
  readableAfterMs: number;
  /** receives are paid automatically after `receiving`; false = they wait and expire */
  autoPayReceives: boolean;
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

  constructor(
    private readonly dataset: Dataset,
    private readonly quotes: QuoteBook,
    private readonly scheduler: Scheduler,
    private readonly webhooks: Webhooks,
    private readonly options: PaymentWriterOptions,
  ) {}

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
    if (isReceive) this.scheduleReceive(core.handle, (request as ReceiveRequest).amount === undefined && (request as ReceiveRequest).amount_msats === undefined && (request as ReceiveRequest).amount_sats === undefined);
    else this.scheduleSend(core.handle, mode === 'check');
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
    if (swap && (!wallet.swaps || mode === 'check')) throw invalid('invalid_payment', 'Swaps are only available to node-backed BTC wallets with swaps enabled, and not for policy checks');
    const expectedCurrency = kind === KIND_TAPROOT ? wallet.currency : wallet.currencyKind === 'asset' ? 'btc' : wallet.currency;
    if (request.currency !== expectedCurrency) throw invalid('invalid_currency', `currency must be ${expectedCurrency} for this wallet`);
    if (kind === KIND_TAPROOT && wallet.currencyKind !== 'asset') throw invalid('invalid_payment', 'taprootasset payments need an asset wallet');
    if (kind !== KIND_TAPROOT && wallet.currencyKind === 'asset') throw invalid('invalid_payment', 'asset wallets send taprootasset payments only');
    if (kind === KIND_BIP21 && wallet.currencyKind !== 'btc') throw invalid('invalid_currency', 'bip21 sends must be in btc');

    const flags = (mode === 'check' ? F_CHECK : 0) | (swap ? F_SWAP : 0);
    const category = mode === 'treasury' ? CAT_TREASURY : CAT_STANDARD;
    const core = this.baseCore(environmentIndex, wallet, request.id, DIR_SEND, kind, category, flags, ST_SENDING);
    const s = new Stream(this.dataset.options.seed, core.handle, NS_WRITE);
    const quote = this.quoteFor(environmentIndex, wallet, 'quote_id' in request ? request.quote_id : undefined);
    const text = core.written as NonNullable<PaymentCore['written']>;
    text.metadata = request.metadata ?? null;

    let railAmount: bigint | null;
    let maxFeeInput: bigint | null = null;
    switch (request.type) {
      case 'bolt11':
        text.paymentRequest = request.data.payment_request;
        if (request.data.payment_request === '') throw required('missing_payment_request', 'data.payment_request');
        railAmount = this.btcAmount(request.data.amount, 'data.amount') ?? (request.data.amount_msats !== undefined ? this.positive(request.data.amount_msats, 'data.amount_msats') : null) ?? invoiceAmountMsats(request.data.payment_request);
        maxFeeInput = request.data.max_fee ? this.positive(request.data.max_fee.amount, 'data.max_fee') : request.data.max_fee_msats !== undefined ? this.positive(request.data.max_fee_msats, 'data.max_fee_msats') : null;
        break;
      case 'onchain':
        text.address = request.data.address;
        text.memo = request.data.description ?? null;
        if (request.data.address === '') throw required('missing_address', 'data.address');
        railAmount = this.btcAmount(request.data.amount, 'data.amount') ?? (request.data.amount_sats !== undefined ? this.positive(request.data.amount_sats, 'data.amount_sats') * 1_000n : null);
        if (railAmount !== null && railAmount % 1_000n !== 0n) throw new ApiError(400, 'invalid_amount', 'on-chain amounts are whole sats (multiples of 1000 msats)');
        maxFeeInput = request.data.max_fee ? this.positive(request.data.max_fee.amount, 'data.max_fee') : null;
        core.railOnchain = true;
        break;
      case 'bip21': {
        text.address = request.data.address;
        text.paymentRequest = request.data.payment_request ?? null;
        text.memo = request.data.description ?? null;
        if (request.data.address === '') throw required('missing_address', 'data.address');
        const uriAmount = /[?&]amount=(\d+(?:\.\d{1,8})?)/.exec(request.data.address)?.[1];
        railAmount = this.btcAmount(request.data.amount, 'data.amount') ?? (uriAmount !== undefined ? BigInt(Math.round(Number(uriAmount) * 1e8)) * 1_000n : null);
        maxFeeInput = request.data.max_fee ? this.positive(request.data.max_fee.amount, 'data.max_fee') : null;
        core.railOnchain = text.paymentRequest === null && !request.data.address.includes('lightning=');
        break;
      }
      case 'taprootasset':
        text.paymentRequest = request.data.payment_request;
        if (request.data.amount.currency !== wallet.currency) throw invalid('invalid_currency', 'data.amount must be in the wallet asset');
        railAmount = this.positive(request.data.amount.amount, 'data.amount');
        break;
    }
    if (railAmount === null) throw required('amount_required', 'data.amount');

    if (quote) {
      // USD wallet: the quote converts between the BTC amount on the rail and the wallet's cents.
      const cents = quote.from.currency === 'usd' ? quote.from.amount : quote.to === 'usd' ? quote.converted : msatsToCentsCeil(railAmount, quote.rate);
      const msats = quote.from.currency === 'btc' ? quote.from.amount : quote.to === 'btc' ? quote.converted : centsToMsats(cents, quote.rate);
      const railMax = maxFeeInput ?? (msats / 100n > 1_000n ? msats / 100n : 1_000n);
      const railFee = this.networkFeeMsats(s, msats, railMax, core.railOnchain || swap);
      core.principal = cents;
      core.rail = { amountMsats: msats, feeMsats: railFee, maxFeeMsats: railMax, rate: quote.rate, quoteId: quote.id, quotedUs: quote.requestedUs };
      core.networkFee = msatsToCentsCeil(railFee, quote.rate);
      core.maxFee = msatsToCentsCeil(railMax, quote.rate);
    } else if (kind === KIND_TAPROOT) {
      core.principal = railAmount;
      core.maxFee = null;
    } else {
      core.principal = railAmount;
      core.maxFee = maxFeeInput ?? (railAmount / 100n > 1_000n ? railAmount / 100n : 1_000n);
      core.networkFee = this.networkFeeMsats(s, railAmount, core.maxFee, core.railOnchain || swap);
    }
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

  // ------------------------------------------------------------------ state machines

  private outcomeOf(core: PaymentCore): 'ok' | 'fail' | 'expire' {
    const text = core.written;
    const magic = `${text?.paymentRequest ?? ''} ${text?.address ?? ''}`.toLowerCase();
    const simulate = text?.metadata?.['simulate'];
    if (simulate === 'fail' || magic.includes('fail')) return 'fail';
    if (simulate === 'expire') return 'expire';
    return 'ok';
  }

  /** The instant of a transition: now, but never before the hold placed just after creation. */
  private transitionUs(handle: number): Micros {
    return Math.max(nowMicros(), this.dataset.store.created(handle) + HOLD_LAG_US + 1_000);
  }

  private emit(handle: number, type: 'send' | 'receive', event: string): void {
    const core = this.dataset.store.core(handle);
    this.webhooks.emit(core.environmentIndex, type, event, this.dataset.renderPayment(handle), core.id);
  }

  private scheduleSend(handle: number, check: boolean): void {
    this.scheduler.schedule(this.options.stepMs, () => {
      const store = this.dataset.store;
      const outcome = this.outcomeOf(store.core(handle));
      const now = this.transitionUs(handle);
      store.updateWritten(handle, (core) => {
        core.updatedUs = now;
        if (outcome !== 'ok') {
          core.status = ST_FAILED;
          core.error = check ? { type: 'rejected', code: 'rejected', detail: 'Payment rejected by policy' } : { type: 'send_failed', code: 'no_route', detail: 'No route found to the destination' };
          return;
        }
        if (check) {
          core.status = ST_APPROVED;
          return;
        }
        core.status = ST_COMPLETED;
        core.feeSettled = core.feeTerms;
        core.breakdownVisible = core.feeSettled !== null;
        core.captureAmount = core.principal + core.networkFee + (core.feeSettled ?? 0n);
      });
      if (!check) this.emit(handle, 'send', outcome === 'ok' ? 'succeeded' : 'failed');
    });
  }

  private scheduleReceive(handle: number, anyAmount: boolean): void {
    const store = this.dataset.store;
    const seed = this.dataset.options.seed;
    this.scheduler.schedule(this.options.stepMs, () => {
      const core = store.core(handle);
      // interface "Transitions": a standard any-amount receive with a nonzero receive fee fails before generation
      if (anyAmount && core.feeBps > 0) {
        store.updateWritten(handle, (c) => {
          c.status = ST_FAILED;
          c.updatedUs = this.transitionUs(handle);
          c.error = { type: 'receive_failed', code: 'receive_failed', detail: 'Any-amount receives need a zero receive processing fee' };
        });
        this.emit(handle, 'receive', 'failed');
        return;
      }
      const ids = railIdsOf(seed, handle, core.principal);
      store.updateWritten(handle, (c) => {
        c.status = ST_RECEIVING;
        c.updatedUs = this.transitionUs(handle);
        const text = c.written as NonNullable<PaymentCore['written']>;
        if (c.kind !== KIND_ONCHAIN) text.paymentRequest = ids.paymentRequest;
        if (c.kind === KIND_ONCHAIN || c.kind === KIND_BIP21) text.address = ids.address;
      });
      this.emit(handle, 'receive', 'generated');
      const outcome = this.outcomeOf(store.core(handle));
      const settleAfter = this.options.autoPayReceives || outcome !== 'ok' ? this.options.stepMs * 2 : (core.expirationSeconds ?? 3_600) * 1_000;
      this.scheduler.schedule(settleAfter, () => this.settleReceive(handle, this.options.autoPayReceives ? outcome : outcome === 'ok' ? 'expire' : outcome, anyAmount));
    });
  }

  private settleReceive(handle: number, outcome: 'ok' | 'fail' | 'expire', anyAmount: boolean): void {
    const store = this.dataset.store;
    const now = this.transitionUs(handle);
    const wallet = this.dataset.wallets[store.walletIndex(handle)] as SimWallet;
    store.updateWritten(handle, (c) => {
      c.updatedUs = now;
      if (outcome === 'expire') {
        c.status = ST_EXPIRED;
        c.error = { type: 'expired', code: 'expired', detail: 'The invoice expired before it was paid' };
        return;
      }
      if (outcome === 'fail') {
        c.status = ST_FAILED;
        c.error = { type: 'receive_failed', code: 'receive_failed', detail: 'Receive failed upstream' };
        return;
      }
      if (anyAmount) {
        c.principal = BigInt(new Stream(this.dataset.options.seed, handle, NS_WRITE + 1).int(1_000, 50_000)) * 1_000n;
        c.settledPrincipal = c.principal;
      }
      c.status = ST_COMPLETED;
      c.creditId = uuidOf(this.dataset.options.seed, NS_CREDIT, handle);
      c.feeSettled = c.feeBps > 0 ? processingFeeOf(c.settledPrincipal, c.feeBps, wallet.currencyKind === 'btc' && c.kind === KIND_ONCHAIN) : null;
      if (c.feeTerms === null && c.feeSettled !== null) c.feeTerms = c.feeSettled;
      c.breakdownVisible = c.feeSettled !== null;
      c.creditAmount = c.settledPrincipal;
    });
    this.emit(handle, 'receive', outcome === 'ok' ? 'completed' : outcome === 'expire' ? 'expired' : 'failed');
  }
}
