/**
 * Run it twice: the same books (docs/reliability.md#re-runs-and-rebuilds). Sequences of commands
 * over the simulator — month-end of September and of October (closes in order and out of order),
 * an export and a nightly of November, `report` of a month-end and of the export, a fresh snapshot
 * in the middle — each command run twice in a row. Every run of a command writes, for its folder,
 * what the first run that wrote that folder wrote: a closed month's folder is never rewritten (no
 * `amended-N`: the run says "unchanged"), an open one is byte for byte the same (the manifest's run
 * fields aside), with the same exit code and findings; a `report` equals the job that wrote the
 * folder. The books have a journal, lots (own custody, opening lots) and prices.autoFetch whose
 * source cannot be reached, so every month-end's fetch fails as on a machine without network.
 *
 * Engines: a Postgres server, the `--no-db` spool (no `report`, no snapshot to replace: every run
 * is a fresh one) and, with the long runs, the embedded engine. `npm test` runs the three pinned
 * sequences and one drawn per engine; PAYEXPORT_FAULTS_LONG=1 draws more.
 */
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { JOB_FLAGS } from '../../src/jobs/pipeline-spec.js';
import type { PipelineSpec } from '../../src/jobs/pipeline.js';
import { dayPeriod, monthPeriod, rangePeriod } from '../../src/model/period.js';
import { startSimulator, type SimHandle } from '../../src/sim/index.js';
import { closedPort } from '../support/cli/closed-port.js';
import { stressBooks } from '../support/lots/stress-books.js';
import { folderDigest, type FolderDigest } from '../support/pipeline/folder-digest.js';
import { runAgainstSimulator } from '../support/pipeline/run-pipeline.js';
import { openPostgres } from '../../src/store/db/pg-db.js';
import { dropSchema, probePostgres, uniqueSchemaName } from '../support/store/engines.js';
import { LONG_RUNS } from '../support/long-runs.js';

const LONG = LONG_RUNS;
const pg = await probePostgres();
const NOW = new Date('2026-12-06T12:00:00Z');

type Step = 'month-end 2026-09' | 'month-end 2026-10' | 'export' | 'nightly' | 'report month-end 2026-10' | 'report export' | 'fresh snapshot';
const STEPS: Step[] = ['month-end 2026-09', 'month-end 2026-10', 'export', 'nightly', 'report month-end 2026-10', 'report export', 'fresh snapshot'];

function specOf(step: Step, tz: string): PipelineSpec {
  const run = { incremental: false, closePeriod: false, allowOpen: false, dryRun: false };
  const month = (m: string) => monthPeriod(m, tz, NOW);
  const november = rangePeriod('2026-11-01', '2026-11-21', tz, NOW);
  switch (step) {
    case 'month-end 2026-09':
    case 'month-end 2026-10':
      return { ...run, command: 'month-end', job: 'month-end', ...JOB_FLAGS['month-end'], period: month(step.slice(-7)), pull: true, closePeriod: true, allowOpen: true };
    case 'export':
      return { ...run, command: 'export', job: 'export', ...JOB_FLAGS.export, period: november, pull: true };
    case 'nightly':
      return { ...run, command: 'nightly', job: 'nightly', ...JOB_FLAGS.nightly, period: dayPeriod('2026-11-20', tz, NOW), pull: true, incremental: true };
    case 'report month-end 2026-10':
      return { ...run, command: 'report', job: 'month-end', ...JOB_FLAGS['month-end'], period: month('2026-10'), pull: false };
    default:
      return { ...run, command: 'report', job: 'export', ...JOB_FLAGS.export, period: november, pull: false };
  }
}

interface Engine {
  name: string;
  skip: string | null;
  /** the flags of the snapshot named `name` (a fresh snapshot is another name) */
  flags: (dir: string, name: string) => Record<string, unknown>;
  env: Record<string, string>;
  /** the spool has no report and no snapshot to replace */
  spool: boolean;
}

const ENGINES: Engine[] = [
  { name: 'a Postgres server', skip: pg.skipReason, flags: (_dir, name) => ({ dbSchema: name }), env: { DATABASE_URL: pg.url ?? '' }, spool: false },
  { name: 'the --no-db spool', skip: null, flags: () => ({ db: false }), env: {}, spool: true },
  { name: 'the embedded engine', skip: LONG ? null : 'long on the embedded engine; run by `npm run test:faults` (PAYEXPORT_FAULTS_LONG=1)', flags: (dir, name) => ({ dataDir: join(dir, name) }), env: {}, spool: false },
];

/**
 * The sequences the property must always hold for: closes in order around a fresh snapshot, out of
 * order, and a nightly repeated after an earlier month closed (CI's draw of 6 December: the nightly
 * after the close listed tax.allocation_changed and counted lots.cumulative_tieout over the
 * recorded periods, so its check list differed from the first nightly's).
 */
