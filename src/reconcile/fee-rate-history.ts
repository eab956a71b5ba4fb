/**
 * The processing-fee rate in force per wallet and direction over the window, read from the
 * payments' own terms (`processing_fee.basis_points`, the rate fixed at approval), in created_at
 * order. Consecutive payments at one rate form a period; a new rate that holds for two or more
 * payments is a rate change — one `fee_rate.change` note, not a warning per payment — and a lone
 * payment at another rate between two payments at the same rate is an off-rate payment
 * (`fee_rate.off_rate`), compared with the rate in force at its time.
 *
 * Evidence is the payments only: the wallet policies show the current rate alone, and the pull
 * does not store them yet. Streaming: payments arrive per wallet in created_at order; memory is the
 * wallet's periods.
 */
import type { PaymentRow, UtcInstant } from '../model/rows.js';
import { finding } from './findings.js';
import type { FeeRateRow, Finding } from '../model/results.js';

interface Run {
  rate: number;
  from: UtcInstant;
  last: UtcInstant;
  ids: string[];
  count: number;
  first: string;
  lastId: string;
}

export class FeeRateHistory {
  readonly findings: Finding[] = [];
  readonly rows: FeeRateRow[] = [];
  evaluated = 0;
  private runs = new Map<string, Run[]>();
  private environment = '';
  private wallet = '';

  startWallet(walletId: string, environmentId: string): void {
    this.wallet = walletId;
    this.environment = environmentId;
    this.runs = new Map();
  }

  /** Payments of the wallet in created_at order (the report order). */
  add(p: PaymentRow): void {
    if (p.processing_fee_bps === null || p.processing_fee_source === 'none' || p.category !== 'standard' || p.status_class === 'failed') return;
    this.evaluated += 1;
    const runs = this.runs.get(p.direction) ?? [];
    this.runs.set(p.direction, runs);
    const last = runs.at(-1);
    if (last && last.rate === p.processing_fee_bps) {
      last.count += 1;
      last.last = p.created_at;
      last.lastId = p.payment_id;
      return;
    }
    runs.push({ rate: p.processing_fee_bps, from: p.created_at, last: p.created_at, ids: [p.payment_id], count: 1, first: p.payment_id, lastId: p.payment_id });
  }

  endWallet(): void {
    for (const direction of [...this.runs.keys()].sort()) {
      const merged = this.mergeOutliers(direction, this.runs.get(direction) ?? []);
      merged.forEach((run, k) => {
        const next = merged[k + 1];
        this.rows.push({
          wallet_id: this.wallet,
          environment_id: this.environment,
          direction,
          rate_bps: run.rate,
          from: run.from,
          to: next ? next.from : null,
          payments: run.count,
          first_payment_id: run.first,
          last_payment_id: run.lastId,
          evidence: `processing_fee.basis_points of ${run.count} ${direction} payment(s)`,
        });
        if (!next) return;
        this.findings.push(
          finding('fee_rate.change', {
            subject_kind: 'wallet',
            subject_id: `${this.wallet}:${direction}:${next.from}`,
            wallet_id: this.wallet,
            expected: BigInt(run.rate),
            actual: BigInt(next.rate),
            difference: BigInt(next.rate - run.rate),
            message: `${direction} processing-fee rate changed from ${run.rate} to ${next.rate} bps between ${run.last} (payment ${run.lastId}) and ${next.from} (payment ${next.first}); ${next.count} payment(s) at the new rate`,
          }),
        );
      });
    }
  }

  /** A lone payment at another rate between two runs of one rate is off-rate, not a change: reported and folded back. */
  private mergeOutliers(direction: string, runs: Run[]): Run[] {
    const out: Run[] = [];
    for (let k = 0; k < runs.length; k++) {
      const run = runs[k] as Run;
      const before = out.at(-1);
      const after = runs[k + 1];
      if (before && after && run.count === 1 && before.rate === after.rate) {
        this.findings.push(
          finding('fee_rate.off_rate', {
            subject_kind: 'payment',
            subject_id: run.first,
            wallet_id: this.wallet,
            expected: BigInt(before.rate),
            actual: BigInt(run.rate),
            difference: BigInt(run.rate - before.rate),
            message: `${direction} payment ${run.first} of ${run.from} carries ${run.rate} bps while ${before.rate} bps was in force (before and after it)`,
          }),
        );
        before.count += 1 + after.count;
        before.last = after.last;
        before.lastId = after.lastId;
        k += 1;
        continue;
      }
      out.push({ ...run });
    }
    return out;
  }
}
