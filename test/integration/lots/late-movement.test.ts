/**
 * A late ledger movement of a recorded closed period, end to end on both database engines (the
 * spool keeps no record): month-end closes October on the demo's simulator and records its lots;
 * then the service records a withdrawal effective in October (a late ledger event the closing
 * run never saw). October's re-run still shows its record, byte for byte; November, which starts
 * from October's recorded closing lots, applies the withdrawal on its first instant with the
 * closed period named in lot-reliefs.csv's `late_from`, and its lots still tie to the balances
 * (lots.units_tieout, lots.cost_tieout). Control: with the late movement not applied (the lots
 * stage given no journal record), November's lots hold the withdrawn units the wallet no longer
 * has, and this test fails on lots.units_tieout — which is why the tie-outs are asserted first.
 * The look-back is a year, so the pull re-reads October's ledger and finds the back-dated entry
 * (the default week would not reach it: picking up entries back-dated further is the pull's
 * look-back's business, not the subledger's).
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSimulator, type SimHandle } from '../../../src/sim/index.js';
import { openPostgres } from '../../../src/store/db/pg-db.js';
import { readersMissing } from '../../support/readers/readers.js';
import { runAgainstSimulator, type PipelineRun } from '../../support/pipeline/run-pipeline.js';
import { dropSchema, probePostgres, uniqueSchemaName } from '../../support/store/engines.js';
import { demoJournal as journal, demoLots, expectLotsTie, lotEngines, LOTS_FILES, monthEnd, pythonRows } from '../../support/lots/demo-month-ends.js';

const lots = demoLots();
const TZ = 'America/New_York';
// a BTC wallet the demo's journal maps and its opening-lots file covers (it holds lots all October), whose withdrawals are disposals
const WALLET = '80160507-2947-4f71-b0ae-fc547e9c221a';
const LATE_ID = 'f0000000-0000-4000-8000-00000000a7e1';
const LATE_UNITS = 1_000_000n; // msats: 1,000 sats
const pg = await probePostgres();
const skip = readersMissing('csv');

// the embedded engine's chain of month-ends is a long run (npm run test:faults): see lotEngines
const engines = lotEngines(pg, { embedded: 'long' });

for (const engine of engines) {
  const why = skip ?? engine.skip;
  describe.skipIf(why !== null)(`a late movement of a recorded closed period on ${engine.name}${why ? ` (skipped: ${why})` : ''}`, () => {
    let sim: SimHandle;
    let dir: string;
    const schema = uniqueSchemaName('lotlate');
    const runs: PipelineRun[] = [];
    const run = async (month: string, closePeriod: boolean): Promise<PipelineRun> => {
      const r = await runAgainstSimulator({ sim, spec: monthEnd(month, closePeriod), tz: TZ, flags: { ...engine.flags(schema, dir), out: join(dir, 'reports'), journal, lots, lookbackDays: 366 }, env: engine.env() });
      runs.push(r);
      return r;
    };

    beforeAll(async () => {
      dir = await mkdtemp(join(tmpdir(), 'payexport-lots-late-'));
      sim = await startSimulator({ seed: 7, scale: 5_000, wallets: 12, profile: 'business' });
    }, 60_000);
    afterAll(async () => {
      for (const r of runs) await r.cleanup();
      await sim?.close();
      if (dir) await rm(dir, { recursive: true, force: true });
      if (engine.skip === null && pg.url !== null && engine.name === 'Postgres') {
        const db = await openPostgres({ url: pg.url });
        await dropSchema(db, schema).finally(() => db.close());
      }
    });

    it("leaves October's record as it is and applies the withdrawal on November's first instant, marked, and the lots tie", async () => {
      const october = await run('2026-10', true);
      expect(october.outcome.exitCode).toBe(0);
      expect(october.outcome.report?.lots?.basis).toBe('history');
      const octoberFiles = new Map<string, string>();
      for (const f of LOTS_FILES) octoberFiles.set(f, await readFile(join(october.dir, f), 'utf8'));

      const w = sim.dataset.walletIndexOf(WALLET);
      expect(w, 'the demo wallet is in the simulator').not.toBeNull();
      sim.dataset.addLateLedgerEntry(w as number, { type: 'withdrawn', id: LATE_ID, amount: LATE_UNITS, effective: '2026-10-20T15:00:00.000000Z' });

      const again = await run('2026-10', true);
      expect(again.outcome.report?.lots?.basis).toBe('recorded');
      for (const f of LOTS_FILES) expect({ f, text: await readFile(join(again.dir, f), 'utf8') }).toEqual({ f, text: octoberFiles.get(f) });

      const november = await run('2026-11', false);
      expect(november.outcome.report?.lots?.basis).toBe('seeded');
      // the tie-outs first: without the late movement applied, units_tieout is what fails
      await expectLotsTie(november);
      const late = pythonRows(join(november.dir, 'lot-reliefs.csv')).filter((r) => r['late_from'] !== '');
      expect(late.length).toBeGreaterThan(0);
      for (const r of late) expect(r).toMatchObject({ late_from: '2026-10', wallet_id: WALLET, disposal_ref: `withdrawn:${LATE_ID}`, disposal_part: 'withdrawal', disposed_at_utc: expect.stringMatching(/^2026-11-01T04:00:00/) });
      expect(late.reduce((a, r) => a + BigInt(r['units_base'] ?? '0'), 0n)).toBe(LATE_UNITS);
      // no lot of unknown basis was needed: the wallet's recorded lots covered it
      expect(late.every((r) => r['cost_basis'] !== '')).toBe(true);

    }, 600_000);
  });
}
