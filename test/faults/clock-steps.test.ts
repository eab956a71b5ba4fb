import { existsSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describeRun, runCli, startCli } from '../support/cli/cli.js';
import { PLANTED_SECRETS, startTestSim, type TestSim } from '../support/cli/sim.js';
import { workspace } from '../support/cli/workspace.js';
import { expectExit, expectNoPartialFolders, expectPaymentsComplete, expectSameReport } from './support/invariants.js';
import { LONG_TAIL, longTitle, OCTOBER, PERIOD } from './support/setting.js';
import { startReferenceRun } from './support/reference-run.js';

/**
 * PROC-15: the wall clock steps back and forward while a run works. libfaketime (Debian's
 * `faketime`) is preloaded into the CLI only, reading its offset from a file the test rewrites
 * mid-run; the monotonic clock is left alone (FAKETIME_DONT_FAKE_MONOTONIC), as an NTP step
 * leaves it — so request deadlines and backoffs, which run on timers, are untouched, and every
 * `Date.now()` / `new Date()` in the process sees the step.
 *
 * What must stay right: the window (fixed from the arguments when the run starts, not re-read),
 * the run lock (a file naming its pid, never a lease that expires by the clock), the temporary
 * folder (kept by its owner's pid, not its age: a clock three days ahead does not make a live
 * run's folder look abandoned), and the files (byte for byte a clean run's). File times are the
 * kernel's (the faked clock is the process's only), so they stay true.
 */

const LIB = '/usr/lib/x86_64-linux-gnu/faketime/libfaketime.so.1';
const HAVE_FAKETIME = existsSync(LIB);
const SKIP = HAVE_FAKETIME ? '' : ` (skipped: ${LIB} not installed; apt-get install faketime)`;

const ws = workspace('faults-clock');
let sim: TestSim;
let slow: TestSim;
let truth: string[];
let reference: string;

beforeAll(async () => {
  ({ sim, truth, reference } = await startReferenceRun(ws));
  // the same data, slowed: the run lasts long enough for the clock to step under it twice
  slow = await startTestSim({ dataset: sim.sim.dataset, faults: 'latency=30ms' });
});

afterAll(async () => {
  await sim?.close();
  await slow?.close();
  ws.remove();
});

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

describe.skipIf(!HAVE_FAKETIME || !LONG_TAIL)(longTitle(`PROC-15: the wall clock steps during a run${SKIP}`), () => {
  it('back 3 hours, then forward 3 days, mid-pull: exit 0, the files equal a clean run, the live temp folder and lock are not taken for stale', async () => {
    const cwd = ws.fresh('clock');
    const offset = join(cwd, '..', `${cwd.split('/').pop()!}.faketime`);
    writeFileSync(offset, '+0\n');
    const args = ['export', ...OCTOBER, '--no-db', '--page-size', '10'];
    const env = { ...slow.env('token'), LD_PRELOAD: LIB, FAKETIME_TIMESTAMP_FILE: offset, FAKETIME_NO_CACHE: '1', FAKETIME_DONT_FAKE_MONOTONIC: '1' };
    const running = startCli(args, { cwd, env });
    const spool = join(cwd, 'reports/.state/export', PERIOD, 'checkpoints.jsonl');
    // step only once the pull is under way (its checkpoints are being written)
    for (let i = 0; i < 400 && !(existsSync(spool) && statSync(spool).size > 0) && running.child.exitCode === null; i++) await sleep(25);
    writeFileSync(offset, '-3h\n');
    await sleep(700);
    writeFileSync(offset, '+3d\n');
    const stillWorking = running.child.exitCode === null;
    // a second run while the first works, its clock 3 days ahead: the lock is still held (75), the
    // live run's temporary folder is not cleaned away from under it
    const rival = await runCli(args, { cwd, env });
    const result = await running.result;
    expect(stillWorking, 'the run was still working when the clock stepped twice').toBe(true);
    expectExit(args, result, 0, { secrets: PLANTED_SECRETS, dirs: [cwd] });
    expect([0, 75], describeRun(args, rival)).toContain(rival.code);
    if (rival.code === 75) expect(rival.stderr).toMatch(/another export run is in progress/);
    expect(expectNoPartialFolders(join(cwd, 'reports'), 'export')).toEqual([PERIOD]);
    const final = join(cwd, 'reports/export', PERIOD);
    expectSameReport(final, reference, 'after the clock stepped');
    expectPaymentsComplete(final, truth, 'after the clock stepped');
    // file times come from the kernel's clock, not the process's: none is three days ahead or hours behind
    for (const name of readdirSync(final)) expect(Math.abs(statSync(join(final, name)).mtimeMs - Date.now()), name).toBeLessThan(10 * 60_000);
  });
});
