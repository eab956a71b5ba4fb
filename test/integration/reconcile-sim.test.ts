/**
 * End to end: the real pipeline (pull → snapshot → report, src/jobs/pipeline.ts) against the
 * simulator on port 0, on the spool (`--no-db`) and — when DATABASE_URL is set — on the real
 * Postgres server (a schema of its own per run).
 *
 * (a) A clean simulated organization reconciles clean: no error or warning finding, exit 0, and
 *     the files' control totals and closing balances equal the simulator's ground truth.
 * (b) With every anomaly planted, each one is found by the check meant to catch it on the subject it
 *     touched, and nothing else appears beyond the clean run's findings; exit 65.
 *
 * The dataset spans the reconciled month (October 2026, in UTC or a zone west of it, whose month
 * ends after the dataset does), so every planted anomaly falls in the window, legacy-only records
 * (the dataset's first 15 days) are reconciled too, and a wallet's closing balance is its whole ledger.
 */
import { describe, expect, it } from 'vitest';
import { JOB_FLAGS } from '../../src/jobs/pipeline-spec.js';
import type { PipelineSpec } from '../../src/jobs/pipeline.js';
import type { Finding } from '../../src/model/results.js';
import { ANOMALY_KINDS, startSimulator, type PlantedAnomaly, type SimHandle } from '../../src/sim/index.js';
import { monthPeriod } from '../../src/model/period.js';
import { runAgainstSimulator, type PipelineRun } from '../support/pipeline/run-pipeline.js';
import { truthTotals } from '../support/sim/truth.js';
import { snapshotEngines, type SnapshotEngine } from '../support/store/snapshot-engines.js';

const MONTH = '2026-10';
const DATASET = { from: '2026-10-01', to: '2026-11-01' } as const;
const SCALE = 1_200;

const ENGINES = await snapshotEngines('reconcile_sim');

function monthEnd(tz: string): PipelineSpec {
  return { command: 'month-end', job: 'month-end', ...JOB_FLAGS['month-end'], period: monthPeriod(MONTH, tz, new Date()), pull: true, incremental: false, closePeriod: true, allowOpen: true, dryRun: false };
}

interface Case {
  seed: number;
  wallets: number;
  tz: string;
}

async function reconcile(c: Case, engine: SnapshotEngine, anomalies: boolean): Promise<{ sim: SimHandle; run: PipelineRun }> {
  const sim = await startSimulator({ seed: c.seed, scale: SCALE, wallets: c.wallets, ...DATASET, ...(anomalies ? { anomalies: 'all' as const } : {}) });
  try {
    const run = await runAgainstSimulator({ sim, spec: monthEnd(c.tz), tz: c.tz, ...engine.options() });
    return { sim, run };
  } finally {
    await sim.close();
  }
}

const key = (f: Pick<Finding, 'check_id' | 'subject_id'>): string => `${f.check_id}|${f.subject_id}`;
const notInfo = (findings: readonly Finding[]): string[] => findings.filter((f) => f.severity !== 'info').map((f) => `${f.severity} ${key(f)}: ${f.message}`);

const CLEAN_CASES: Case[] = [
  { seed: 7, wallets: 12, tz: 'America/New_York' },
  { seed: 3, wallets: 8, tz: 'UTC' },
  { seed: 11, wallets: 9, tz: 'America/Los_Angeles' },
];

