/**
 * The subledger's period discipline end to end, on both database engines (the spool keeps no
 * record, as for the journal): month-end closes October on the demo's simulator and records its
 * lots (lot_periods, lot_figures, lot_closings, lot_period_reliefs); then the opening-lots file is
 * changed after the close (every cost doubled). A re-run of October's month-end shows the record
 * (its lots files the same bytes, the same findings: nothing amended), and November starts from October's recorded closing lots — the
 * changed file does not reach them — and still ties (lots.units_tieout, lots.cost_tieout). The
 * 1 January 2025 allocation October recorded (lot_period_allocations) is the one both October's
 * re-run and November write (rev-proc-2024-28-allocation.csv): the allocation is irrevocable, and
 * November, an open period, warns once that the file no longer gives it (tax.allocation_changed).
 */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSimulator, type SimHandle } from '../../../src/sim/index.js';
import { openPostgres } from '../../../src/store/db/pg-db.js';
import { readersMissing } from '../../support/readers/readers.js';
import { runAgainstSimulator, type PipelineRun } from '../../support/pipeline/run-pipeline.js';
import { dropSchema, probePostgres, uniqueSchemaName } from '../../support/store/engines.js';
import { demoJournal as journal, demoLots, demoOpeningLotsPath, expectLotsTie, lotEngines, LOTS_FILES, monthEnd, pythonRows } from '../../support/lots/demo-month-ends.js';

const TZ = 'America/New_York';
const ALLOCATION = 'rev-proc-2024-28-allocation.csv';
const pg = await probePostgres();
const skip = readersMissing('csv');

/** Every cost in the opening-lots file doubled: what a user "correcting" a closed month's basis would do. */
function doubledCosts(text: string): string {
  const [header = '', ...lines] = text.trimEnd().split('\n');
  const cost = header.split(',').indexOf('cost');
  return [header, ...lines.map((l) => l.split(',').map((v, i) => (i === cost && v !== '' ? (Number(v) * 2).toFixed(2) : v)).join(','))].join('\n') + '\n';
}

// the embedded engine's chain of month-ends is a long run (npm run test:faults): see lotEngines
const engines = lotEngines(pg, { embedded: 'long' });

