/**
 * An independent lot engine (test/support/lots/independent_fifo.py: Python's standard library,
 * written from docs/lots.md and docs/reports.md, no payexport code) recomputes a first close's
 * lot-reliefs.csv and lots.csv from what a user has — every month's journal.csv since the first
 * event, the opening-lots file, the config's lots section — and compares them line by line, to the
 * cent and the base unit, lot ids included. On the demo's October (fifo wallets, one changing to
 * hifo, treasury transfers, withdrawals to the company's cold storage and a deposit back) and on a
 * stress organization's.
 */
import { execFileSync } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import type { JournalConfig } from '../../../src/config/journal-schema.js';
import type { LotsConfig } from '../../../src/config/lots-schema.js';
import { monthPeriod } from '../../../src/model/period.js';
import { startSimulator, type SimHandle } from '../../../src/sim/index.js';
import { demoJournal, demoLots, monthEnd } from '../../support/lots/demo-month-ends.js';
import { monthsThrough, stressBooks } from '../../support/lots/stress-books.js';
import { runAgainstSimulator, type PipelineRun } from '../../support/pipeline/run-pipeline.js';
import { pythonForCsv, readersMissing } from '../../support/readers/readers.js';

const TZ = 'America/New_York';
const CHECKER = fileURLToPath(new URL('../../support/lots/independent_fifo.py', import.meta.url));
const skip = readersMissing('csv');

const DATASETS: Array<{ name: string; sim: Parameters<typeof startSimulator>[0]; books: (sim: SimHandle, dir: string) => { journal: JournalConfig; lots: LotsConfig } }> = [
  { name: "the demo's organization", sim: { seed: 7, scale: 5_000, wallets: 12, profile: 'business' }, books: () => ({ journal: demoJournal, lots: demoLots() }) },
  { name: 'a stress organization', sim: { seed: 41, scale: 3_000, wallets: 8, profile: 'stress' }, books: stressBooks },
];

describe.skipIf(skip !== null)(`an independent FIFO over a first close${skip ? ` (skipped: ${skip})` : ''}`, () => {
  const cleanups: Array<() => Promise<void>> = [];
  afterAll(async () => {
    for (const c of cleanups) await c();
  });

  for (const dataset of DATASETS) {
    it(`agrees with lot-reliefs.csv and lots.csv line by line on ${dataset.name}'s October`, async () => {
      const dir = await mkdtemp(join(tmpdir(), 'payexport-fifo-'));
      const sim = await startSimulator(dataset.sim);
      cleanups.push(async () => {
        await sim.close();
        await rm(dir, { recursive: true, force: true });
      });
      const books = dataset.books(sim, dir);
      // every month since the first event, each on its own spool: October's is a first close
      const runs: PipelineRun[] = [];
      for (const month of monthsThrough(sim, '2026-10', TZ)) runs.push(await runAgainstSimulator({ sim, spec: monthEnd(month, false), tz: TZ, flags: { db: false, out: join(dir, month), journal: books.journal, lots: books.lots } }));
      for (const r of runs) cleanups.push(() => r.cleanup());
      const october = runs.at(-1)!;
      expect(october.outcome.report?.lots?.basis).toBe('history');
      const window = monthPeriod('2026-10', TZ, new Date()).window;
      const input = { journals: runs.map((r) => join(r.dir, 'journal.csv')), openingLots: books.lots.openingLots, lots: books.lots, tz: TZ, window: { from: window.from, to: window.to }, reliefs: join(october.dir, 'lot-reliefs.csv'), held: join(october.dir, 'lots.csv') };
      let out: string;
      try {
        out = execFileSync(pythonForCsv() as string, [CHECKER], { input: JSON.stringify(input), encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
      } catch (error) {
        out = String((error as { stdout?: string }).stdout ?? error);
      }
      const result = JSON.parse(out) as { reliefs: number; lots: number; mismatches: unknown[] };
      expect(result.mismatches).toEqual([]);
      expect(result.reliefs).toBeGreaterThan(100);
      expect(result.lots).toBeGreaterThan(100);
    }, 600_000);
  }
});
