/**
 * Kill-and-resume with `--no-db`: the spool's state file is the checkpoint. A CLI child is SIGKILLed
 * at several points of its pull; started again with the same arguments it resumes, and the files it
 * publishes equal those of an uninterrupted run — no row missing, none doubled.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SimHandle } from '../../../src/sim/index.js';
import { startSim } from '../../support/extract/harness.js';
import { cleanRun, killedThenResumed, PERIOD, type ScenarioOptions } from '../../support/extract/kill-resume.js';

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

/** Wallet summaries the spool has saved so far (its checkpoint journal; a torn last line is skipped). */
async function savedSummaries(out: string): Promise<number> {
  const journal = await readFile(join(out, '.state', PERIOD.folder, 'checkpoints.jsonl'), 'utf8').catch(() => '');
  const streams = journal.split('\n').flatMap((line) => /"stream":"(summary:wallet:[^"]+)"/.exec(line)?.[1] ?? []);
  return new Set(streams).size;
}

describe('--no-db: a SIGKILLed export resumes from the spool', () => {
  it.each([
    { label: 'mid-summaries', faults: 'drip=1:10ms:256,paths=*/payments/summary', killWhen: async (out: string) => (await savedSummaries(out)) >= 3 },
    { label: 'early', share: 0.3 },
    { label: 'late', share: 0.9 },
  ])('killed $label, then run again → the same files', async ({ label, share, faults, killWhen }) => {
    const killAt = share === undefined ? undefined : Math.floor(clean.outcome.requests * share);
    const { resumed, files, killedRequests } = await killedThenResumed(scenario, {
      label,
      ...(killAt !== undefined ? { killAfterRequests: killAt } : {}),
      ...(killWhen ? { killWhen } : {}),
      ...(faults ? { faults } : {}),
    });
    if (killAt !== undefined) expect(killedRequests).toBeGreaterThanOrEqual(killAt);
    if (label === 'mid-summaries') expect(sim.requestLog.filter('/payments/summary').filter((e) => e.fault === undefined).length).toBeLessThan(sim.wallets.length + 1);
    expect(resumed.code, resumed.stderr).toBe(clean.outcome.code);
    expect(resumed.stderr).toContain('resuming an interrupted run from its checkpoints');
    // resumed, not restarted: the second start skipped what the first one had saved
    expect(resumed.requests).toBeLessThan(clean.outcome.requests);
    expect(Object.keys(files)).toEqual(Object.keys(clean.files));
    for (const [name, text] of Object.entries(clean.files)) expect(files[name], name).toBe(text);
    expect(clean.files['payments.csv']!.split('\n').length).toBeGreaterThan(100);
  });
});
