import { cpSync, existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assertBuilt, describeRun, runCli, splitStderr } from '../support/cli/cli.js';
import { dropSchemas, probePostgres, uniqueSchemaName, urlWithPassword } from '../support/cli/pg.js';
import { PLANTED_SECRETS, type TestSim } from '../support/cli/sim.js';
import { workspace } from '../support/cli/workspace.js';
import { expectExit, expectFolderUnchanged, expectNoPartialFolders, expectPaymentsComplete, expectSameReport, folderBytes, truthPaymentIds } from './support/invariants.js';
import { expectSnapshotComplete, snapshotFacts } from './support/pg-snapshot.js';
import { DATASET, LONG_TAIL, longTitle, OCTOBER, PERIOD, startOctoberSim } from './support/setting.js';

/**
 * PROC-01: SIGKILL at each stage of a run — fetching a page, committing a batch, writing CSV,
 * writing XLSX, publishing the folder — then the same command again. The rerun resumes from the
 * checkpoints, exits like an uninterrupted run, and writes CSV and XLSX identical to it byte for
 * byte — on Postgres too, against the same --no-db run: the files may not depend on the snapshot
 * engine; no row is lost or doubled (files and snapshot against the simulator's ground truth); no
 * temporary folder is left; a previous good report of the period is untouched by the killed run.
 *
 * The kills are deterministic: PAYEXPORT_FAULT_AT arms one named point (src/util/fault-points.ts).
 * `--page-size 10` gives the pull ~90 checkpoints to die between.
 */

const pg = await probePostgres();
const ws = workspace('faults-kill');
const WINDOW = { from: '2026-10-01T00:00:00Z', to: '2026-11-01T00:00:00Z' };
const PAGED = ['--page-size', '10'];
let sim: TestSim;
let truth: string[];
const schemas: string[] = [];
let database = { url: '', password: '' };

interface KillPoint {
  label: string;
  at: string;
  /** report-stage kills start with a previous good report of the period in place */
  previousReport: boolean;
  /** a config file both starts read: `paymentsRead: "environment"` reads the environment whole (docs/extraction.md#environment-level-payments) */
  config?: Record<string, unknown>;
}

const WHOLE = { paymentsRead: 'environment' };

interface Engine {
  name: 'spool' | 'postgres';
  args(schema: string): string[];
  env(): Record<string, string>;
}

const SPOOL: Engine = { name: 'spool', args: () => ['--no-db'], env: () => ({}) };
const POSTGRES: Engine = { name: 'postgres', args: (schema) => ['--schema', schema], env: () => ({ DATABASE_URL: database.url }) };

/** One uninterrupted --no-db run: every resumed run, on either engine, must equal it byte for byte. */
let baselineRun: { dir: string; code: number } | null = null;

beforeAll(async () => {
  assertBuilt();
  sim = await startOctoberSim();
  truth = truthPaymentIds(sim.sim.dataset, DATASET.from, DATASET.to);
  if (pg.url) database = urlWithPassword(pg.url, 'PLANTEDpgKill-7c1e');
});

afterAll(async () => {
  await sim?.close();
  if (pg.url && schemas.length > 0) await dropSchemas(pg.url, schemas);
  ws.remove();
});

const secrets = (): string[] => [...PLANTED_SECRETS, ...(database.password ? [database.password] : [])];

function newSchema(): string {
  const schema = uniqueSchemaName('kill');
  schemas.push(schema);
  return schema;
}

/**
 * The uninterrupted run of the same command. One for both engines: a report read back from
 * Postgres must equal one read from the spool (the files may not depend on the snapshot engine).
 */
async function baseline(): Promise<{ dir: string; code: number }> {
  if (baselineRun) return baselineRun;
  const cwd = ws.fresh('baseline');
  const args = ['export', ...OCTOBER, ...SPOOL.args(''), ...PAGED];
  const result = await runCli(args, { cwd, env: sim.env('token') });
  expectExit(args, result, 0, { secrets: secrets(), dirs: [cwd] });
  const dir = join(cwd, 'reports/export', PERIOD);
  expectPaymentsComplete(dir, truth, 'baseline');
  baselineRun = { dir, code: result.code ?? -1 };
  return baselineRun;
}

