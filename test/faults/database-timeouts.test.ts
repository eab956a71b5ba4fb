import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { quoteIdent } from '../../src/store/db/schema.js';
import { assertBuilt, describeRun, runCli, splitStderr } from '../support/cli/cli.js';
import { dropSchemas, probePostgres, uniqueSchemaName, urlWithPassword } from '../support/cli/pg.js';
import { PLANTED_SECRETS, type TestSim } from '../support/cli/sim.js';
import { workspace } from '../support/cli/workspace.js';
import { expectExit, expectNoPartialFolders, expectPaymentsComplete, truthPaymentIds } from './support/invariants.js';
import { expectSnapshotComplete, snapshotFacts } from './support/pg-snapshot.js';
import { DATASET, LONG_TAIL, LONG_TAIL_SKIP, longTitle, OCTOBER, PERIOD, startOctoberSim } from './support/setting.js';

/**
 * PROC-12: a statement held past `lock_timeout` / `statement_timeout` on the real server. A run is
 * killed mid-pull (so there is something to resume); another session then holds an ACCESS
 * EXCLUSIVE lock on the snapshot's payments table — what a careless `ALTER TABLE` or a long
 * manual transaction does — while the same command runs again with the timeouts scaled down by
 * configuration (`dbLockTimeoutMs`, `dbStatementTimeoutMs`; 60 s and 15 min by default). The
 * blocked statement is cancelled by the server: exit 75 naming the timeout (was exit 1, the
 * SQLSTATE unclassified: a bug), no partial folder; once the lock is gone, the same command
 * resumes from its checkpoints and the snapshot and files hold every payment once.
 */

const pgProbe = await probePostgres();
const ws = workspace('faults-db-timeouts');
const WINDOW = { from: '2026-10-01T00:00:00Z', to: '2026-11-01T00:00:00Z' };
const schemas: string[] = [];
let sim: TestSim;
let truth: string[];
let database = { url: '', password: '' };

beforeAll(async () => {
  assertBuilt();
  sim = await startOctoberSim();
  truth = truthPaymentIds(sim.sim.dataset, DATASET.from, DATASET.to);
  if (pgProbe.url) database = urlWithPassword(pgProbe.url, 'PLANTEDpgTimeouts-41d7');
});

afterAll(async () => {
  await sim?.close();
  if (pgProbe.url && schemas.length > 0) await dropSchemas(pgProbe.url, schemas);
  ws.remove();
});

const secrets = (): string[] => [...PLANTED_SECRETS, database.password];

/** the statement_timeout case in `npm run test:faults` only (each case is a kill and two reruns, ~15 s) */
const CASES = [
  { label: 'lock_timeout (55P03)', long: false, config: { dbLockTimeoutMs: 500 }, message: /waited longer than lock_timeout for a lock another session holds \(55P03\); try again later/ },
  { label: longTitle('statement_timeout (57014)'), long: true, config: { dbLockTimeoutMs: 60_000, dbStatementTimeoutMs: 800 }, message: /a statement was cancelled \(statement_timeout\) \(57014\); try again later/ },
];

describe.skipIf(pgProbe.url === null)(`PROC-12: a statement held past the server's timeouts${pgProbe.skipReason === null ? '' : ` (skipped: ${pgProbe.skipReason})`}`, () => {
  it.for(CASES)('$label: 75 naming it; the rerun after the lock is gone resumes, every payment once', async ({ config, message, long }, context) => {
    context.skip(long && !LONG_TAIL, LONG_TAIL_SKIP);
    const cwd = ws.fresh('timeout');
    const schema = uniqueSchemaName('timeouts');
    schemas.push(schema);
    writeFileSync(join(cwd, 'timeouts.json'), JSON.stringify(config));
    const args = ['export', ...OCTOBER, '--schema', schema, '--page-size', '10', '--config', 'timeouts.json'];
    const env = { ...sim.env('token'), DATABASE_URL: database.url };

    const killed = await runCli(args, { cwd, env: { ...env, PAYEXPORT_FAULT_AT: 'store:commit:pages=12' } });
    expect(killed.signal, describeRun(args, killed)).toBe('SIGKILL');

    const holder = new pg.Client({ connectionString: pgProbe.url! });
    await holder.connect();
    try {
      await holder.query('BEGIN');
      await holder.query(`LOCK TABLE ${quoteIdent(schema)}.payments IN ACCESS EXCLUSIVE MODE`);
      const blocked = await runCli(args, { cwd, env });
      expectExit(args, blocked, 75, { message, secrets: secrets(), dirs: [cwd] });
      expect(expectNoPartialFolders(join(cwd, 'reports'), 'export')).toEqual([]);
    } finally {
      await holder.query('ROLLBACK').catch(() => undefined);
      await holder.end();
    }

    const rerun = await runCli(args, { cwd, env });
    expectExit(args, rerun, 0, { secrets: secrets(), dirs: [cwd] });
    expect(splitStderr(rerun.stderr).logs.some((r) => r.msg === 'resuming an interrupted run from its checkpoints'), describeRun(args, rerun)).toBe(true);
    expect(expectNoPartialFolders(join(cwd, 'reports'), 'export')).toEqual([PERIOD]);
    expectPaymentsComplete(join(cwd, 'reports/export', PERIOD), truth, 'after the lock');
    expectSnapshotComplete(await snapshotFacts(database.url, schema, sim.sim.organizationId, WINDOW), truth, 'after the lock');
  });
});
