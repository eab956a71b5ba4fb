/**
 * The report behind the pull (docs/extraction.md#the-report-behind-the-pull): a wallet whose
 * streams are in is rendered while later wallets still pull, and the files do not depend on when
 * each wallet finished — the same bytes from a sequential pull, from a concurrent one with random
 * latency, and (from a database) `payexport report` rebuilding them from the snapshot afterwards —
 * on the spool, the Postgres server and the embedded engine. A pull that fails after wallets were rendered
 * publishes nothing and leaves no temporary folder. `npm test` runs both on the spool and the Postgres
 * server; the embedded engine (the same SQL on single-threaded WASM, most of this file's time) with
 * the long runs (docs/testing.md#one-of-each-in-npm-test-every-variant-in-the-long-runs).
 */
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { JOB_FLAGS } from '../../../src/jobs/pipeline-spec.js';
import type { PipelineSpec } from '../../../src/jobs/pipeline.js';
import type { Progress } from '../../../src/jobs/progress.js';
import { monthPeriod } from '../../../src/model/period.js';
import { startSimulator, type SimHandle } from '../../../src/sim/index.js';
import { runAgainstSimulator } from '../../support/pipeline/run-pipeline.js';
import { snapshotEngines, type SnapshotEngine } from '../../support/store/snapshot-engines.js';
import { reportFiles } from '../../support/sinks/report-files.js';
import { variantSkip } from '../../support/long-runs.js';

const MONTH = '2026-10';
const TZ = 'UTC';
const EMBEDDED: SnapshotEngine = { label: 'embedded engine', options: () => ({ flags: {} }) };
const OTHERS = await snapshotEngines('behind_pull');
// without a Postgres server the embedded engine is the one database here: `npm test` keeps it then
const ENGINES = [...OTHERS, EMBEDDED].map((engine) => ({ ...engine, skip: variantSkip(engine !== EMBEDDED || OTHERS.length < 2) }));

function spec(pull: boolean): PipelineSpec {
  return { command: pull ? 'export' : 'report', job: 'export', ...JOB_FLAGS.export, period: monthPeriod(MONTH, TZ, new Date()), pull, incremental: false, closePeriod: false, allowOpen: true, dryRun: false };
}

function expectSameFiles(actual: Map<string, Buffer>, expected: Map<string, Buffer>, what: string): void {
  expect([...actual.keys()].sort()).toEqual([...expected.keys()].sort());
  for (const [file, bytes] of expected) expect(actual.get(file)?.equals(bytes), `${what}: ${file}`).toBe(true);
}

/** Records the order of what the job reports: `phase:<name>` and the Payments sheet's growth. */
function recorder(): { progress: Progress; events: string[] } {
  const events: string[] = [];
  return {
    events,
    progress: {
      phase: (name) => events.push(`phase:${name}`),
      stream: () => undefined,
      sheet: (name) => {
        if (name === 'payments') events.push('sheet:payments');
      },
      stop: () => undefined,
    },
  };
}

let sim: SimHandle;

beforeAll(async () => {
  sim = await startSimulator({ seed: 5, scale: 400, wallets: 10, from: '2026-10-01', to: '2026-11-01' });
});

afterAll(async () => {
  await sim?.close();
});

describe.each(ENGINES)('the report behind the pull on the $label', (engine) => {
  const skipped = engine.skip === null ? '' : ` (skipped: ${engine.skip})`;
  it.skipIf(engine.skip !== null)(`renders wallets while later ones pull, and writes the same bytes whatever order they finish in${skipped}`, async () => {
    const formats = { formats: ['csv', 'xlsx'] as Array<'csv' | 'xlsx'> };
    // one chain at a time: wallets finish strictly in the report's order
    sim.setFaults(null);
    const first = engine.options();
    const sequential = await runAgainstSimulator({ sim, spec: spec(true), tz: TZ, ...first, flags: { ...first.flags, ...formats, concurrency: 1, pageSize: 50 } });
    // many chains, small pages, random latency: wallets finish in an order of their own
    sim.setFaults({ seed: 2, latencyMs: [0, 15] });
    const seen = recorder();
    const options = engine.options();
    const concurrent = await runAgainstSimulator({ sim, spec: spec(true), tz: TZ, ...options, flags: { ...options.flags, ...formats, concurrency: 8, pageSize: 7 }, progress: seen.progress });
    sim.setFaults(null);
    try {
      expect(sequential.outcome.exitCode).toBe(concurrent.outcome.exitCode);
      const expected = reportFiles(sequential.dir);
      expect([...expected.keys()].filter((f) => f.endsWith('.xlsx'))).toHaveLength(1);
      expectSameFiles(reportFiles(concurrent.dir), expected, 'concurrent pull');

      // the Payments sheet grew before the pull had ended: the report was behind it, not after it
      const reportPhase = seen.events.indexOf('phase:report');
      expect(reportPhase).toBeGreaterThan(0);
      expect(seen.events.indexOf('sheet:payments')).toBeGreaterThan(seen.events.indexOf('phase:pull'));
      expect(seen.events.indexOf('sheet:payments')).toBeLessThan(reportPhase);

      // `payexport report` from the concurrent run's snapshot, its folder removed first: the same bytes
      // (a database's; `report --no-db` is refused, docs/contracts.md)
      if (engine.label.startsWith('spool')) return;
      rmSync(concurrent.dir, { recursive: true, force: true });
      const rebuilt = await runAgainstSimulator({ sim, spec: spec(false), tz: TZ, ...options, flags: { ...options.flags, ...formats }, cwd: concurrent.cwd });
      expect(rebuilt.dir).toBe(concurrent.dir);
      expectSameFiles(reportFiles(rebuilt.dir), expected, 'rebuilt by report');
    } finally {
      await sequential.cleanup();
      await concurrent.cleanup();
    }
  }, 240_000);

  it.skipIf(engine.skip !== null)(`a pull that fails after wallets were rendered publishes nothing and leaves no temporary folder${skipped}`, async () => {
    const last = [...sim.wallets].map((w) => w.id).sort().at(-1)!;
    // the report's last wallet cannot be read: every wallet before it is rendered, then the pull fails
    sim.setFaults({ schedule: [{ fault: '500', first: 1_000, path: `*/wallets/${last}/ledger` }] });
    const options = engine.options();
    const seen = recorder();
    const failedCwd = mkdtempSync(join(tmpdir(), 'payexport-behind-'));
    try {
      await expect(
        runAgainstSimulator({ sim, spec: spec(true), tz: TZ, ...options, flags: { ...options.flags, formats: ['csv', 'xlsx'], concurrency: 2, pageSize: 20, retry: { maxAttempts: 1, runBudget: 0, maxDelayMs: 0 } }, progress: seen.progress, cwd: failedCwd }),
      ).rejects.toThrow(/500|status|ledger/i);
    } finally {
      sim.setFaults(null);
    }
    expect(seen.events).toContain('sheet:payments');
    expect(seen.events).not.toContain('phase:report');
    const exportFolder = join(failedCwd, 'reports', 'export');
    // neither a published folder nor a temporary one (the spool's state folder aside)
    const left = existsSync(exportFolder) ? readdirSync(exportFolder).filter((name) => name !== '.state') : [];
    expect(left).toEqual([]);
    rmSync(failedCwd, { recursive: true, force: true });
  }, 120_000);
});
