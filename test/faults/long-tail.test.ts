import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describeRun, runCli, startCli } from '../support/cli/cli.js';
import { PLANTED_SECRETS, startTestSim, type TestSim } from '../support/cli/sim.js';
import { workspace } from '../support/cli/workspace.js';
import { compareIds, csvRecords, expectExit, expectFolderUnchanged, expectNoPartialFolders, expectPaymentsComplete, expectSameReport, folderBytes } from './support/invariants.js';
import { LONG_TAIL, longTitle, OCTOBER, PERIOD } from './support/setting.js';
import { startReferenceRun } from './support/reference-run.js';
import { seededRandom } from '../../src/sim/core/prng.js';

/**
 * The long tail (`npm run test:faults`): the same invariants over more seeds, a larger dataset and
 * kills at random moments rather than named points. Skipped, saying so, in the default `npm test`.
 */

const ws = workspace('faults-long');
const SCALE = 1_500;
let sim: TestSim;
let truth: string[];
let reference: string;

describe.skipIf(!LONG_TAIL)(longTitle('long tail: more seeds, a larger dataset, kills at random moments'), () => {
  beforeAll(async () => {
    ({ sim, truth, reference } = await startReferenceRun(ws, { seed: 21, scale: SCALE }));
  });

  afterAll(async () => {
    await sim?.close();
    ws.remove();
  });

  it.each([1, 2, 3])('a mix of every transient fault (seed %i): the same files as a clean run, every payment once', async (seed) => {
    const cwd = ws.fresh(`soak-${seed}`);
    const args = ['export', ...OCTOBER, '--no-db', '--page-size', '25'];
    sim.sim.setFaults(`seed=${seed},503=0.05:retry-after=0,500=0.02,502=0.02,504=0.02,429=0.03:retry-after=0,reset=0.02,truncate=0.02,dup=0.05,drip=0.005:5ms:64`);
    try {
      expectExit(args, await runCli(args, { cwd, env: sim.env('token') }), 0, { secrets: PLANTED_SECRETS, dirs: [cwd] });
    } finally {
      sim.sim.setFaults(null);
    }
    expectSameReport(join(cwd, 'reports/export', PERIOD), reference, `soak seed ${seed}`);
    expectPaymentsComplete(join(cwd, 'reports/export', PERIOD), truth, `soak seed ${seed}`);
  });

  it.each([1, 2, 3])('SIGKILL at random moments, three times in a row, then run to the end (seed %i)', async (seed) => {
    // the same seed kills at the same moments
    const next = seededRandom(seed);
    const slow = await startTestSim({ dataset: sim.sim.dataset, faults: 'latency=2-12ms' });
    const cwd = ws.fresh(`random-kill-${seed}`);
    const args = ['export', ...OCTOBER, '--no-db', '--page-size', '20'];
    try {
      for (let kill = 0; kill < 3; kill++) {
        const running = startCli(args, { cwd, env: slow.env('token') });
        await running.waitForStderr(/"phase":"discovery"/).catch(() => undefined);
        await new Promise((resolve) => setTimeout(resolve, 100 + Math.floor(next() * 1_500)));
        running.child.kill('SIGKILL');
        const result = await running.result;
        // a run may have finished before the kill: then it must have succeeded
        if (result.signal === null) expect(result.code, describeRun(args, result)).toBe(0);
        expect(existsSync(join(cwd, 'reports/export', PERIOD)) || result.signal === 'SIGKILL').toBe(true);
      }
      expectExit(args, await runCli(args, { cwd, env: slow.env('token') }), 0, { secrets: PLANTED_SECRETS, dirs: [cwd] });
    } finally {
      await slow.close();
    }
    expect(expectNoPartialFolders(join(cwd, 'reports'), 'export')).toEqual([PERIOD]);
    expectSameReport(join(cwd, 'reports/export', PERIOD), reference, `random kills, seed ${seed}`);
    expectPaymentsComplete(join(cwd, 'reports/export', PERIOD), truth, `random kills, seed ${seed}`);
  });

  it.each([7, 8, 9])('pages that drop items at random (seed %i): every payment is listed, or its wallet is flagged (never a silent gap)', async (seed) => {
    const cwd = ws.fresh(`gap-${seed}`);
    const args = ['export', ...OCTOBER, '--no-db', '--page-size', '7'];
    sim.sim.setFaults(`seed=${seed},gap=0.3,paths=*/payments`);
    let code: number | null;
    try {
      const result = await runCli(args, { cwd, env: sim.env('token') });
      code = result.code;
      expect([0, 65], describeRun(args, result)).toContain(code);
    } finally {
      sim.sim.setFaults(null);
    }
    const dir = join(cwd, 'reports/export', PERIOD);
    const { lost, doubled, extra } = compareIds(csvRecords(join(dir, 'payments.csv')).map((r) => r['payment_id'] ?? ''), truth);
    expect({ doubled, extra }).toEqual({ doubled: [], extra: [] });
    const flagged = new Set(csvRecords(join(dir, 'exceptions.csv')).filter((f) => f['check_id'] === 'summary.total' && f['severity'] === 'error').map((f) => f['subject_id']));
    for (const id of lost) expect(flagged, id).toContain(`wallet:${(sim.sim.dataset.getPayment(id) as { wallet_id: string }).wallet_id}`);
    expect(code).toBe(lost.length > 0 ? 65 : 0);
  });

  it('a closed month re-run killed while writing its files: the closed folder is untouched, no amendment appears, the rerun finds nothing to amend', async () => {
    const cwd = ws.fresh('closed-month');
    const args = ['month-end', '--month', '2026-10', '--no-db', '--allow-open'];
    const closed = await runCli(args, { cwd, env: sim.env('token') });
    expect([0, 65], describeRun(args, closed)).toContain(closed.code);
    const folder = join(cwd, 'reports/month-end/2026-10');
    const before = folderBytes(folder);

    const killed = await runCli(args, { cwd, env: { ...sim.env('token'), PAYEXPORT_FAULT_AT: 'report:csv:file=ledger.csv:rows=10' } });
    expect(killed.signal, describeRun(args, killed)).toBe('SIGKILL');
    expectFolderUnchanged(folder, before, 'the closed month');
    const rerun = await runCli(args, { cwd, env: sim.env('token') });
    expect(rerun.code, describeRun(args, rerun)).toBe(closed.code);
    expectFolderUnchanged(folder, before, 'the closed month after the rerun');
    expect(readdirSync(join(cwd, 'reports/month-end'))).toEqual(['2026-10']);
  });
});