describe.each(ENGINES)('reconciliation against the simulator on the $label', (engine) => {
  describe('a clean organization', () => {
    it.each(CLEAN_CASES)('reconciles clean and totals to the ground truth (seed $seed, $wallets wallets, $tz)', async (c) => {
      const { sim, run } = await reconcile(c, engine, false);
      try {
        const { outcome } = run;
        const result = outcome.report!.result;
        expect(notInfo(result.findings)).toEqual([]);
        expect(outcome.exitCode).toBe(0);
        expect(outcome.notClosed).toBeNull();
        expect((await run.csv('exceptions.csv')).filter((row) => row['severity'] !== 'info')).toEqual([]);

        const manifest = await run.manifest();
        // The summary checks ran: every wallet's summary reached the report (none skipped, none missing).
        for (const id of ['summary.total', 'summary.bucket', 'summary.missing']) {
          const check = manifest.checks.find((k) => k.check_id === id);
          expect(check, id).toMatchObject({ passed: true, skipped_reason: null });
          expect(check?.evaluated, id).toBeGreaterThan(0);
        }
        expect(manifest.checks.find((k) => k.check_id === 'summary.missing')?.evaluated).toBe(c.wallets);

        const window = monthEnd(c.tz).period.window;
        const truth = truthTotals(sim.dataset, window);
        expect(Object.keys(manifest.control_totals).sort()).toEqual(Object.keys(truth).sort());
        for (const [currency, t] of Object.entries(truth)) {
          const m = manifest.control_totals[currency]!;
          expect({
            payments: m['payments'],
            completed_payments: m['completed_payments'],
            failed_payments: m['failed_payments'],
            open_payments: m['open_payments'],
            principal_base: BigInt(m['principal_base']!),
            network_fee_base: BigInt(m['network_fee_base']!),
            processing_fee_base: BigInt(m['processing_fee_base']!),
            total_base: BigInt(m['total_base']!),
            ledger_entries: m['ledger_entries'],
            id_hash: m['id_hash'],
            ledger_id_hash: m['ledger_id_hash'],
          }, currency).toEqual(t);
          expect(m['unknown_fee_payments'], currency).toBe(0);
        }

        // Closing balance per wallet = the simulator's whole ledger (the dataset ends inside the window).
        const balances = await run.csv('balances.csv');
        expect(balances.map((b) => b['wallet_id']).sort()).toEqual(sim.dataset.wallets.map((w) => w.id).sort());
        for (const row of balances) {
          const wallet = row['wallet_id']!;
          expect(sim.dataset.ledgerEntries(wallet, { from: window.to })).toEqual([]);
          expect({ wallet, currency: row['currency'], closing: BigInt(row['closing_base']!) }).toEqual({
            wallet,
            currency: sim.dataset.walletBalance(wallet).currency,
            closing: sim.dataset.walletBalance(wallet).ledgerTotal,
          });
        }
      } finally {
        await run.cleanup();
      }
    });
  });

  describe('an organization with every anomaly planted', () => {
    const c: Case = { seed: 7, wallets: 12, tz: 'UTC' };

    it('finds each planted anomaly with the check meant for it, and nothing beyond the clean baseline', async () => {
      const clean = await reconcile(c, engine, false);
      const dirty = await reconcile(c, engine, true);
      try {
        const baseline = new Set(clean.run.outcome.report!.result.findings.map(key));
        const planted = dirty.sim.dataset.anomalies;
        expect(new Set(planted.map((a) => a.kind)).size).toBe(ANOMALY_KINDS.length);

        const found = dirty.run.outcome.report!.result.findings.filter((f) => !baseline.has(key(f)));
        const foundKeys = new Set(found.map(key));
        const allowed = new Set<string>();
        for (const anomaly of planted) {
          const expected = expectedFindings(anomaly, dirty.sim);
          for (const must of expected.must) expect(foundKeys, `${anomaly.kind}: ${anomaly.detail}`).toContain(must);
          for (const k of [...expected.must, ...expected.may]) allowed.add(k);
        }
        expect(found.filter((f) => !allowed.has(key(f))).map((f) => `${f.severity} ${key(f)}: ${f.message}`)).toEqual([]);
        expect(dirty.run.outcome.exitCode).toBe(65);
        // The files say the same as the run.
        const exceptions = new Set((await dirty.run.csv('exceptions.csv')).map((row) => `${row['check_id']}|${row['subject_id']}`));
        for (const k of foundKeys) expect(exceptions).toContain(k);
      } finally {
        await clean.run.cleanup();
        await dirty.run.cleanup();
      }
    });
  });
});

/**
 * What each planted anomaly must raise (`must`: the check meant to catch it, on the subject it
 * touched) and what it may raise besides as a direct consequence (`may`), as `check_id|subject_id`.
 */
function expectedFindings(a: PlantedAnomaly, sim: SimHandle): { must: string[]; may: string[] } {
  const payment = a.paymentId ?? '';
  switch (a.kind) {
    case 'missing_ledger_entry':
      return { must: [`completeness.payment_without_ledger|${payment}`], may: [] };
    case 'capture_amount_mismatch':
      return { must: [`payment.ledger_match|${payment}`], may: [] };
    case 'orphan_ledger_entry':
      // one finding per unknown payment id, naming the entry in its message
      return { must: [`completeness.ledger_without_payment|${payment}`], may: [] };
    case 'network_fee_above_max':
      return { must: [`payment.max_fee_exceeded|${payment}`], may: [] };
    case 'processing_fee_mismatch':
      // the settled fee now also differs from the terms (info)
      return { must: [`payment.processing_fee_rate|${payment}`], may: [`payment.fee_terms_vs_settled|${payment}`] };
    case 'balance_mismatch':
      return { must: [`balance.api_total|${a.walletId}`], may: [] };
    case 'currency_mismatch':
      // the wallet's ledger still books it in the wallet's currency
      return { must: [`data.currency_mismatch|${payment}`], may: [`payment.ledger_match|${payment}`] };
    case 'malformed_amount':
      // docs/reconciliation.md: a bare negative integer is read as signed and flagged, not refused;
      // it then disagrees with its deprecated msat twin and with the ledger.
      return /-500/.test(a.detail)
        ? { must: [`data.negative_amount|${payment}`], may: [`payment.legacy_disagreement|${payment}`, `payment.ledger_match|${payment}`] }
        : { must: [`data.malformed_amount|${payment}`], may: [] };
    case 'missing_fee':
      // unknown, never 0: the payment is left out of the fee sums and reported
      return { must: [`payment.fee_unknown|${payment}`], may: [] };
    // bill anomalies: one finding on the line item (`bill_id:wallet_id`) by the bill check meant for it
    case 'bill_processing_fee_overbilled':
      return { must: [`bill.line_processing_fees|${a.subjectId}`], may: [] };
    case 'bill_missing_line_item':
      return { must: [`bill.line_item_missing|${a.subjectId}`], may: [] };
    case 'bill_count_off_by_one':
      return { must: [`bill.line_counts|${a.subjectId}`], may: [] };
    case 'summary_count_off_by_one': {
      // subject `wallet|direction|status|currency|kind`: the bucket and every total above it
      const [walletId, direction, status, currency, kind] = a.subjectId.split('|') as [string, string, string, string, string];
      const bucket = `${direction}/${status}/${currency}/${kind}`;
      const loc = sim.wallets.find((w) => w.id === walletId)?.lineOfCreditId ?? null;
      return {
        must: [`summary.bucket|wallet:${walletId}:${bucket}`, `summary.total|wallet:${walletId}`, `summary.total|environment:${a.environmentId}`],
        may: loc === null ? [] : [`summary.bucket|line_of_credit:${loc}:${bucket}`, `summary.total|line_of_credit:${loc}`],
      };
    }
  }
}
