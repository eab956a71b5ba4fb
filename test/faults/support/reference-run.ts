/**
 * The setup several fault files share: a simulator of October's data, its ground truth (every
 * payment id), and a clean `--no-db` export of it — the folder every later successful run must
 * equal byte for byte.
 */
import { join } from 'node:path';
import type { SimulatorOptions } from '../../../src/sim/index.js';
import { assertBuilt, runCli } from '../../support/cli/cli.js';
import type { TestSim } from '../../support/cli/sim.js';
import type { Workspace } from '../../support/cli/workspace.js';
import { expectExit, expectPaymentsComplete, truthPaymentIds } from './invariants.js';
import { DATASET, OCTOBER, PERIOD, startOctoberSim } from './setting.js';

export interface ReferenceRun {
  sim: TestSim;
  truth: string[];
  /** the clean run's report folder */
  reference: string;
}

export async function startReferenceRun(ws: Workspace, options: SimulatorOptions = {}): Promise<ReferenceRun> {
  assertBuilt();
  const sim = await startOctoberSim(options);
  const truth = truthPaymentIds(sim.sim.dataset, DATASET.from, DATASET.to);
  const cwd = ws.fresh('reference');
  const args = ['export', ...OCTOBER, '--no-db'];
  expectExit(args, await runCli(args, { cwd, env: sim.env('token') }), 0);
  const reference = join(cwd, 'reports/export', PERIOD);
  expectPaymentsComplete(reference, truth, 'reference run');
  return { sim, truth, reference };
}
