/**
 * A closed month's findings are its close's findings, so a re-run of the month-end and a `report`
 * of the closed month find exactly what the close found and write nothing. The books of an account
 * fresh from `init`, on a machine whose price sources cannot be reached:
 *
 * - no opening lots, so every deposit of a BTC or asset wallet forms a lot of unknown basis (an
 *   acquisition's note) and the sends relieve them. The lots pass's notes (lots.basis_unknown,
 *   lots.identification_late) are recorded with the period; before they were, a re-run derived them
 *   from the recorded relief lines — one per line of unknown cost, none for the acquisitions — and
 *   wrote an amendment with other findings (69 became 96 on the simulator's seed 3);
 * - prices.autoFetch with its source refused: the close finds journal.price_fetch_failed
 *   (unreachable). A re-run used to fetch again, found every close of the frozen window a gap
 *   (no_data, a journal.price_gap per source) and amended the month; `report` listed neither check.
 *   Both now show the closed folder's price checks.
 *
 * Both database engines; the spool keeps no record (every run recomputes).
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { JournalConfig } from '../../../src/config/journal-schema.js';
import { JOB_FLAGS } from '../../../src/jobs/pipeline-spec.js';
import type { PipelineSpec } from '../../../src/jobs/pipeline.js';
import { monthPeriod } from '../../../src/model/period.js';
import type { Finding } from '../../../src/model/results.js';
import { startSimulator, type SimHandle } from '../../../src/sim/index.js';
import { openPostgres } from '../../../src/store/db/pg-db.js';
import { closedPort } from '../../support/cli/closed-port.js';
import { lotEngines } from '../../support/lots/demo-month-ends.js';
import { stressBooks } from '../../support/lots/stress-books.js';
import { folderDigest } from '../../support/pipeline/folder-digest.js';
import { runAgainstSimulator, type PipelineRun } from '../../support/pipeline/run-pipeline.js';
import { dropSchema, probePostgres, uniqueSchemaName } from '../../support/store/engines.js';

const TZ = 'America/New_York';
const pg = await probePostgres();
const october = monthPeriod('2026-10', TZ, new Date('2026-11-15T12:00:00Z'));
const MONTH_END: PipelineSpec = { command: 'month-end', job: 'month-end', ...JOB_FLAGS['month-end'], period: october, pull: true, incremental: false, closePeriod: true, allowOpen: true, dryRun: false };
const REPORT: PipelineSpec = { command: 'report', job: 'month-end', ...JOB_FLAGS['month-end'], period: october, pull: false, incremental: false, closePeriod: false, allowOpen: false, dryRun: false };

/** no opening lots: every deposit of a BTC or asset wallet has an unknown basis */
const LOTS = { wallets: {}, custody: {}, withdrawals: [], deposits: [] };
const findingsOf = (run: PipelineRun, prefix: string): Finding[] => (run.outcome.report?.result.findings ?? []).filter((f) => f.check_id.startsWith(prefix));

