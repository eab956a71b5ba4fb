import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { acquireRunLock } from '../../src/store/sql/run-lock.js';
import { storeSchema } from '../../src/store/db/schema.js';
import { assertBuilt, describeRun, runCli, splitStderr } from '../support/cli/cli.js';
import { dropSchemas, probePostgres, schemaText, uniqueSchemaName, urlWithPassword, withDb } from '../support/cli/pg.js';
import { expectNoSecrets } from '../support/cli/secrets.js';
import { PLANTED_SECRETS, startTestSim, type TestSim } from '../support/cli/sim.js';
import { folderDigest, RUN_FILES } from '../support/pipeline/folder-digest.js';
import { workspace } from '../support/cli/workspace.js';

/**
 * The job commands against a real Postgres snapshot: export, then `report` rebuilding the same
 * files from the snapshot alone; month-end closing a period; nightly; `db migrate`; the advisory
 * lock (75); and no credential in any output or any table.
 */

const pg = await probePostgres();
const ws = workspace('pg');
const schema = uniqueSchemaName('cli');
let sim: TestSim;
let database = { url: '', password: '' };
let env: Record<string, string>;

describe.skipIf(pg.url === null)(`job commands on PostgreSQL${pg.skipReason === null ? '' : ` (skipped: ${pg.skipReason})`}`, () => {
  beforeAll(async () => {
    assertBuilt();
    sim = await startTestSim();
    database = urlWithPassword(pg.url!, 'PLANTEDpgPassword-2b7d');
    env = { ...sim.env({ keyOf: 1 }), DATABASE_URL: database.url };
  });

  afterAll(async () => {
    await sim?.close();
    if (pg.url) await dropSchemas(pg.url, [schema]);
    ws.remove();
  });

  const secrets = (): string[] => [...PLANTED_SECRETS, database.password];
  const october = ['--from', '2026-10-01', '--to', '2026-10-31'];

  it('db migrate creates the schema and says where, password redacted', async () => {
    const cwd = ws.fresh('migrate');
    const args = ['db', 'migrate', '--schema', schema];
    const result = await runCli(args, { cwd, env });
    expect(result.code, describeRun(args, result)).toBe(0);
    expect(result.stdout).toMatch(new RegExp(`^schema ${schema} on postgres://\\S+: \\{`));
    expectNoSecrets(secrets(), { texts: [result.stdout, result.stderr] });
  });

  it('export, then report rebuilds byte-identical CSV and XLSX from the snapshot without one API call', async () => {
    const cwd = ws.fresh('export-report');
    const exportArgs = ['export', ...october, '--schema', schema, '--out', 'live'];
    const exported = await runCli(exportArgs, { cwd, env });
    expect(exported.code, describeRun(exportArgs, exported)).toBe(0);

    const requestsBefore = sim.sim.requestLog.entries().length;
    const reportArgs = ['report', ...october, '--job', 'export', '--schema', schema, '--out', 'rebuilt'];
    const rebuilt = await runCli(reportArgs, { cwd, env });
    expect(rebuilt.code, describeRun(reportArgs, rebuilt)).toBe(0);
    expect(sim.sim.requestLog.entries().length, 'report makes no API call').toBe(requestsBefore);

    const live = join(cwd, 'live/export/2026-10-01_2026-10-31');
    const again = join(cwd, 'rebuilt/export/2026-10-01_2026-10-31');
    // every file but those of the run: the manifest (its run fields), its signature, the pull's evidence (a rebuild pulls nothing)
    const files = readdirSync(live).filter((f) => !RUN_FILES.has(f)).sort();
    expect(files).toEqual(expect.arrayContaining(['payments.csv', 'ledger.csv', 'report.xlsx']));
    expect(readdirSync(again).filter((f) => !RUN_FILES.has(f)).sort()).toEqual(files);
    for (const file of files) expect(readFileSync(join(again, file)).equals(readFileSync(join(live, file))), file).toBe(true);
    expect((await folderDigest(again)).manifest).toEqual((await folderDigest(live)).manifest);
    expectNoSecrets(secrets(), { texts: [exported.stdout, exported.stderr, rebuilt.stdout, rebuilt.stderr], dirs: [cwd] });
  });

  it('report --dry-run lists the wallets the snapshot holds', async () => {
    const cwd = ws.fresh('report-dry');
    const args = ['report', '--month', '2026-10', '--schema', schema, '--dry-run'];
    const result = await runCli(args, { cwd, env });
    expect(result.code, describeRun(args, result)).toBe(0);
    for (const wallet of sim.sim.wallets.filter((w) => w.environmentId === sim.sim.environments[1]!.id)) expect(result.stdout).toContain(wallet.id);
    expect(readdirSync(cwd)).toEqual([]);
  });

  it('month-end closes October once; a rerun leaves the closed folder as it is', async () => {
    const cwd = ws.fresh('month-end');
    const args = ['month-end', '--month', '2026-10', '--allow-open', '--schema', schema];
    const first = await runCli(args, { cwd, env });
    expect(first.code, describeRun(args, first)).toBe(0);
    const closed = await withDb(pg.url!, (db) => db.query<{ period: string }>(`SELECT period FROM ${storeSchema(schema).table('closed_periods')}`));
    expect(closed.rows.map((r) => r.period)).toEqual(['2026-10']);
    const second = await runCli(args, { cwd, env });
    expect(second.code, describeRun(args, second)).toBe(0);
    expect(second.stdout).toMatch(/files\s+\S+\/reports\/month-end\/2026-10(\.amended-1)? ?/);
    expect(readdirSync(join(cwd, 'reports/month-end'))).toContain('2026-10');
  });

  it('nightly reads incrementally from the snapshot', async () => {
    const cwd = ws.fresh('nightly');
    const args = ['nightly', '--date', '2026-11-20', '--schema', schema];
    const result = await runCli(args, { cwd, env });
    expect(result.code, describeRun(args, result)).toBe(0);
    expect(result.stdout).toMatch(/files\s+\S+\/reports\/nightly\/2026-11-20/);
  });

  it('75: another process holds the run lock (advisory lock on the server)', async () => {
    const cwd = ws.fresh('lock');
    await withDb(pg.url!, async (db) => {
      const lock = await acquireRunLock(db, storeSchema(schema), sim.sim.organizationId, 'export');
      try {
        const args = ['export', ...october, '--schema', schema];
        const result = await runCli(args, { cwd, env });
        expect(result.code, describeRun(args, result)).toBe(75);
        expect(splitStderr(result.stderr).plain).toEqual([expect.stringMatching(/^payexport: another export run for organization \S+ is in progress .*; try again later$/)]);
      } finally {
        await lock.release();
      }
    });
  });

  it('no credential reached any table of the snapshot', async () => {
    const text = await withDb(pg.url!, (db) => schemaText(db, schema));
    expect(text.length).toBeGreaterThan(10_000);
    expectNoSecrets(secrets(), { texts: [text] });
  });
});
