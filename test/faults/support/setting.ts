/**
 * What the fault cases share: a simulated organization whose data lies in October 2026 (so the
 * export window is the whole dataset and the ground truth is every payment), the command line
 * that exports it, and the long-tail switch.
 */
import { startTestSim, type TestSim } from '../../support/cli/sim.js';
import type { SimulatorOptions } from '../../../src/sim/index.js';

export const DATASET = { from: '2026-10-01', to: '2026-11-01' } as const;
export const OCTOBER = ['--from', '2026-10-01', '--to', '2026-10-31'] as const;
export const PERIOD = '2026-10-01_2026-10-31';

/** `npm run test:faults` sets it; without it the long-tail cases are skipped, saying why. */
export const LONG_TAIL = process.env.PAYEXPORT_FAULTS_LONG === '1';
export const LONG_TAIL_SKIP = 'skipped: long tail, run `npm run test:faults` (PAYEXPORT_FAULTS_LONG=1)';

/** A test title that says why it is skipped when the long tail is off. */
export function longTitle(title: string): string {
  return LONG_TAIL ? title : `${title} — ${LONG_TAIL_SKIP}`;
}

/** A small retry budget: failures surface in milliseconds instead of the default backoff's seconds. */
export const TINY_RETRIES = JSON.stringify({ retry: { maxAttempts: 2, maxDelayMs: 5 } });

export function startOctoberSim(options: SimulatorOptions = {}): Promise<TestSim> {
  return startTestSim({ ...DATASET, ...options });
}
