import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig, type LoadedConfig } from '../../../src/config/load.js';
import type { DeliveryRecord } from '../../../src/delivery/delivery-record.js';
import { noDbDeliveriesPath, recordDeliveries } from '../../../src/delivery/record-deliveries.js';
import { outstandingDeliveryFailures } from '../../../src/delivery/outstanding-failures.js';
import { openDatabaseSnapshot } from '../../../src/store/database-snapshot.js';
import { latestDeliveries } from '../../../src/store/sql/latest-deliveries.js';
import { createMemoryLogger } from '../../../src/util/log.js';
import { dropSchemas, probePostgres, uniqueSchemaName } from '../../support/cli/pg.js';
import { variantSkip } from '../../support/long-runs.js';

/**
 * The deliveries table (migration 009) on both engines — the embedded database and the real
 * Postgres server — and the `--no-db` spool's deliveries.jsonl: rows written and read back, a
 * repeat of a run overwrites its row, and the latest row per destination is what a retry reads.
 * `npm test` runs the Postgres server and the spool; the embedded database (the same SQL, opened
 * six times on single-threaded WASM) with the long runs, as its other suites keep it
 * (docs/testing.md#one-of-each-in-npm-test-every-variant-in-the-long-runs).
 */

const root = mkdtempSync(join(tmpdir(), 'payexport-deliveries-record-'));
const pg = await probePostgres();
const schema = uniqueSchemaName('deliveries');
afterAll(async () => {
  rmSync(root, { recursive: true, force: true });
  if (pg.url) await dropSchemas(pg.url, [schema]);
});

const records: DeliveryRecord[] = [
  { destination: 'accountant', kind: 'sftp', report: 'month-end/2026-10', remote: 'sftp://books@sftp.example.com:22/in/month-end/2026-10', outcome: 'failed', files_sent: 3, bytes_sent: 5_000_000_000, attempts: 3, detail: 'sftp://books@sftp.example.com:22: write …: Connection lost', duration_ms: 9000 },
  { destination: 'archive', kind: 's3', report: 'month-end/2026-10', remote: 's3://books/acme/month-end/2026-10/', outcome: 'delivered', files_sent: 10, bytes_sent: 123456, attempts: 1, detail: 'delivered', duration_ms: 800 },
];

async function readBack(loaded: LoadedConfig, cwd: string): Promise<Array<Record<string, unknown>>> {
  const store = await openDatabaseSnapshot({ schema: loaded.config.dbSchema, ...(loaded.secrets.databaseUrl ? { databaseUrl: loaded.secrets.databaseUrl } : { dataDir: join(cwd, 'data') }) });
  try {
    return (await latestDeliveries(store.db, store.schema, 'month-end/2026-10')).map((r) => ({ run_id: r.run_id, destination: r.destination, outcome: r.outcome, bytes_sent: r.bytes_sent, attempts: r.attempts }));
  } finally {
    await store.close();
  }
}

async function roundTrip(loaded: LoadedConfig, cwd: string): Promise<void> {
  const log = createMemoryLogger();
  expect(await recordDeliveries(loaded, cwd, 'run-1', records, log.log)).toBe('database');
  // the retry of the failed one, by `payexport deliver`, under its own run id
  expect(await recordDeliveries(loaded, cwd, 'run-2', [{ ...records[0]!, outcome: 'delivered', attempts: 1, detail: 'delivered' }], log.log)).toBe('database');
  expect(log.records().filter((r) => r.level === 'warn' || r.level === 40)).toEqual([]);
  // run-1's failure was healed by run-2: nothing outstanding; a new failure elsewhere is
  expect(await outstandingDeliveryFailures(loaded, cwd)).toEqual([]);
  await recordDeliveries(loaded, cwd, 'run-3', [{ ...records[1]!, report: 'nightly/2026-11-21', outcome: 'failed', detail: 'HTTP 503' }], log.log);
  expect((await outstandingDeliveryFailures(loaded, cwd)).map((r) => [r.run_id, r.destination, r.report])).toEqual([['run-3', 'archive', 'nightly/2026-11-21']]);
  expect(await readBack(loaded, cwd)).toEqual([
    { run_id: 'run-2', destination: 'accountant', outcome: 'delivered', bytes_sent: 5_000_000_000, attempts: 1 },
    { run_id: 'run-1', destination: 'archive', outcome: 'delivered', bytes_sent: 123456, attempts: 1 },
  ]);
}

const embeddedSkip = variantSkip(pg.url === null);

describe('recordDeliveries', () => {
  it.skipIf(embeddedSkip !== null)(`embedded database: one row per run, destination and folder; the latest per destination read back${embeddedSkip === null ? '' : ` (skipped: ${embeddedSkip})`}`, { timeout: 180_000 }, async () => {
    const cwd = join(root, 'embedded');
    mkdirSync(join(cwd, 'data'), { recursive: true });
    await roundTrip(loadConfig({ flags: {}, env: {}, cwd }), cwd);
  });

  it.skipIf(pg.url === null)(`Postgres server${pg.skipReason ? ` (skipped: ${pg.skipReason})` : ''}`, async () => {
    const cwd = join(root, 'pg');
    mkdirSync(cwd, { recursive: true });
    await roundTrip(loadConfig({ flags: { dbSchema: schema }, env: { DATABASE_URL: pg.url! }, cwd }), cwd);
  });

  it('--no-db: one JSON line per outcome in the spool state folder', async () => {
    const cwd = join(root, 'spool');
    mkdirSync(cwd);
    const loaded = loadConfig({ flags: { db: false }, env: {}, cwd });
    expect(await recordDeliveries(loaded, cwd, 'run-3', records, createMemoryLogger().log)).toBe('spool');
    const lines = readFileSync(noDbDeliveriesPath(loaded, cwd), 'utf8').trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(lines.map((l) => [l.run_id, l.destination, l.outcome, l.bytes_sent])).toEqual([
      ['run-3', 'accountant', 'failed', 5_000_000_000],
      ['run-3', 'archive', 'delivered', 123456],
    ]);
    expect(noDbDeliveriesPath(loaded, cwd)).toBe(join(cwd, 'reports', '.state', 'deliveries.jsonl'));
    expect((await outstandingDeliveryFailures(loaded, cwd)).map((r) => r.destination)).toEqual(['accountant']);
    await recordDeliveries(loaded, cwd, 'run-4', [{ ...records[0]!, outcome: 'delivered' }], createMemoryLogger().log);
    expect(await outstandingDeliveryFailures(loaded, cwd)).toEqual([]);
  });
});
