/**
 * The service's payment summaries (counts, not money) against the payments actually listed.
 * Scopes: environment (total only: its buckets live under its lines of credit), line of credit
 * (total + buckets, over the wallets backed by it), wallet (total + buckets). A bucket is
 * (direction, status, currency, kind); a bucket absent on one side counts 0 there.
 *
 * The caller passes the API summary rows it pulled for exactly this window with the same filters
 * (created in the window, include_inactive). Environment and line-of-credit scopes are compared
 * only when the API rows for them are present, so a run scoped to some wallets passes only wallet
 * summaries.
 */
import type { PaymentRow, SummaryBucketRow, SummaryScope, WalletRow } from '../model/rows.js';
import { compareText, finding } from './findings.js';
import type { Finding, SummaryCheckRow } from '../model/results.js';

type BucketKey = string;
const TOTAL: BucketKey = '';

interface ApiScope {
  environment_id: string;
  counts: Map<BucketKey, bigint | null>;
}

const bucketKey = (direction: string | null, status: string | null, currency: string | null, kind: string | null): BucketKey =>
  JSON.stringify([direction, status, currency, kind]);
const bucketFields = (key: BucketKey): [string | null, string | null, string | null, string | null] =>
  key === TOTAL ? [null, null, null, null] : (JSON.parse(key) as [string, string, string, string]);
const scopeKey = (scope: SummaryScope, id: string): string => `${scope}\u0000${id}`;
const untrusted = (row: SummaryBucketRow): boolean => (row.flags ?? []).some((f) => f.includes('total_count'));

export class SummaryComparison {
  private readonly api = new Map<string, ApiScope>();
  /** computed counts of the environment and line-of-credit scopes, across wallets */
  private readonly computed = new Map<string, Map<BucketKey, bigint>>();
  private readonly environmentOf = new Map<string, string>();
  private wallet: { key: string; counts: Map<BucketKey, bigint> } | null = null;
  /** the environment and line-of-credit scopes the current wallet's payments also count in */
  private walletScopes: string[] = [];
  readonly available: boolean;
  readonly rows: SummaryCheckRow[] = [];
  readonly findings: Finding[] = [];
  /** compared scope totals and buckets (CheckResult.evaluated of summary.total / summary.bucket) */
  evaluatedTotals = 0;
  evaluatedBuckets = 0;

  constructor(summaries: readonly SummaryBucketRow[], wallets: readonly WalletRow[]) {
    this.available = summaries.length > 0;
    for (const wallet of wallets) {
      this.environmentOf.set(scopeKey('environment', wallet.environment_id), wallet.environment_id);
      if (wallet.line_of_credit_id) this.environmentOf.set(scopeKey('line_of_credit', wallet.line_of_credit_id), wallet.environment_id);
    }
    for (const row of summaries) {
      const key = scopeKey(row.scope, row.scope_id);
      let scope = this.api.get(key);
      if (!scope) {
        scope = { environment_id: row.environment_id, counts: new Map() };
        this.api.set(key, scope);
      }
      const bucket = row.direction === null && row.status === null && row.currency === null && row.kind === null ? TOTAL : bucketKey(row.direction, row.status, row.currency, row.kind);
      const previous = scope.counts.get(bucket);
      // An unreadable API count is unknown (null), never 0; a repeated bucket adds up.
      const count = untrusted(row) || previous === null ? null : (previous ?? 0n) + row.api_count;
      scope.counts.set(bucket, count);
    }
  }

  /** Starts counting a wallet's payments; reports a missing wallet summary. */
  startWallet(wallet: WalletRow): void {
    const key = scopeKey('wallet', wallet.wallet_id);
    this.wallet = { key, counts: new Map() };
    this.environmentOf.set(key, wallet.environment_id);
    if (this.available && !this.api.has(key)) {
      this.findings.push(
        finding('summary.missing', {
          subject_kind: 'wallet',
          subject_id: wallet.wallet_id,
          wallet_id: wallet.wallet_id,
          message: 'no wallet payment summary was pulled for this wallet and window',
        }),
      );
    }
    this.walletScopes = [scopeKey('environment', wallet.environment_id)];
    if (wallet.line_of_credit_id) this.walletScopes.push(scopeKey('line_of_credit', wallet.line_of_credit_id));
  }

