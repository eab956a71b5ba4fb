import { paymentIdOf, paymentIndexOf } from '../core/ids.js';
import type { Micros } from '../core/time.js';
import { applyAnomaly } from './anomalies.js';
import type { AnomalyPlan } from './anomaly-plan.js';
import { baseCore, type GenContext, type PaymentCore } from './payment-core.js';
import { metadataOf } from './payment-text.js';
import type { SimWallet } from './world.js';

/**
 * All payments, addressed by a HANDLE: 0..n-1 are generated (attributes in the timeline's typed
 * arrays, the rest derived on demand), n.. are written through the API (held as PaymentCore
 * objects and mutated by their state machine). `version` changes whenever a written payment is
 * added or changes, so derived indexes know when to rebuild.
 */
export class PaymentStore {
  readonly generated: number;
  private readonly written: PaymentCore[] = [];
  private readonly writtenById = new Map<string, number>();
  private writtenVersion = 0;

  constructor(
    readonly ctx: GenContext,
    readonly plan: AnomalyPlan,
  ) {
    this.generated = ctx.timeline.count;
  }

  get version(): number {
    return this.writtenVersion;
  }

  get size(): number {
    return this.generated + this.written.length;
  }

  writtenHandles(): number[] {
    return this.written.map((c) => c.handle);
  }

  private w(h: number): PaymentCore {
    return this.written[h - this.generated] as PaymentCore;
  }

  created(h: number): Micros {
    return h < this.generated ? (this.ctx.timeline.created[h] as number) : this.w(h).createdUs;
  }

  updated(h: number): Micros {
    return h < this.generated ? (this.ctx.timeline.updated[h] as number) : this.w(h).updatedUs;
  }

  walletIndex(h: number): number {
    return h < this.generated ? (this.ctx.timeline.wallet[h] as number) : this.w(h).walletIndex;
  }

  wallet(h: number): SimWallet {
    return this.ctx.world.wallets[this.walletIndex(h)] as SimWallet;
  }

  environmentIndex(h: number): number {
    return this.wallet(h).environmentIndex;
  }

  direction(h: number): number {
    return h < this.generated ? (this.ctx.timeline.direction[h] as number) : this.w(h).direction;
  }

  kind(h: number): number {
    return h < this.generated ? (this.ctx.timeline.kind[h] as number) : this.w(h).kind;
  }

  status(h: number): number {
    return h < this.generated ? (this.ctx.timeline.status[h] as number) : this.w(h).status;
  }

  category(h: number): number {
    return h < this.generated ? (this.ctx.timeline.category[h] as number) : this.w(h).category;
  }

  flags(h: number): number {
    return h < this.generated ? (this.ctx.timeline.flags[h] as number) : this.w(h).flags;
  }

  /** The payment's currency as listed (lowercase), cheap: no core derivation for generated ones. */
  currency(h: number): string {
    if (h >= this.generated) return this.w(h).currency;
    return this.plan.byHandle.get(h)?.kind === 'currency_mismatch' ? 'usd' : this.wallet(h).currency;
  }

  id(h: number): string {
    return h < this.generated ? paymentIdOf(this.ctx.options.seed, h) : this.w(h).id;
  }

  metadata(h: number): Record<string, string> | null {
    return h < this.generated ? metadataOf(this.ctx, h) : (this.w(h).written?.metadata ?? null);
  }

  /** The full core (amounts, fees, ids); generated cores are re-derived on every call. */
  core(h: number): PaymentCore {
    return h < this.generated ? applyAnomaly(baseCore(this.ctx, h), this.plan.byHandle.get(h)) : this.w(h);
  }

  /** The amounts of a payment without its id strings (cheaper; for sums over many payments). */
  amounts(h: number): PaymentCore {
    return h < this.generated ? applyAnomaly(baseCore(this.ctx, h, true), this.plan.byHandle.get(h)) : this.w(h);
  }

  handleOf(id: string): number | null {
    const written = this.writtenById.get(id.toLowerCase());
    if (written !== undefined) return written;
    return paymentIndexOf(this.ctx.options.seed, id, this.generated);
  }

  nextHandle(): number {
    return this.generated + this.written.length;
  }

  addWritten(core: PaymentCore): void {
    if (core.handle !== this.nextHandle()) throw new Error('written payment handle out of sequence');
    this.written.push(core);
    this.writtenById.set(core.id.toLowerCase(), core.handle);
    this.writtenVersion++;
  }

  /** Apply a change to a written payment (status, updated_at, amounts) and bump the version. */
  updateWritten(h: number, change: (core: PaymentCore) => void): PaymentCore {
    const core = this.w(h);
    change(core);
    this.writtenVersion++;
    return core;
  }
}
