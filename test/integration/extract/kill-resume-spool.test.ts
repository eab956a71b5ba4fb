/**
 * Kill-and-resume with `--no-db`: the spool's state file is the checkpoint. A CLI child is SIGKILLed
 * at several points of its pull; started again with the same arguments it resumes, and the files it
 * publishes equal those of an uninterrupted run — no row missing, none doubled.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SimHandle } from '../../../src/sim/index.js';
import { LONG_RUNS, VARIANT_SKIP } from '../../support/long-runs.js';
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

const WHOLE = { paymentsRead: 'environment' };

/** Pages the environment-level read's slices have saved so far, not yet done (the spool's checkpoint journal). */
async function savedSlicePages(out: string): Promise<number> {
  const journal = await readFile(join(out, '.state', PERIOD.folder, 'checkpoints.jsonl'), 'utf8').catch(() => '');
  return journal.split('\n').filter((line) => /"stream":"payments:env:[^"]+:slice-/.test(line) && /"done":false/.test(line)).length;
}

describe('--no-db: a SIGKILLed export resumes from the spool', () => {
  // npm test kills at early and late here and at the other stages in the twin suite on the other store
  // (docs/testing.md#one-of-each-in-npm-test-every-variant-in-the-long-runs); every stage on both with the long runs
  const STAGES = [
    { label: 'mid-summaries', faults: 'drip=1:10ms:256,paths=*/payments/summary', killWhen: async (out: string) => (await savedSummaries(out)) >= 3 },
    { label: 'early', share: 0.3 },
    { label: 'late', share: 0.9 },
    // the environment read whole (docs/extraction.md#environment-level-payments), killed once a slice has saved a page
    { label: 'mid-environment-read', config: WHOLE, faults: 'drip=1:10ms:256,paths=*/payments', killWhen: async (out: string) => (await savedSlicePages(out)) >= 1 },
    ];
  const KEPT = ['early', 'late'];
  const killedAndResumed = async ({ label, share, faults, killWhen, config }: (typeof STAGES)[number]): Promise<void> => {
    const killAt = share === undefined ? undefined : Math.floor(clean.outcome.requests * share);
    const { resumed, files, killedRequests } = await killedThenResumed(scenario, {
      label,
      ...(killAt !== undefined ? { killAfterRequests: killAt } : {}),
      ...(killWhen ? { killWhen } : {}),
      ...(faults ? { faults } : {}),
      ...(config ? { config } : {}),
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
    if (label === 'mid-environment-read') {
      // the second start read the environment whole again, and no wallet's payments
      const lists = sim.requestLog.entries().filter((e) => /\/environments\/[^/]+\/payments$/.test(e.path) && e.fault === undefined);
      expect(lists.length).toBeGreaterThan(0);
      expect(lists.filter((e) => new URLSearchParams(e.query).has('wallet_id'))).toEqual([]);
    }
  };
  it.each(STAGES.filter((s) => KEPT.includes(s.label)))('killed $label, then run again → the same files', killedAndResumed);
  it.skipIf(!LONG_RUNS).each(STAGES.filter((s) => !KEPT.includes(s.label)))(`killed $label, then run again → the same files${LONG_RUNS ? '' : ` (skipped: ${VARIANT_SKIP})`}`, killedAndResumed);
});