  count(payment: PaymentRow): void {
    if (!this.wallet) throw new Error('SummaryComparison.count before startWallet');
    const bucket = bucketKey(payment.direction, payment.status, payment.currency, payment.kind);
    increment(this.wallet.counts, TOTAL);
    increment(this.wallet.counts, bucket);
    for (const key of this.walletScopes) {
      let counts = this.computed.get(key);
      if (!counts) {
        counts = new Map();
        this.computed.set(key, counts);
      }
      increment(counts, TOTAL);
      // The environment summary has no buckets of its own: only its total is compared.
      if (!key.startsWith('environment')) increment(counts, bucket);
    }
  }

  /** Compares the current wallet's counts with its summary. */
  endWallet(): void {
    if (!this.wallet) return;
    const { key, counts } = this.wallet;
    this.wallet = null;
    if (this.available && this.api.has(key)) this.compare(key, counts);
  }

  /** Compares environment and line-of-credit scopes, and wallet summaries of wallets never started. */
  finish(startedWallets: ReadonlySet<string>): void {
    if (!this.available) return;
    const keys = new Set<string>([...this.api.keys()].filter((k) => !k.startsWith('wallet')));
    // A line of credit with listed payments but no API entry, inside an environment the API summarised.
    for (const key of this.computed.keys()) {
      if (key.startsWith('line_of_credit') && this.api.has(scopeKey('environment', this.environmentOf.get(key) ?? ''))) keys.add(key);
    }
    for (const key of [...keys].sort()) this.compare(key, this.computed.get(key) ?? new Map());
    for (const key of [...this.api.keys()].sort()) {
      const [scope, id] = key.split('\u0000') as [SummaryScope, string];
      if (scope === 'wallet' && !startedWallets.has(id)) this.compare(key, new Map());
    }
  }

  private compare(key: string, computed: Map<BucketKey, bigint>): void {
    const [scope, scopeId] = key.split('\u0000') as [SummaryScope, string];
    const api = this.api.get(key);
    const environment_id = api?.environment_id ?? this.environmentOf.get(key) ?? '';
    const walletId = scope === 'wallet' ? scopeId : null;
    const apiCounts = api?.counts ?? new Map<BucketKey, bigint | null>();
    const buckets = new Set<BucketKey>([TOTAL, ...(scope === 'environment' ? [] : [...apiCounts.keys(), ...computed.keys()])]);
    for (const bucket of [...buckets].sort(compareText)) {
      if (bucket === TOTAL) this.evaluatedTotals += 1;
      else this.evaluatedBuckets += 1;
      const apiCount = apiCounts.has(bucket) ? (apiCounts.get(bucket) ?? null) : null;
      const unreadable = apiCounts.has(bucket) && apiCount === null;
      const computedCount = computed.get(bucket) ?? 0n;
      const difference = computedCount - (apiCount ?? 0n);
      const ok = !unreadable && difference === 0n;
      const [direction, status, currency, kind] = bucketFields(bucket);
      this.rows.push({ scope, scope_id: scopeId, environment_id, direction, status, currency, kind, api_count: apiCount, computed_count: computedCount, difference, ok });
      if (ok) continue;
      const label = bucket === TOTAL ? `${scope} ${scopeId} total` : `${scope} ${scopeId} bucket ${direction}/${status}/${currency}/${kind}`;
      this.findings.push(
        finding(bucket === TOTAL ? 'summary.total' : 'summary.bucket', {
          subject_kind: 'summary_bucket',
          subject_id: bucket === TOTAL ? `${scope}:${scopeId}` : `${scope}:${scopeId}:${direction}/${status}/${currency}/${kind}`,
          wallet_id: walletId,
          currency,
          expected: apiCount,
          actual: computedCount,
          difference,
          message: unreadable
            ? `${label}: the API count is unreadable; ${computedCount} payment(s) listed`
            : `${label}: the API counts ${apiCount ?? 0n} payment(s), ${computedCount} listed`,
        }),
      );
    }
  }
}

function increment(map: Map<BucketKey, bigint>, key: BucketKey): void {
  map.set(key, (map.get(key) ?? 0n) + 1n);
}
