import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { quoteIdent } from '../../src/store/db/schema.js';
import { assertBuilt, describeRun, runCli, splitStderr, startCli, type CliResult, type RunningCli } from '../support/cli/cli.js';
import { dropSchemas, probePostgres, uniqueSchemaName, urlWithPassword, withDb } from '../support/cli/pg.js';
import { PLANTED_SECRETS, startTestSim, type TestSim } from '../support/cli/sim.js';
import { workspace } from '../support/cli/workspace.js';
import { expectExit, expectNoPartialFolders, expectPaymentsComplete, truthPaymentIds } from './support/invariants.js';
import { expectSnapshotComplete, snapshotFacts } from './support/pg-snapshot.js';
import { DATASET, OCTOBER, PERIOD, startOctoberSim } from './support/setting.js';
import { startTcpProxy } from './support/tcp-proxy.js';

/**
 * PROC-06 (two runs at once) and PROC-10/11 (the database goes away mid-run): exactly one of two
 * simultaneous runs works, the other exits 75 at once — while the first still runs — and the
 * result has every payment once; a run whose database disappears exits 75 and the rerun resumes
 * and completes with nothing doubled in the snapshot.
 */

const pg = await probePostgres();
const ws = workspace('faults-concurrency');
const WINDOW = { from: '2026-10-01T00:00:00Z', to: '2026-11-01T00:00:00Z' };
const schemas: string[] = [];
let sim: TestSim;
let slow: TestSim;
let truth: string[];
let database = { url: '', password: '' };

beforeAll(async () => {
  assertBuilt();
  sim = await startOctoberSim();
  // the same data, slowed down: a run lasts long enough for another to try its luck meanwhile
  slow = await startTestSim({ dataset: sim.sim.dataset, faults: 'latency=25ms' });
  truth = truthPaymentIds(sim.sim.dataset, DATASET.from, DATASET.to);
  if (pg.url) database = urlWithPassword(pg.url, 'PLANTEDpgConcurrency-5e2a');
});

afterAll(async () => {
  await sim?.close();
  await slow?.close();
  if (pg.url && schemas.length > 0) await dropSchemas(pg.url, schemas);
  ws.remove();
});

const secrets = (): string[] => [...PLANTED_SECRETS, ...(database.password ? [database.password] : [])];

function newSchema(): string {
  const schema = uniqueSchemaName('concurrent');
  schemas.push(schema);
  return schema;
}

/** Starts two identical runs at the same moment; returns them in the order they finished. */
async function race(args: string[], cwd: string, env: Record<string, string>): Promise<{ first: CliResult; second: CliResult }> {
  const finished: CliResult[] = [];
  const runs: RunningCli[] = [startCli(args, { cwd, env }), startCli(args, { cwd, env })];
  await Promise.all(runs.map((run) => run.result.then((result) => finished.push(result))));
  return { first: finished[0]!, second: finished[1]! };
}

describe('two runs of the same job at once', () => {
  it('--no-db: one exits 75 while the other is still running; the other completes with every payment once', async () => {
    const cwd = ws.fresh('race-spool');
    const args = ['export', ...OCTOBER, '--no-db'];
    const { first, second } = await race(args, cwd, slow.env('token'));
    expectExit(args, first, 75, { message: /another export run is in progress \(pid \d+ on .+ since .+\); try again later/, secrets: PLANTED_SECRETS, dirs: [cwd] });
    expectExit(args, second, 0, { secrets: PLANTED_SECRETS, dirs: [cwd] });
    expect(expectNoPartialFolders(join(cwd, 'reports'), 'export')).toEqual([PERIOD]);
    expectPaymentsComplete(join(cwd, 'reports/export', PERIOD), truth, 'the winner');
  });

  it.skipIf(pg.url === null)(`PostgreSQL: one exits 75 on the advisory lock while the other runs; the snapshot holds every payment once${pg.skipReason === null ? '' : ` (skipped: ${pg.skipReason})`}`, async () => {
    const cwd = ws.fresh('race-pg');
    const schema = newSchema();
    const args = ['export', ...OCTOBER, '--schema', schema];
    const { first, second } = await race(args, cwd, { ...slow.env('token'), DATABASE_URL: database.url });
    expectExit(args, first, 75, { message: /another export run for organization \S+ is in progress \(.+\); try again later/, secrets: secrets(), dirs: [cwd] });
    expectExit(args, second, 0, { secrets: secrets(), dirs: [cwd] });
    expect(expectNoPartialFolders(join(cwd, 'reports'), 'export')).toEqual([PERIOD]);
    expectPaymentsComplete(join(cwd, 'reports/export', PERIOD), truth, 'the winner');
    expectSnapshotComplete(await snapshotFacts(database.url, schema, sim.sim.organizationId, WINDOW), truth, 'after the race');
  });
});

