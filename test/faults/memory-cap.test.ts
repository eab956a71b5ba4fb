import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describeRun, runCli, splitStderr } from '../support/cli/cli.js';
import { PLANTED_SECRETS, type TestSim } from '../support/cli/sim.js';
import { workspace } from '../support/cli/workspace.js';
import { expectExit, expectNoPartialFolders, expectPaymentsComplete, expectSameReport } from './support/invariants.js';
import { LONG_TAIL, longTitle, OCTOBER, PERIOD } from './support/setting.js';
import { startReferenceRun } from './support/reference-run.js';

/**
 * PROC-14: the job under a hard memory cap, scaled down with the data: 3,000 payments (10× the
 * other fault cases) under V8 heap limits (`--max-old-space-size`, through NODE_OPTIONS). Measured
 * on the build machine: the export needs well under 48 MB of heap at this scale (it completes,
 * peak RSS 157 MB, most of it code and buffers) and dies at 24 MB part-way through the pull.
 *
 * Under the roomy cap the run completes and equals a clean run. Under the tight one V8 aborts the
 * process — "FATAL ERROR: … JavaScript heap out of memory", SIGABRT, exit 134: Node's own, no
 * handler can run, so it is a kill by another name — and what matters is what a kill must
 * leave: no published or half-written folder, and the same command at a normal limit resumes
 * from the checkpoints and writes the clean run's files byte for byte. The 1M-payment figures
 * (peak RSS ~400 MB through the pull, 457–486 MB in the report stage) are in docs/benchmarks.md.
 */

const ws = workspace('faults-memory');
let sim: TestSim;
let truth: string[];
let reference: string;
const ARGS = ['export', ...OCTOBER, '--no-db', '--page-size', '50'];

beforeAll(async () => {
  if (!LONG_TAIL) return;
  ({ sim, truth, reference } = await startReferenceRun(ws, { scale: 3000 }));
}, 180_000);

afterAll(async () => {
  await sim?.close();
  ws.remove();
});

describe.skipIf(!LONG_TAIL)(longTitle('PROC-14: the job under a hard memory cap (3,000 payments)'), () => {
  it('a 48 MB heap: completes, the files equal a clean run', async () => {
    const cwd = ws.fresh('roomy');
    const result = await runCli(ARGS, { cwd, env: { ...sim.env('token'), NODE_OPTIONS: '--max-old-space-size=48' } });
    expectExit(ARGS, result, 0, { secrets: PLANTED_SECRETS, dirs: [cwd] });
    expectSameReport(join(cwd, 'reports/export', PERIOD), reference, 'under a 48 MB heap');
    expectPaymentsComplete(join(cwd, 'reports/export', PERIOD), truth, 'under a 48 MB heap');
  }, 180_000);

  // Since issue 29 (ids kept as own copies, the heap's growth bounded) this job's working set fits a
  // 24 MB heap, and any cap low enough to abort it (2 MB) aborts before the run begins, so the case
  // no longer reaches "mid-run": kept, skipped, until a cap between the two is found
  // (docs/reliability.md PROC-14).
  it.skip('a 24 MB heap: V8 aborts mid-run (134), nothing half-published; at a normal limit the same command resumes and equals a clean run', async () => {
    const cwd = ws.fresh('tight');
    const capped = await runCli(ARGS, { cwd, env: { ...sim.env('token'), NODE_OPTIONS: '--max-old-space-size=24' } });
    expect(capped.code === 134 || capped.signal === 'SIGABRT', describeRun(ARGS, capped)).toBe(true);
    expect(capped.stderr).toMatch(/JavaScript heap out of memory/);
    expect(capped.stderr).not.toContain(PLANTED_SECRETS[2]);
    expect(expectNoPartialFolders(join(cwd, 'reports'), 'export')).toEqual([]);

    const rerun = await runCli(ARGS, { cwd, env: sim.env('token') });
    expectExit(ARGS, rerun, 0, { secrets: PLANTED_SECRETS, dirs: [cwd] });
    expect(splitStderr(rerun.stderr).logs.some((r) => r.msg === 'resuming an interrupted run from its checkpoints'), describeRun(ARGS, rerun)).toBe(true);
    expect(expectNoPartialFolders(join(cwd, 'reports'), 'export')).toEqual([PERIOD]);
    expectSameReport(join(cwd, 'reports/export', PERIOD), reference, 'after the abort');
    expectPaymentsComplete(join(cwd, 'reports/export', PERIOD), truth, 'after the abort');
  }, 180_000);
});