for (const engine of engines) {
  const why = skip ?? engine.skip;
  describe.skipIf(why !== null)(`closed periods of the subledger on ${engine.name}${why ? ` (skipped: ${why})` : ''}`, () => {
    let sim: SimHandle;
    let dir: string;
    let openingLots: string;
    const schema = uniqueSchemaName('lots');
    const runs: PipelineRun[] = [];
    let october: PipelineRun;
    const octoberFiles = new Map<string, string>();
    const run = async (month: string, closePeriod: boolean): Promise<PipelineRun> => {
      const lots = demoLots(openingLots);
      const r = await runAgainstSimulator({ sim, spec: monthEnd(month, closePeriod), tz: TZ, flags: { ...engine.flags(schema, dir), out: join(dir, 'reports'), journal, lots }, env: engine.env() });
      runs.push(r);
      return r;
    };

    beforeAll(async () => {
      dir = await mkdtemp(join(tmpdir(), 'payexport-lots-close-'));
      openingLots = join(dir, 'opening-lots.csv');
      await writeFile(openingLots, await readFile(demoOpeningLotsPath, 'utf8'));
      sim = await startSimulator({ seed: 7, scale: 5_000, wallets: 12, profile: 'business' });
      october = await run('2026-10', true);
      for (const f of [...LOTS_FILES, ALLOCATION]) octoberFiles.set(f, await readFile(join(october.dir, f), 'utf8'));
    }, 600_000);
    afterAll(async () => {
      for (const r of runs) await r.cleanup();
      await sim?.close();
      if (dir) await rm(dir, { recursive: true, force: true });
      if (engine.skip === null && pg.url !== null && engine.name === 'Postgres') {
        const db = await openPostgres({ url: pg.url });
        await dropSchema(db, schema).finally(() => db.close());
      }
    });

    it('closes October from the whole history and records it', () => {
      expect(october.outcome.exitCode).toBe(0);
      expect(october.outcome.report?.lots?.basis).toBe('history');
      expect(october.outcome.report?.lots?.lotsHeld).toBeGreaterThan(0);
      expect(october.outcome.report?.lots?.reliefLines).toBeGreaterThan(0);
      // the demo's file allocates basis to units held before 2025: the statement has rows
      expect(pythonRows(join(october.dir, ALLOCATION)).length).toBeGreaterThan(0);
    });

    it("after the opening-lots file changes, October's re-run shows the record (the same bytes) and November starts from it and ties", async () => {
      await writeFile(openingLots, doubledCosts(await readFile(openingLots, 'utf8')));

      const again = await run('2026-10', true);
      expect(again.outcome.report?.lots?.basis).toBe('recorded');
      // the re-run finds what the close found (its cumulative realized gain carries the months the close replayed): nothing to amend
      expect(again.outcome.exitCode).toBe(0);
      // (the close's own findings: the demo's USDT price is older than a day at the period's end, a warning)
      const lotsFindings = (o: PipelineRun['outcome']): string[] => (o.report?.result.findings ?? []).filter((f) => f.check_id.startsWith('lots.')).map((f) => `${f.severity} ${f.check_id} ${f.message}`);
      expect(lotsFindings(again.outcome)).toEqual(lotsFindings(october.outcome));
      expect(lotsFindings(again.outcome).filter((f) => !f.startsWith('warning lots.price_stale '))).toEqual([]);
      expect({ dir: again.dir, unchanged: again.outcome.report?.publish.unchanged }).toEqual({ dir: october.dir, unchanged: true });
      for (const f of [...LOTS_FILES, ALLOCATION]) expect({ f, text: await readFile(join(again.dir, f), 'utf8') }).toEqual({ f, text: octoberFiles.get(f) });
      // a closed period's re-run shows what its close showed: no allocation warning (the close made none)
      expect((again.outcome.report?.result.findings ?? []).filter((f) => f.check_id.startsWith('tax.'))).toEqual([]);

      const november = await run('2026-11', false);
      expect(november.outcome.report?.lots?.basis).toBe('seeded');
      await expectLotsTie(november);
      // the allocation October recorded, carried forward: the doubled file did not reach it, and November says so once
      expect(await readFile(join(november.dir, ALLOCATION), 'utf8')).toBe(octoberFiles.get(ALLOCATION));
      const changed = (november.outcome.report?.result.findings ?? []).filter((f) => f.check_id === 'tax.allocation_changed');
      expect(changed).toHaveLength(1);
      expect(changed[0]).toMatchObject({ severity: 'warning', subject_id: ALLOCATION });
      expect(changed[0]?.message).toContain('opening-lots.csv');
      expect(changed[0]?.message).toContain('closed period 2026-10');
      expect(changed[0]?.message).toContain('4.02(6)');

      // a lot October closed with, untouched in November, keeps October's recorded cost, not the doubled file's
      const before = new Map(pythonRows(join(october.dir, 'lots.csv')).map((l) => [l['lot_id'], l]));
      const kept = pythonRows(join(november.dir, 'lots.csv')).filter((l) => before.get(l['lot_id'])?.['units_base'] === l['units_base']);
      expect(kept.length).toBeGreaterThan(0);
      for (const l of kept) expect({ lot: l['lot_id'], cost: l['cost_basis'] }).toEqual({ lot: l['lot_id'], cost: before.get(l['lot_id'])?.['cost_basis'] });
      // and an opening-origin lot's cost is the recorded one: the doubled file would have changed it
      expect(kept.some((l) => l['origin'] === 'deposit' || l['origin'] === 'opening' || l['origin'] === 'transfer_in')).toBe(true);
    }, 600_000);
  });
}
