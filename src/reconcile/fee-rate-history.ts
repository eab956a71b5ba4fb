/**
 * The processing-fee rate in force per wallet and direction over the window, read from the
 * payments' own terms (`processing_fee.basis_points`, the rate fixed at approval), in created_at
 * order. Consecutive payments at one rate form a period; a new rate that holds for two or more
 * payments is a rate change — one `fee_rate.change` note, not a warning per payment — and a lone
 * payment at another rate between two payments at the same rate is an off-rate payment
 * (`fee_rate.off_rate`), compared with the rate in force at its time.
 *
 * The wallet's processing-fee policy (endpoint 8) is the second witness, of the present only: the
 * service shows the current rates and no history. It confirms the latest period when it agrees
 * (evidence `payments+policy`), raises `fee_rate.policy_mismatch` when it does not (the payments
 * cannot say whether the policy changed after them or the service charges another rate than it
 * states), and alone gives the row of a direction without standard payments (evidence `policy`,
 * `from` unknown). Streaming: payments arrive per wallet in created_at order; memory is the
 * wallet's periods.
 */
import type { PaymentRow, UtcInstant, WalletRow } from '../model/rows.js';
import { finding } from './findings.js';
import type { FeeRateRow, Finding } from '../model/results.js';

type FeePolicy = NonNullable<WalletRow['fee_policy']>;
const DIRECTIONS = ['receive', 'send'] as const;

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
  /** wallet × direction pairs whose latest period was compared with the policy */
  policyCompared = 0;
  private runs = new Map<string, Run[]>();
  private environment = '';
  private wallet = '';
  private policy: FeePolicy | null = null;

  /** `policy`: the wallet's processing-fee policy (WalletRow.fee_policy), null when none was read. */
  startWallet(walletId: string, environmentId: string, policy: FeePolicy | null = null): void {
    this.wallet = walletId;
    this.environment = environmentId;
    this.runs = new Map();
    this.policy = policy;
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
    const policy = this.policy;
    const directions = new Set<string>([...this.runs.keys(), ...(policy === null ? [] : DIRECTIONS)]);
    for (const direction of [...directions].sort()) {
      const merged = this.mergeOutliers(direction, this.runs.get(direction) ?? []);
      const policyRate = policy === null ? null : direction === 'send' ? policy.send_bps : direction === 'receive' ? policy.receive_bps : null;
      if (merged.length === 0) {
        if (policy !== null && policyRate !== null) this.rows.push(this.policyRow(direction, policyRate, policy));
        continue;
      }
      merged.forEach((run, k) => {
        const next = merged[k + 1];
        const agrees = next === undefined && policyRate !== null && policyRate === run.rate;
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
          evidence: agrees
            ? `payments+policy: processing_fee.basis_points of ${run.count} ${direction} payment(s), and the wallet policy's current rate`
            : `processing_fee.basis_points of ${run.count} ${direction} payment(s)`,
        });
        if (next === undefined && policyRate !== null && policy !== null) {
          this.policyCompared += 1;
          if (!agrees) this.findings.push(this.mismatch(direction, run, policyRate, policy));
        }
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

  /** The rate of a direction without standard payments: the policy's, in force since an unknown time. */
  private policyRow(direction: string, rate: number, policy: FeePolicy): FeeRateRow {
    return {
      wallet_id: this.wallet,
      environment_id: this.environment,
      direction,
      rate_bps: rate,
      from: null,
      to: null,
      payments: 0,
      first_payment_id: null,
      last_payment_id: null,
      evidence: `policy: the wallet policy's current rate; from unknown (the service keeps no policy history${policy.updated_at === null ? '' : `; policy last updated ${policy.updated_at}`}); no standard ${direction} payment in the window`,
    };
  }

  private mismatch(direction: string, run: Run, policyRate: number, policy: FeePolicy): Finding {
    const later = policy.updated_at !== null && policy.updated_at > run.last;
    return finding('fee_rate.policy_mismatch', {
      subject_kind: 'wallet',
      subject_id: `${this.wallet}:${direction}`,
      wallet_id: this.wallet,
      expected: BigInt(policyRate),
      actual: BigInt(run.rate),
      difference: BigInt(run.rate - policyRate),
      message:
        `${direction}: the wallet policy's current processing-fee rate is ${policyRate} bps, but the latest ${direction} payments carry ${run.rate} bps ` +
        `(${run.count} payment(s) from ${run.from} to ${run.last}, last ${run.lastId}); ` +
        (later
          ? `the policy was updated at ${policy.updated_at}, after them: a rate change after these payments, or the service charges another rate than its policy states`
          : `the policy${policy.updated_at === null ? '' : ` (last updated ${policy.updated_at})`} was not changed since: the service charged another rate than its policy states`),
    });
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
