/**
 * The bills at a zone boundary (docs/reconciliation.md "Bill checks"): a bill is for the service's
 * period in UTC, a month-end in New York starts four hours later, so September's month-end there
 * overlaps October's first hours — and with them October's bill and the week of 28 September. Each
 * bill is tied by exactly one of the two month-ends (the one whose window holds the larger part of
 * its period), the other lists it with a note; every planted bill error is found once. October's
 * month-end gives the same files whether its snapshot already holds September's month (a Postgres
 * server that ran it, when DATABASE_URL is set) or holds nothing else (a fresh spool), and whether
 * the pull reads each wallet's payments or each environment's whole.
 */
import { describe, expect, it } from 'vitest';
import { JOB_FLAGS } from '../../src/jobs/pipeline-spec.js';
import type { PipelineSpec } from '../../src/jobs/pipeline.js';
import type { BillCheckRow, Finding } from '../../src/model/results.js';
import { monthPeriod } from '../../src/model/period.js';
import { BILL_ANOMALY_KINDS } from '../../src/sim/dataset/anomaly-kinds.js';
import { startSimulator } from '../../src/sim/index.js';
import { runAgainstSimulator, type PipelineRun } from '../support/pipeline/run-pipeline.js';
import { reportFiles } from '../support/sinks/report-files.js';
import { probePostgres } from '../support/store/engines.js';
import { snapshotEngines } from '../support/store/snapshot-engines.js';

const TZ = 'America/New_York';
const NOW = new Date('2026-11-04T12:00:00Z');
const DATASET = { seed: 7, scale: 2_000, wallets: 12, from: '2026-09-01', to: '2026-11-01', anomalies: [...BILL_ANOMALY_KINDS] } as const;
const ENGINES = await snapshotEngines('bills_zones');
const pg = await probePostgres();

const monthEnd = (month: string): PipelineSpec => ({ command: 'month-end', job: 'month-end', ...JOB_FLAGS['month-end'], period: monthPeriod(month, TZ, NOW), pull: true, incremental: false, closePeriod: true, allowOpen: true, dryRun: false });

const tiedBills = (rows: readonly BillCheckRow[]): Set<string> => new Set(rows.filter((r) => r.status !== 'not_checked').map((r) => r.bill_id));
const notedBills = (findings: readonly Finding[]): Set<string> => new Set(findings.filter((f) => f.check_id === 'bill.period_outside_window').map((f) => f.subject_id));
const billErrors = (findings: readonly Finding[]): string[] => findings.filter((f) => f.check_id.startsWith('bill.') && f.severity === 'error').map((f) => `${f.check_id}|${f.subject_id}`);

