import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { JOB_FLAGS } from '../../../src/jobs/pipeline-spec.js';
import type { PipelineSpec } from '../../../src/jobs/pipeline.js';
import { buildRunMessage } from '../../../src/notify/run-message.js';
import { renderEmail } from '../../../src/notify/render-email.js';
import { startSimulator, type SimHandle } from '../../../src/sim/index.js';
import { AppError } from '../../../src/util/errors.js';
import { SecretScrubber } from '../../../src/util/secret-scrubber.js';
import { monthPeriod } from '../../../src/model/period.js';
import { runAgainstSimulator, type PipelineRun } from '../../support/pipeline/run-pipeline.js';

/**
 * The message built from a real month-end (the pipeline against the simulator, spool snapshot):
 * close status and tie-out said as the run decided them, exceptions in words with wallet names and
 * display amounts, the manifest's sha256 — and a failed run's reason scrubbed of secrets.
 */

let sim: SimHandle;
const runs: PipelineRun[] = [];

beforeAll(async () => {
  sim = await startSimulator({ seed: 5, scale: 300, anomalies: 'all' });
});

afterAll(async () => {
  for (const run of runs) await run.cleanup();
  await sim?.close();
});

const monthEnd = (allowOpen: boolean): PipelineSpec => ({
  command: 'month-end',
  job: 'month-end',
  ...JOB_FLAGS['month-end'],
  period: monthPeriod('2026-10', 'UTC', new Date()),
  pull: true,
  incremental: false,
  closePeriod: true,
  allowOpen,
  dryRun: false,
});

async function message(run: PipelineRun, spec: PipelineSpec) {
  return buildRunMessage({
    runId: run.outcome.runId,
    job: 'month-end',
    command: 'month-end',
    period: spec.period.label,
    window: spec.period.window,
    organizationId: sim.organizationId,
    startedAt: new Date('2026-11-02T06:30:00Z'),
    finishedAt: new Date('2026-11-02T06:31:05Z'),
    outcome: run.outcome,
    error: undefined,
    maxExceptions: 3,
    scrubber: new SecretScrubber(),
  });
}

describe('a month-end run, in words', () => {
  it('open items: NOT closed with the reason; the first exceptions with wallet names and amounts', async () => {
    const spec = monthEnd(false);
    const run = await runAgainstSimulator({ sim, spec, tz: 'UTC', flags: { db: false } });
    runs.push(run);
    const m = await message(run, spec);
    expect(m.exit_code).toBe(run.outcome.exitCode);
    expect(m.close_status).toBe('not-closed');
    expect(m.close).toMatch(/^NOT closed: 2026-10 has \d+ open item\(s\)/);
    expect(m.open_items).toBe(run.outcome.report!.result.openItems.length);
    const findings = run.outcome.report!.result.findings;
    expect(m.counts).toEqual({
      errors: findings.filter((f) => f.severity === 'error').length,
      warnings: findings.filter((f) => f.severity === 'warning').length,
      notes: findings.filter((f) => f.severity === 'info').length,
    });
    expect(m.ties_out).toBe(m.counts.errors === 0);
    expect(m.exceptions.length).toBe(Math.min(3, findings.length));
    expect(m.exceptions_not_listed).toBe(findings.length - m.exceptions.length);
    // errors come first
    const order = { error: 0, warning: 1, info: 2 } as const;
    expect(m.exceptions.map((e) => order[e.severity])).toEqual([...m.exceptions.map((e) => order[e.severity])].sort());
    const names = new Map(sim.wallets.map((w) => [w.id, w.name]));
    for (const e of m.exceptions) {
      if (e.wallet_id !== null) expect(e.wallet_name).toBe(names.get(e.wallet_id));
      for (const amount of [e.expected, e.actual, e.difference]) if (amount !== null && e.currency !== null && /\d\.\d/.test(amount)) expect(amount).toMatch(/^-?\d+\.\d+ \S+$/);
      expect(e.text).toContain(e.check_id);
    }
    expect(m.report).toEqual({ folder: run.dir, manifest_sha256: createHash('sha256').update(readFileSync(join(run.dir, 'manifest.json'))).digest('hex') });
    expect(m.duration_ms).toBe(65_000);
    expect(renderEmail(m).text).toMatch(/^Duration:\s+1 min 5 s$/m);
  });

  it('--allow-open: closed', async () => {
    const spec = monthEnd(true);
    const run = await runAgainstSimulator({ sim, spec, tz: 'UTC', flags: { db: false } });
    runs.push(run);
    const m = await message(run, spec);
    // a fresh working folder: the month was not closed before this run
    expect(m).toMatchObject({ close_status: 'closed', close: 'closed' });
  });

  it('a failed run: no report, the reason in one line with secrets scrubbed', async () => {
    const secret = 'vltg_PLANTED-in-an-error-message-1234';
    const m = await buildRunMessage({
      runId: 'r1',
      job: 'nightly',
      command: 'nightly',
      period: '2026-11-20',
      window: null,
      organizationId: null,
      startedAt: new Date(0),
      finishedAt: new Date(1000),
      outcome: null,
      error: new AppError('noPerm', 'credentials_rejected', `the API refused the key ${secret}\nsecond line`),
      maxExceptions: 5,
      scrubber: new SecretScrubber([secret]),
    });
    expect(m).toMatchObject({ status: 'failed', exit_code: 77, ties_out: null, report: null, open_items: null, close_status: 'not-applicable' });
    expect(m.failure).toEqual({ type: 'credentials_rejected', message: 'the API refused the key [REDACTED]' });
    expect(JSON.stringify(m)).not.toContain(secret);
    expect(m.headline).toBe('payexport nightly 2026-11-20: FAILED (exit 77) — the API refused the key [REDACTED]');
  });
});
