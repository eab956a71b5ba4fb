/**
 * Month-end fee assurance against the simulator (issue 17, "Done when"): the real pipeline pulls the
 * service's bills beside the payments and ledger, and the bill checks report every planted bill
 * anomaly on the line item it touched — and no other bill finding beyond one note per bill the
 * window overlaps but another report ties. A bill is for the service's period in UTC; a month-end
 * in any zone ties the bills whose period its window holds the larger part of, against the payments
 * of the whole period (those outside the window pulled beside it, never in the month's own files):
 * the planted errors are found in UTC, New York, Tokyo and Kiritimati (UTC+14) alike. Run on the
 * spool and, when DATABASE_URL is set, on the real Postgres server.
 */
import { describe, expect, it } from 'vitest';
import { JOB_FLAGS } from '../../src/jobs/pipeline-spec.js';
import type { PipelineSpec } from '../../src/jobs/pipeline.js';
import type { Finding } from '../../src/model/results.js';
import type { Window } from '../../src/model/window.js';
import { BILL_ANOMALY_KINDS } from '../../src/sim/dataset/anomaly-kinds.js';
import { startSimulator, type SimHandle } from '../../src/sim/index.js';
import { monthPeriod } from '../../src/model/period.js';
import { readCsvWithPython, readersMissing, readXlsxWithOpenpyxl } from '../support/readers/readers.js';
import { runAgainstSimulator, type PipelineRun } from '../support/pipeline/run-pipeline.js';
import { snapshotEngines, type SnapshotEngine } from '../support/store/snapshot-engines.js';
import { truthTotals } from '../support/sim/truth.js';

const MONTH = '2026-10';
const DATASET = { seed: 7, scale: 1_200, wallets: 12, from: '2026-10-01', to: '2026-11-01' } as const;
/** UTC, a zone behind it (its month starts 4 hours into the service's), two ahead (9 and 14 hours before its end) */
const ZONES = ['UTC', 'America/New_York', 'Asia/Tokyo', 'Pacific/Kiritimati'] as const;
/** a month-end run three days after the month: every bill of October is issued */
const NOW = new Date('2026-11-04T12:00:00Z');

const ENGINES = await snapshotEngines('reconcile_bills');

const monthEnd = (tz: string): PipelineSpec => ({ command: 'month-end', job: 'month-end', ...JOB_FLAGS['month-end'], period: monthPeriod(MONTH, tz, NOW), pull: true, incremental: false, closePeriod: true, allowOpen: true, dryRun: false });

const key = (f: Pick<Finding, 'check_id' | 'subject_id'>): string => `${f.check_id}|${f.subject_id}`;
const billFindings = (findings: readonly Finding[]): string[] => findings.filter((f) => f.check_id.startsWith('bill.')).map(key).sort();

/**
 * The notes a month-end must give: one per bill it overlaps that another report ties — the one
 * whose window holds the period's midpoint and at least half of it (worked out here from the
 * simulator's own bills, in milliseconds: the service's periods start on whole seconds).
 */
function notesFor(sim: SimHandle, window: Window): string[] {
  const [from, to] = [Date.parse(window.from), Date.parse(window.to)];
  return sim.dataset.bills
    .all()
    .map((b) => b.wire as { id: string; start_time: string; end_time: string })
    .filter((b) => {
      const [start, end] = [Date.parse(b.start_time), Date.parse(b.end_time)];
      if (!(start < to && end > from)) return false;
      const middle = start + (end - start) / 2;
      const held = Math.min(end, to) - Math.max(start, from);
      return !(from <= middle && middle < to && 2 * held >= end - start);
    })
    .map((b) => `bill.period_outside_window|${b.id}`)
    .sort();
}

async function reconcile(engine: SnapshotEngine, anomalies: boolean, tz: string): Promise<{ sim: SimHandle; run: PipelineRun }> {
  const sim = await startSimulator({ ...DATASET, ...(anomalies ? { anomalies: [...BILL_ANOMALY_KINDS] } : {}) });
  try {
    const options = engine.options();
    return { sim, run: await runAgainstSimulator({ sim, spec: monthEnd(tz), tz, ...options, flags: { formats: ['csv', 'xlsx'], ...options.flags } }) };
  } finally {
    await sim.close();
  }
}

const EXPECTED_CHECK: Record<(typeof BILL_ANOMALY_KINDS)[number], string> = {
  bill_processing_fee_overbilled: 'bill.line_processing_fees',
  bill_missing_line_item: 'bill.line_item_missing',
  bill_count_off_by_one: 'bill.line_counts',
};

const readers = readersMissing('both');

/**
 * bills.csv through Python's csv module and the Bills sheet through openpyxl: the manifest's row
 * counts, the run's own rows, and the planted line items as `differs` / `no_line_item`.
 */