describe('bills across a zone boundary: September and October month-ends in New York', () => {
  it('tie each bill once, find each planted error once, and October gives the same files on a snapshot that holds September', async () => {
    const sim = await startSimulator(DATASET);
    const runs: PipelineRun[] = [];
    try {
      // one snapshot for both months: the Postgres server when there is one, else each month's spool
      const shared = ENGINES.at(-1)!.options();
      const september = await runAgainstSimulator({ sim, spec: monthEnd('2026-09'), tz: TZ, ...shared });
      runs.push(september);
      const october = await runAgainstSimulator({ sim, spec: monthEnd('2026-10'), tz: TZ, ...shared, cwd: september.cwd });
      runs.push(october);
      const alone = await runAgainstSimulator({ sim, spec: monthEnd('2026-10'), tz: TZ, ...ENGINES[0]!.options() });
      runs.push(alone);

      const [sep, oct] = [september, october].map((run) => run.outcome.report!.result);
      const bills = sim.dataset.bills.all().map((b) => b.wire as { id: string; start_time: string; end_time: string });
      const overlapping = (window: { from: string; to: string }): string[] => bills.filter((b) => Date.parse(b.start_time) < Date.parse(window.to) && Date.parse(b.end_time) > Date.parse(window.from)).map((b) => b.id);
      const windows = [monthEnd('2026-09'), monthEnd('2026-10')].map((s) => s.period.window);

      // the boundary: October's bill and the week of 28 September reach into September's window in
      // New York, but October's holds the larger part of each — September notes them, October ties them
      const straddling = bills.filter((b) => b.start_time < windows[0]!.to && b.end_time > windows[0]!.to).map((b) => b.id);
      expect(straddling.length).toBeGreaterThanOrEqual(2);
      for (const id of straddling) {
        expect(notedBills(sep!.findings).has(id), id).toBe(true);
        expect(tiedBills(oct!.bills).has(id), id).toBe(true);
      }
      // each bill either month overlaps is tied by exactly one of them, and noted by the other
      const all = new Set([...overlapping(windows[0]!), ...overlapping(windows[1]!)]);
      const [tiedSep, tiedOct] = [tiedBills(sep!.bills), tiedBills(oct!.bills)];
      expect([...tiedSep].filter((id) => tiedOct.has(id))).toEqual([]);
      expect(new Set([...tiedSep, ...tiedOct])).toEqual(all);
      for (const [noted, window, tied] of [[notedBills(sep!.findings), windows[0]!, tiedSep], [notedBills(oct!.findings), windows[1]!, tiedOct]] as const) {
        expect(new Set([...noted, ...tied])).toEqual(new Set(overlapping(window)));
        expect([...noted].filter((id) => tied.has(id))).toEqual([]);
      }
      // every planted bill error is found, once across the two months
      const planted = sim.dataset.anomalies.map((a) => a.subjectId).sort();
      expect(planted).toHaveLength(BILL_ANOMALY_KINDS.length);
      const found = [...billErrors(sep!.findings), ...billErrors(oct!.findings)];
      expect(found.map((k) => k.split('|')[1]!).sort()).toEqual(planted);

      // the same October whatever the snapshot holds besides it
      const expected = reportFiles(alone.dir);
      const actual = reportFiles(october.dir);
      expect([...actual.keys()].sort()).toEqual([...expected.keys()].sort());
      for (const [file, bytes] of expected) expect(actual.get(file)?.equals(bytes), `${file} (${pg.url === null ? 'spool' : 'Postgres after September'} against a fresh spool)`).toBe(true);
    } finally {
      for (const run of runs) await run.cleanup();
      await sim.close();
    }
  }, 300_000);

  it("October read per wallet or with each environment's payments read whole: the same bills, and the periods beyond the window read per wallet or per environment accordingly", async () => {
    const sim = await startSimulator(DATASET);
    const runs: PipelineRun[] = [];
    const window = monthEnd('2026-10').period.window;
    /** the list reads beyond the window: the bill periods' (the month-end's own window and its orphans aside) */
    const beyond = () =>
      sim.requestLog
        .entries()
        .filter((e) => /\/environments\/[^/]+\/payments$/.test(e.path))
        .map((e) => new URLSearchParams(e.query))
        .filter((q) => q.get('start_date') !== null && q.get('start_date')! < window.from);
    try {
      const modes = [] as Array<{ files: Map<string, Buffer>; reads: URLSearchParams[] }>;
      for (const paymentsRead of ['wallet', 'environment'] as const) {
        sim.requestLog.clear();
        const spool = ENGINES[0]!.options();
        const run = await runAgainstSimulator({ sim, spec: monthEnd('2026-10'), tz: TZ, ...spool, flags: { ...spool.flags, paymentsRead } });
        runs.push(run);
        modes.push({ files: reportFiles(run.dir), reads: beyond() });
      }
      const [perWallet, whole] = modes as [(typeof modes)[number], (typeof modes)[number]];
      expect(perWallet.reads.length).toBeGreaterThan(0);
      expect(perWallet.reads.every((q) => q.has('wallet_id'))).toBe(true);
      expect(whole.reads.length).toBeGreaterThan(0);
      expect(whole.reads.every((q) => !q.has('wallet_id'))).toBe(true);
      expect(whole.reads.length).toBeLessThan(perWallet.reads.length);
      for (const file of ['bills.csv', 'exceptions.csv', 'payments.csv']) expect(whole.files.get(file)?.equals(perWallet.files.get(file)!), file).toBe(true);
    } finally {
      for (const run of runs) await run.cleanup();
      await sim.close();
    }
  }, 300_000);
});