// the embedded engine's three runs are a long run (npm run test:faults): the same SQL as the server's
for (const engine of lotEngines(pg, { embedded: 'long' })) {
  describe.skipIf(engine.skip !== null)(`a closed month's lots findings on ${engine.name}${engine.skip ? ` (skipped: ${engine.skip})` : ''}`, () => {
    let sim: SimHandle;
    let dir: string;
    let journal: JournalConfig;
    let prices: Record<string, unknown>;
    const schema = uniqueSchemaName('notes');
    const runs: PipelineRun[] = [];
    const run = async (spec: PipelineSpec): Promise<PipelineRun> => {
      const r = await runAgainstSimulator({ sim, spec, tz: TZ, flags: { ...engine.flags(schema, dir), out: join(dir, 'reports'), journal, prices, lots: LOTS }, env: engine.env(), cwd: dir });
      runs.push(r);
      return r;
    };

    beforeAll(async () => {
      dir = await mkdtemp(join(tmpdir(), 'payexport-lot-notes-'));
      sim = await startSimulator({ seed: 3, scale: 300, wallets: 8, profile: 'business' });
      journal = stressBooks(sim, dir).journal;
      // one source, refused at once, no retry: the fetch fails as a machine without network's does
      const refused = `http://127.0.0.1:${await closedPort()}`;
      prices = { autoFetch: true, cacheDir: join(dir, 'prices'), policy: { 'BTC-USD': { sources: ['coinbase:1h'] } }, sources: { coinbase: { baseUrl: refused } }, retry: { maxAttempts: 1, runBudget: 0 } };
    }, 60_000);
    afterAll(async () => {
      await sim?.close();
      if (dir) await rm(dir, { recursive: true, force: true });
      if (engine.skip === null && pg.url !== null && engine.name === 'Postgres') {
        const db = await openPostgres({ url: pg.url });
        await dropSchema(db, schema).finally(() => db.close());
      }
    });

    it('the close, its re-run and its report: the same findings, nothing amended; rebuilt elsewhere, the same files but the import files and the price checks', async () => {
      const close = await run(MONTH_END);
      expect(close.outcome.report?.lots?.basis).toBe('history');
      const found = findingsOf(close, '');
      // unknown lots acquired in the window (deposits) and relieved by later sends: both kinds of note
      // (grouped by cause and currency: one row for the deposits with no opening-lots row, a lone one keeps its own)
      expect(found.filter((f) => f.check_id === 'lots.basis_unknown' && /:deposited:|:deposit_no_row$/.test(f.subject_id)).length).toBeGreaterThan(0);
      expect(findingsOf(close, 'journal.price_').map((f) => [f.check_id, /\(unreachable\)$/.test(f.message)])).toEqual([['journal.price_fetch_failed', true]]);
      expect(close.outcome.exitCode).toBe(65);

      for (const spec of [MONTH_END, REPORT]) {
        const again = await run(spec);
        expect({ command: spec.command, basis: again.outcome.report?.lots?.basis }).toEqual({ command: spec.command, basis: 'recorded' });
        expect(findingsOf(again, '')).toEqual(found);
        expect(again.outcome.report?.result.checks.filter((c) => c.check_id.startsWith('journal.price_'))).toEqual(close.outcome.report?.result.checks.filter((c) => c.check_id.startsWith('journal.price_')));
        expect({ command: spec.command, exit: again.outcome.exitCode, dir: again.dir, unchanged: again.outcome.report?.publish.unchanged }).toEqual({ command: spec.command, exit: 65, dir: close.dir, unchanged: true });
      }

      // rebuilt into another output root, for comparison: the closed folder's files but two (README,
      // "report"): the journal's import files post only what the snapshot's record says was never
      // exported, and with no folder to follow the rebuild lists no price checks
      const scratch = await runAgainstSimulator({ sim, spec: REPORT, tz: TZ, flags: { ...engine.flags(schema, dir), out: join(dir, 'scratch'), journal, prices, lots: LOTS }, env: engine.env(), cwd: dir });
      const [closed, rebuilt] = [await folderDigest(close.dir), await folderDigest(scratch.dir)];
      const differ = Object.keys(closed.files).filter((f) => closed.files[f] !== rebuilt.files[f]);
      expect({ files: Object.keys(rebuilt.files), differ }).toEqual({ files: Object.keys(closed.files), differ: ['exceptions.csv', 'journal.beancount'] });
      expect(findingsOf(scratch, '')).toEqual(found.filter((f) => !f.check_id.startsWith('journal.price_')));
      // the README's sentence names those two, and nothing else
      const readme = (await readFile(new URL('../../../README.md', import.meta.url), 'utf8')).replace(/\s+/g, ' ');
      expect(readme).toContain("rebuilt into another `--out` for comparison, only the journal's import files (`journal.beancount`, `journal.hledger`, `journal-qbo.csv`, `journal-xero.csv`: they post only what the snapshot never exported) and, with `prices.autoFetch`, the price checks (read from the folder a rebuild follows) differ from it");
      const entries = async (folder: string): Promise<number> => (await readFile(join(folder, 'journal.beancount'), 'utf8')).split('\n').filter((l) => /^\d{4}-\d{2}-\d{2} [*!] /.test(l)).length;
      expect({ closed: (await entries(close.dir)) > 0, rebuilt: await entries(scratch.dir) }).toEqual({ closed: true, rebuilt: 0 });
    }, 600_000);
  });
}