async function expectBillsFilesReadBack(run: PipelineRun, plantedSubjects: string[]): Promise<void> {
  const manifest = (await run.manifest()) as unknown as { files: Array<{ path: string; rows: number; sheets?: Array<{ name: string; rows: number }> }> };
  const rows = run.outcome.report!.result.bills;
  const csvFile = manifest.files.find((f) => f.path === 'bills.csv');
  const csv = readCsvWithPython(`${run.dir}/bills.csv`);
  expect(csv.records).toBe(csvFile?.rows);
  expect(csv.records).toBe(rows.length);
  const col = (name: string): number => csv.header.indexOf(name);
  const keyed = csv.rows.map((r) => ({ subject: `${r[col('bill_id')]}:${r[col('wallet_id')]}`, figure: r[col('figure')], status: r[col('status')], billed: r[col('billed_base')], computed: r[col('computed_base')], difference: r[col('difference_base')] }));
  for (const subject of plantedSubjects) expect(keyed.some((r) => r.subject === subject && (r.status === 'differs' || r.status === 'no_line_item')), subject).toBe(true);
  for (const r of keyed.filter((x) => x.status === 'differs')) expect(BigInt(r.billed!) - BigInt(r.computed!)).toBe(BigInt(r.difference!));
  expect(keyed.filter((r) => r.status === 'differs' || r.status === 'no_line_item')).toHaveLength(plantedSubjects.length);

  const sheets = readXlsxWithOpenpyxl(`${run.dir}/report.xlsx`, { cells: true, sheets: ['Bills', 'Fee rates'] });
  const bills = sheets.find((sh) => sh.name === 'Bills');
  const declared = manifest.files.find((f) => f.path === 'report.xlsx')?.sheets?.find((sh) => sh.name === 'Bills');
  expect(bills?.max_row).toBe(declared?.rows);
  expect(bills?.max_row).toBe(rows.length + 1);
  const header = (bills?.rows?.[0] ?? []).map((c) => c.v);
  const statusAt = header.indexOf('status');
  expect(new Set((bills?.rows ?? []).slice(1).map((r) => r[statusAt]?.v))).toEqual(new Set(keyed.map((r) => r.status)));

  // the fee-rate history: one period per fee-bearing wallet and direction (the simulator never changes a rate)
  const rates = readCsvWithPython(`${run.dir}/fee-rates.csv`);
  expect(rates.records).toBe(manifest.files.find((f) => f.path === 'fee-rates.csv')?.rows);
  expect(rates.records).toBe(run.outcome.report!.result.feeRates.length);
  expect(rates.records).toBeGreaterThan(0);
  const sheet = sheets.find((sh) => sh.name === 'Fee rates');
  expect(sheet?.max_row).toBe(manifest.files.find((f) => f.path === 'report.xlsx')?.sheets?.find((sh) => sh.name === 'Fee rates')?.rows);
  expect(sheet?.max_row).toBe(rates.records + 1);
  const toAt = rates.header.indexOf('to_utc');
  expect(rates.rows.every((r) => r[toAt] === '')).toBe(true);
}

/**
 * The month's own files hold the window's payments and no other: the payments of bill periods
 * pulled beside the window change nothing but the bills (payments.csv read back, and the control
 * totals against the simulator's truth for the zone's window).
 */
async function expectOnlyTheWindowsPayments(sim: SimHandle, run: PipelineRun, window: Window): Promise<void> {
  const payments = await run.csv('payments.csv');
  expect(payments.length).toBeGreaterThan(0);
  const outside = payments.filter((p) => !(p['created_at_utc']! >= window.from && p['created_at_utc']! < window.to));
  expect(outside.map((p) => p['payment_id'])).toEqual([]);
  const manifest = await run.manifest();
  for (const [currency, truth] of Object.entries(truthTotals(sim.dataset, window))) {
    expect({ currency, payments: manifest.control_totals[currency]?.['payments'], id_hash: manifest.control_totals[currency]?.['id_hash'] }).toEqual({ currency, payments: truth.payments, id_hash: truth.id_hash });
  }
}

