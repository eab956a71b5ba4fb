/**
 * Kill-and-resume with `--no-db`: the spool's state file is the checkpoint. A CLI child is SIGKILLed
 * at several points of its pull; started again with the same arguments it resumes, and the files it
 * publishes equal those of an uninterrupted run — no row missing, none doubled.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SimHandle } from '../../../src/sim/index.js';
import { startSim } from './harness.js';
import { cleanRun, killedThenResumed, type ScenarioOptions } from './kill-resume.js';

const BASE_FAULTS = 'latency=2-6ms';
let sim: SimHandle;
let scenario: ScenarioOptions;
let clean: Awaited<ReturnType<typeof cleanRun>>;

beforeAll(async () => {
  sim = await startSim({ scale: 2_500, faults: BASE_FAULTS });
  scenario = { sim, baseFaults: BASE_FAULTS, storeArgs: () => ['--no-db'] };
  clean = await cleanRun(scenario);
});
afterAll(async () => {
  await sim.close();
});

describe('--no-db: a SIGKILLed export resumes from the spool', () => {
  it.each([0.1, 0.45, 0.9])('killed after %s of the requests, then run again → the same files', async (share) => {
    const killAt = Math.floor(clean.outcome.requests * share);
    const { resumed, files, killedRequests } = await killedThenResumed(scenario, { label: String(share), killAfterRequests: killAt });
    expect(killedRequests).toBeGreaterThanOrEqual(killAt);
    expect(resumed.code, resumed.stderr).toBe(clean.outcome.code);
    expect(resumed.stderr).toContain('resuming an interrupted run from its checkpoints');
    // resumed, not restarted: the second start skipped what the first one had saved
    expect(resumed.requests).toBeLessThan(clean.outcome.requests);
    expect(Object.keys(files)).toEqual(Object.keys(clean.files));
    for (const [name, text] of Object.entries(clean.files)) expect(files[name], name).toBe(text);
    expect(clean.files['payments.csv']!.split('\n').length).toBeGreaterThan(100);
  });
});