describe.skipIf(pg.url === null)(`the database goes away mid-run${pg.skipReason === null ? '' : ` (skipped: ${pg.skipReason})`}`, () => {
  /** Waits until the run has committed at least `pages` pages (checkpoints) into `schema` (or has ended). */
  async function committed(schema: string, pages: number, run: RunningCli): Promise<void> {
    await withDb(pg.url!, async (db) => {
      while (run.child.exitCode === null) {
        const n = await db
          .query<{ n: string }>(`SELECT coalesce(sum(pages), 0) AS n FROM ${quoteIdent(schema)}.checkpoints`)
          .then((r) => Number(r.rows[0]?.n ?? 0), () => 0);
        if (n >= pages) return;
        await new Promise((resolve) => setTimeout(resolve, 25));
      }
    });
  }

  async function outageThenRerun(cut: (proxy: Awaited<ReturnType<typeof startTcpProxy>>) => Promise<void>): Promise<{ failed: CliResult; rerun: CliResult }> {
    const upstream = new URL(pg.url!);
    const proxy = await startTcpProxy({ host: upstream.hostname, port: Number(upstream.port || 5432) });
    const cwd = ws.fresh('db-down');
    const schema = newSchema();
    const args = ['export', ...OCTOBER, '--schema', schema, '--page-size', '10'];
    const running = startCli(args, { cwd, env: { ...slow.env('token'), DATABASE_URL: proxy.urlThrough(database.url) } });
    await committed(schema, 10, running);
    await cut(proxy);
    const failed = await running.result;
    await proxy.cut();
    expect(expectNoPartialFolders(join(cwd, 'reports'), 'export')).toEqual([]);

    const rerun = await runCli(args, { cwd, env: { ...sim.env('token'), DATABASE_URL: database.url } });
    expectExit(args, rerun, 0, { secrets: secrets(), dirs: [cwd] });
    expect(splitStderr(rerun.stderr).logs.some((r) => r.msg === 'resuming an interrupted run from its checkpoints'), describeRun(args, rerun)).toBe(true);
    expect(expectNoPartialFolders(join(cwd, 'reports'), 'export')).toEqual([PERIOD]);
    expectPaymentsComplete(join(cwd, 'reports/export', PERIOD), truth, 'after the outage');
    expectSnapshotComplete(await snapshotFacts(database.url, schema, sim.sim.organizationId, WINDOW), truth, 'after the outage');
    return { failed, rerun };
  }

  it('75: the connection to Postgres is cut mid-pull (the host goes away); the rerun resumes, nothing doubled', async () => {
    const { failed } = await outageThenRerun((proxy) => proxy.cut());
    expectExit(['export (database cut)'], failed, 75, { message: /database postgres:\/\/\S+@127\.0\.0\.1:\d+\/\S* is unavailable \(.+\); try again later/, secrets: secrets() });
  });

  it("75: the run's backends are terminated mid-pull (pg_terminate_backend); the rerun resumes, nothing doubled", async () => {
    const { failed } = await outageThenRerun(async (proxy) => {
      // the database refuses new connections too: a restarting server, not a single dropped session
      const ports = proxy.upstreamPorts();
      await withDb(pg.url!, (db) => db.query('SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE client_port = ANY($1::int[])', [ports.map(String)]));
      await proxy.cut();
    });
    expectExit(['export (backends terminated)'], failed, 75, { message: /database postgres:\/\/\S+ is unavailable \(.+\); try again later/, secrets: secrets() });
  });
});