const PINNED: Step[][] = [
  ['month-end 2026-09', 'month-end 2026-10', 'report month-end 2026-10', 'fresh snapshot', 'month-end 2026-10', 'export', 'report export'],
  ['month-end 2026-10', 'nightly', 'month-end 2026-09', 'month-end 2026-10', 'report month-end 2026-10'],
  ['nightly', 'export', 'month-end 2026-10', 'nightly'],
];

interface Written {
  exit: number;
  digest: FolderDigest;
  findings: string[];
}

for (const engine of ENGINES) {
  describe.skipIf(engine.skip !== null)(`every command run twice on ${engine.name}${engine.skip ? ` (skipped: ${engine.skip})` : ''}`, () => {
    let sim: SimHandle;
    let base: string;
    let books: { journal: unknown; lots: unknown };
    let prices: Record<string, unknown>;
    beforeAll(async () => {
      base = await mkdtemp(join(tmpdir(), 'payexport-rerun-'));
      sim = await startSimulator({ seed: 3, scale: 300, wallets: 8, profile: 'business' });
      books = stressBooks(sim, base);
      prices = { autoFetch: true, policy: { 'BTC-USD': { sources: ['coinbase:1h'] } }, sources: { coinbase: { baseUrl: `http://127.0.0.1:${await closedPort()}` } }, retry: { maxAttempts: 1, runBudget: 0 } };
    }, 60_000);
    afterAll(async () => {
      await sim?.close();
      if (base) await rm(base, { recursive: true, force: true });
      if (engine.name === 'a Postgres server' && pg.url !== null) {
        const db = await openPostgres({ url: pg.url });
        try {
          for (const name of schemas) await dropSchema(db, name);
        } finally {
          await db.close();
        }
      }
    });

    let sequences = 0;
    const schemas: string[] = [];
    const runSequence = async (steps: readonly Step[], tz: string): Promise<void> => {
      const dir = join(base, `sequence-${++sequences}`);
      let snapshot = 1;
      const snapshotName = uniqueSchemaName('rerun');
      schemas.push(`${snapshotName}_1`);
      /** per folder (job/period): what its first run wrote; and the snapshot each folder's data was pulled into */
      const first = new Map<string, Written>();
      const pulledIn = new Map<string, number>();
      for (const step of steps) {
        if (step === 'fresh snapshot') {
          if (!engine.spool) schemas.push(`${snapshotName}_${++snapshot}`);
          continue;
        }
        const spec = specOf(step, tz);
        const folder = `${spec.job}/${spec.period.label}`;
        // a rebuild reads the snapshot: of a folder whose data this snapshot holds, and never from the spool
        if (spec.command === 'report' && (engine.spool || pulledIn.get(folder) !== snapshot)) continue;
        if (spec.pull) pulledIn.set(folder, snapshot);
        for (let time = 1; time <= 2; time++) {
          const run = await runAgainstSimulator({ sim, spec, tz, flags: { ...engine.flags(dir, `${snapshotName}_${snapshot}`), out: join(dir, 'reports'), journal: books.journal, lots: books.lots, prices: { ...prices, cacheDir: join(dir, 'prices') } } as never, env: engine.env, cwd: dir });
          const report = run.outcome.report;
          const written: Written = { exit: run.outcome.exitCode, digest: await folderDigest(run.dir), findings: (report?.result.findings ?? []).map((f) => JSON.stringify(f)).sort() };
          const was = first.get(folder);
          const what = `${steps.join(' → ')}: ${step}, run ${time}`;
          if (was === undefined) first.set(folder, written);
          else {
            expect({ what, exit: written.exit, findings: written.findings }).toEqual({ what, exit: was.exit, findings: was.findings });
            // a closed month's folder is left as it is; any other folder is written again, the same bytes
            if (spec.job === 'month-end') expect({ what, unchanged: report?.publish.unchanged }).toEqual({ what, unchanged: true });
            expect({ what, dir: run.dir.slice(dir.length), digest: written.digest }).toEqual({ what, dir: `/reports/${folder}`, digest: was.digest });
          }
        }
        const monthEnds = await readdir(join(dir, 'reports', 'month-end')).catch(() => []);
        expect(monthEnds.filter((name) => name.includes('.amended-'))).toEqual([]);
      }
    };

    it('writes, for every folder, what its first run wrote: no amendment, the same bytes, the same findings', async () => {
      await fc.assert(
        fc.asyncProperty(fc.array(fc.constantFrom(...STEPS), { minLength: 3, maxLength: 5 }), fc.constantFrom('America/New_York', 'UTC'), runSequence),
        { numRuns: PINNED.length + (LONG ? 6 : 1), examples: PINNED.map((steps): [Step[], string] => [steps, 'America/New_York']), endOnFailure: true },
      );
    }, LONG ? 3_600_000 : 900_000);
  });
}
