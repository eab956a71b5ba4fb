import { hashString, Stream } from '../core/prng.js';
import { uuidOf } from '../core/ids.js';
import { nowMicros, type Micros } from '../core/time.js';
import { KIND_BIP21, KIND_ONCHAIN, ST_APPROVED, ST_COMPLETED, ST_EXPIRED, ST_FAILED, ST_RECEIVING } from '../dataset/codes.js';
import type { Dataset } from '../dataset/dataset.js';
import { processingFeeOf } from '../dataset/fees.js';
import { HOLD_LAG_US } from '../dataset/ledger.js';
import { NS_CREDIT, type PaymentCore } from '../dataset/payment-core.js';
import { railIdsOf } from '../dataset/payment-text.js';
import type { SimWallet } from '../dataset/world.js';
import type { Scheduler } from './scheduler.js';
import type { Webhooks } from './webhooks.js';

/**
 * The asynchronous state machines of written payments (docs/service-facts.md#states-and-transitions):
 *   send     sending → completed | failed                          (held, then captured | released)
 *   check    sending → approved | failed                            (no money moves)
 *   receive  generating → receiving → completed | expired | failed  (credited on completion)
 * one step every `stepMs` on timers (or at once through Scheduler.flush), with a webhook per
 * event. Magic values steer outcomes, like Stripe's test cards: a payment_request/address
 * containing `fail`, or metadata `simulate=fail|expire`.
 */
export interface LifecycleOptions {
  /** delay of each state transition, ms (default 100) */
  stepMs: number;
  /** receives are paid automatically after `receiving`; false = they wait and expire */
  autoPayReceives: boolean;
}

const NS_ANY_AMOUNT = hashString('any-amount-receive');

export class PaymentLifecycle {
  constructor(
    private readonly dataset: Dataset,
    private readonly scheduler: Scheduler,
    private readonly webhooks: Webhooks,
    private readonly options: LifecycleOptions,
  ) {}

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

  startSend(handle: number, check: boolean): void {
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

  startReceive(handle: number, anyAmount: boolean): void {
    const store = this.dataset.store;
    const seed = this.dataset.options.seed;
    this.scheduler.schedule(this.options.stepMs, () => {
      const core = store.core(handle);
      // docs/service-facts.md#states-and-transitions: a standard any-amount receive with a nonzero receive fee fails before generation
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
        c.principal = BigInt(new Stream(this.dataset.options.seed, handle, NS_ANY_AMOUNT).int(1_000, 50_000)) * 1_000n;
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