describe.each(ENGINES)('bill checks against the simulator on the $label', (engine) => {
  it.each(['UTC', 'America/New_York'])('a clean month in %s: the bills tie to the payments; the only bill findings are the notes on bills another report ties', async (tz) => {
    const { sim, run } = await reconcile(engine, false, tz);
    try {
      const result = run.outcome.report!.result;
      const window = monthEnd(tz).period.window;
      expect(billFindings(result.findings)).toEqual(notesFor(sim, window));
      expect(run.outcome.exitCode).toBe(0);
      // the checks really ran: line items compared, on monthly and weekly bills
      const manifest = await run.manifest();
      for (const id of ['bill.line_amounts', 'bill.line_counts', 'bill.line_processing_fees', 'bill.line_activity', 'bill.starting_balance', 'bill.internal_totals', 'bill.summary_count']) {
        const check = manifest.checks.find((k) => k.check_id === id);
        expect(check, id).toMatchObject({ passed: true, skipped_reason: null });
        expect(check?.evaluated, id).toBeGreaterThan(0);
      }
      expect(new Set(result.bills.filter((r) => r.status === 'ok').map((r) => r.period_length))).toEqual(new Set(['monthly', 'weekly']));
      expect(new Set(result.bills.filter((r) => r.status === 'ok').map((r) => r.currency))).toEqual(new Set(['btc', 'usd']));
      // every bill the month ties is compared whole, the ones reaching past the window included
      const tied = new Set(result.bills.filter((r) => r.status !== 'not_checked').map((r) => r.bill_id));
      expect(tied.size).toBe(sim.dataset.bills.all().length - notesFor(sim, window).length);
      expect(result.bills.some((r) => r.status === 'ok' && (r.start_time < window.from || r.end_time > window.to))).toBe(true);
      await expectOnlyTheWindowsPayments(sim, run, window);
      // the wallet policies' current rates: each fee-bearing wallet's latest rate per direction is the
      // simulator's, confirmed by the payments or, for a direction without standard payments, the policy alone
      const feeWallets = sim.dataset.wallets.filter((w) => w.processingFee !== null && w.hasPolicies);
      expect(feeWallets.length).toBeGreaterThan(0);
      for (const w of feeWallets) {
        for (const direction of ['receive', 'send'] as const) {
          const latest = result.feeRates.filter((r) => r.wallet_id === w.id && r.direction === direction).at(-1);
          expect({ wallet: w.id, direction, rate: latest?.rate_bps }).toEqual({ wallet: w.id, direction, rate: direction === 'send' ? w.processingFee?.sendBps : w.processingFee?.receiveBps });
          expect(latest?.evidence).toMatch(/^(payments\+policy|policy): /);
          if (latest?.evidence.startsWith('policy: ')) expect([latest.from, latest.payments]).toEqual([null, 0]);
        }
      }
      expect(result.feeRates.some((r) => r.evidence.startsWith('payments+policy: '))).toBe(true);
      expect(manifest.checks.find((k) => k.check_id === 'fee_rate.policy_mismatch')).toMatchObject({ passed: true, findings: 0 });
    } finally {
      await run.cleanup();
    }
  });

  it.each(ZONES)(`planted bill anomalies, month-end in %s: each is found by the check meant for it on the line item it touched, and nothing else${readers === null ? '; bills.csv and the Bills sheet read back by Python csv and openpyxl' : ` (files not read back: ${readers})`}`, async (tz) => {
    const { sim, run } = await reconcile(engine, true, tz);
    try {
      const window = monthEnd(tz).period.window;
      const planted = sim.dataset.anomalies;
      expect(planted.map((a) => a.kind).sort()).toEqual([...BILL_ANOMALY_KINDS].sort());
      const expected = [...planted.map((a) => `${EXPECTED_CHECK[a.kind as (typeof BILL_ANOMALY_KINDS)[number]]}|${a.subjectId}`), ...notesFor(sim, window)].sort();
      const found = run.outcome.report!.result.findings;
      expect([...new Set(billFindings(found))].sort()).toEqual(expected);
      // nothing but bill findings changed: the payments themselves are clean
      expect(found.filter((f) => !f.check_id.startsWith('bill.') && f.severity !== 'info').map(key)).toEqual([]);
      expect(run.outcome.exitCode).toBe(65);
      // the three checks that find them report as they do in UTC: run, each with its one finding
      const manifest = await run.manifest();
      for (const id of new Set(Object.values(EXPECTED_CHECK))) {
        expect(manifest.checks.find((k) => k.check_id === id), id).toMatchObject({ passed: false, findings: 1, skipped_reason: null });
      }
      // each finding carries both figures and the payments behind it
      for (const f of found.filter((x) => x.check_id === 'bill.line_processing_fees' || x.check_id === 'bill.line_counts')) {
        expect(f.expected).not.toBeNull();
        expect(f.actual).not.toBeNull();
        expect(BigInt(f.actual!) - BigInt(f.expected!)).toBe(BigInt(f.difference!));
        expect(f.message).toMatch(/behind it: \d+ completed (send|receive)\(s\) created in the period, e\.g\. [0-9a-f-]{36}/);
      }
      const exceptions = new Set((await run.csv('exceptions.csv')).map((row) => `${row['check_id']}|${row['subject_id']}`));
      for (const k of expected) expect(exceptions).toContain(k);
      await expectOnlyTheWindowsPayments(sim, run, window);
      if (readers === null) await expectBillsFilesReadBack(run, planted.map((a) => a.subjectId));
    } finally {
      await run.cleanup();
    }
  });
});