async function killAndResume(engine: Engine, point: KillPoint): Promise<void> {
  const reference = await baseline();
  const cwd = ws.fresh(`${engine.name}-${point.at}${point.config ? "-whole" : ""}`);
  const schema = newSchema();
  const configArgs: string[] = [];
  if (point.config) {
    writeFileSync(join(cwd, 'payexport.json'), JSON.stringify(point.config));
    configArgs.push('--config', 'payexport.json');
  }
  const args = ['export', ...OCTOBER, ...engine.args(schema), ...PAGED, ...configArgs];
  const env = { ...sim.env('token'), ...engine.env() };
  const final = join(cwd, 'reports/export', PERIOD);
  let previous: Map<string, Buffer> | null = null;
  if (point.previousReport) {
    mkdirSync(join(cwd, 'reports/export'), { recursive: true });
    cpSync(reference.dir, final, { recursive: true });
    previous = folderBytes(final);
  }

  const killed = await runCli(args, { cwd, env: { ...env, PAYEXPORT_FAULT_AT: point.at } });
  expect(killed.signal, describeRun([...args, `PAYEXPORT_FAULT_AT=${point.at}`], killed)).toBe('SIGKILL');
  if (previous === null) {
    expect(existsSync(final), 'nothing is published by a killed run').toBe(false);
  } else if (point.at.startsWith('report:swap')) {
    // Killed between the two renames: the previous folder is set aside whole, and the next run puts it back.
    const aside = readdirSync(join(cwd, 'reports/export')).filter((e) => e.startsWith(`.${PERIOD}.old-`));
    expect(aside).toHaveLength(1);
    const setAside = folderBytes(join(cwd, 'reports/export', aside[0]!));
    setAside.delete('.owner');
    expect([...setAside.keys()].sort()).toEqual([...previous.keys()].sort());
    for (const [name, bytes] of previous) expect(setAside.get(name)?.equals(bytes), `set aside: ${name}`).toBe(true);
  } else {
    expectFolderUnchanged(final, previous, 'the previous good report after the kill');
  }
  if (engine.name === 'postgres') {
    // Only whole batches: what is stored is exactly what the checkpoints say was committed.
    const facts = await snapshotFacts(database.url, schema, sim.sim.organizationId, WINDOW);
    expect({ payments: facts.payments, ledger: facts.ledgerEntries }).toEqual({ payments: facts.checkpointedPayments, ledger: facts.checkpointedLedger });
  }

  const requestsBefore = sim.sim.requestLog.entries().length;
  const rerun = await runCli(args, { cwd, env });
  expectExit(args, rerun, reference.code, { secrets: secrets(), dirs: [cwd] });
  if (point.config === WHOLE) {
    // the rerun went on reading the environment whole: payments lists without a wallet_id, none with one
    const lists = sim.sim.requestLog.entries().slice(requestsBefore).filter((e) => /\/environments\/[^/]+\/payments$/.test(e.path));
    expect(lists.length).toBeGreaterThan(0);
    expect(lists.filter((e) => new URLSearchParams(e.query).has('wallet_id'))).toEqual([]);
  }
  // (a kill at the first page may come before any checkpoint: that run has nothing to resume from)
  const resumed = splitStderr(rerun.stderr).logs.some((r) => r.msg === 'resuming an interrupted run from its checkpoints');
  if (!/pages=1$/.test(point.at)) expect(resumed, describeRun(args, rerun)).toBe(true);
  expect(expectNoPartialFolders(join(cwd, 'reports'), 'export')).toEqual([PERIOD]);
  expectSameReport(final, reference.dir, `${engine.name}, killed at ${point.at}`);
  expectPaymentsComplete(final, truth, `${engine.name}, killed at ${point.at}`);
  if (engine.name === 'postgres') expectSnapshotComplete(await snapshotFacts(database.url, schema, sim.sim.organizationId, WINDOW), truth, `killed at ${point.at}`);
  else expect(readdirSync(join(cwd, 'reports/.state/export', PERIOD, 'streams')), 'no spooled rows are left once the run succeeded').toEqual([]);
}

const SPOOL_POINTS: KillPoint[] = [
  { label: 'fetching: the 12th page fetched, not yet stored', at: 'pull:page:pages=12', previousReport: false },
  { label: 'writing CSV: payments.csv at row 250', at: 'report:csv:file=payments.csv:rows=250', previousReport: true },
  { label: 'writing XLSX: the Ledger sheet at row 300', at: 'report:xlsx:sheet=Ledger:rows=300', previousReport: true },
  { label: 'swapping: the previous folder set aside, the new one not yet in place', at: 'report:swap', previousReport: true },
  { label: 'fetching, the environment read whole: the 12th page fetched, not yet stored', at: 'pull:page:pages=12', previousReport: false, config: WHOLE },
];

const POSTGRES_POINTS: KillPoint[] = [
  { label: 'committing a batch: the 12th page inside its transaction', at: 'store:commit:pages=12', previousReport: false },
  { label: 'committing, the environment read whole: the 12th page inside its transaction', at: 'store:commit:pages=12', previousReport: false, config: WHOLE },
];

/** The long tail: every point at early, middle and late positions, on both engines. */
const LONG_POINTS: KillPoint[] = [
  ...[1, 40, 85].map((n) => ({ label: `fetching, page ${n}`, at: `pull:page:pages=${n}`, previousReport: false })),
  ...[1, 299].map((n) => ({ label: `writing CSV, payments.csv row ${n}`, at: `report:csv:file=payments.csv:rows=${n}`, previousReport: true })),
  { label: 'writing CSV, ledger.csv row 400', at: 'report:csv:file=ledger.csv:rows=400', previousReport: true },
  ...[1, 40].map((n) => ({ label: `writing XLSX, Summary check sheet row ${n}`, at: `report:xlsx:sheet=Summary check:rows=${n}`, previousReport: true })),
  { label: 'writing XLSX, Payments sheet row 120', at: 'report:xlsx:sheet=Payments:rows=120', previousReport: true },
  { label: 'publishing: every file written, the folder not yet renamed', at: 'report:publish', previousReport: true },
  { label: 'swapping', at: 'report:swap', previousReport: true },
];
const LONG_POSTGRES_POINTS: KillPoint[] = [...[1, 45, 80].map((n) => ({ label: `committing batch ${n}`, at: `store:commit:pages=${n}`, previousReport: false })), ...LONG_POINTS];

describe('SIGKILL at each stage, then the same command again (--no-db spool)', () => {
  it.each(SPOOL_POINTS)('$label', (point) => killAndResume(SPOOL, point));
});

describe.skipIf(pg.url === null)(`SIGKILL at each stage, then the same command again (PostgreSQL)${pg.skipReason === null ? '' : ` (skipped: ${pg.skipReason})`}`, () => {
  it.each(POSTGRES_POINTS)('$label', (point) => killAndResume(POSTGRES, point));
});

describe.skipIf(!LONG_TAIL)(longTitle('SIGKILL at early, middle and late positions of every stage'), () => {
  it.each(LONG_POINTS)('spool: $label ($at)', (point) => killAndResume(SPOOL, point));
  it.skipIf(pg.url === null).each(LONG_POSTGRES_POINTS)('postgres: $label ($at)', (point) => killAndResume(POSTGRES, point));
});
