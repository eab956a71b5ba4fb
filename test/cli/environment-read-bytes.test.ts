/**
 * The files do not depend on how payments are read (docs/extraction.md#environment-level-payments):
 * the same export with each environment read whole (the default on a database, when it takes fewer
 * requests; asked for with `paymentsRead: "environment"` on the spool) and with per-wallet reads
 * forced (`paymentsRead: "wallet"` in the config file) writes every CSV and XLSX byte for byte the
 * same, on the spool and on the Postgres server, with fewer payments requests when read whole.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assertBuilt, describeRun, runCli } from '../support/cli/cli.js';
import { dropSchemas, probePostgres, uniqueSchemaName } from '../support/cli/pg.js';
import { startTestSim, type TestSim } from '../support/cli/sim.js';
import { workspace } from '../support/cli/workspace.js';
import { reportFiles } from '../support/sinks/report-files.js';

const pg = await probePostgres();
const ws = workspace('environment-read-bytes');
const schemas = [uniqueSchemaName('envread'), uniqueSchemaName('walletread')];
let sim: TestSim;
let env: Record<string, string>;

beforeAll(async () => {
  assertBuilt();
  // many wallets of a few payments each: reading the environment whole takes fewer requests
  sim = await startTestSim({ scale: 600, wallets: 24 });
  env = { ...sim.env({ keyOf: 1 }), ...(pg.url ? { DATABASE_URL: pg.url } : {}) };
});

afterAll(async () => {
  await sim?.close();
  if (pg.url) await dropSchemas(pg.url, schemas);
  ws.remove();
});

async function exportWith(label: string, read: 'auto' | 'environment' | 'wallet', store: string[]): Promise<{ files: Map<string, Buffer>; walletFiltered: number; whole: number }> {
  const cwd = ws.fresh(label);
  writeFileSync(join(cwd, 'payexport.json'), JSON.stringify({ paymentsRead: read }));
  const before = sim.sim.requestLog.entries().length;
  const args = ['export', '--config', 'payexport.json', '--from', '2026-10-01', '--to', '2026-10-31', ...store, '--format', 'csv,xlsx'];
  const result = await runCli(args, { cwd, env });
  expect([0, 65], describeRun(args, result)).toContain(result.code);
  const lists = sim.sim.requestLog
    .entries()
    .slice(before)
    .filter((e) => /\/environments\/[^/]+\/payments$/.test(e.path));
  const walletFiltered = lists.filter((e) => new URLSearchParams(e.query).has('wallet_id')).length;
  return { files: reportFiles(join(cwd, 'reports')), walletFiltered, whole: lists.length - walletFiltered };
}

function expectSameFiles(a: Map<string, Buffer>, b: Map<string, Buffer>): void {
  expect([...b.keys()].sort()).toEqual([...a.keys()].sort());
  expect(a.size).toBeGreaterThanOrEqual(2);
  for (const [file, bytes] of a) expect(b.get(file)?.equals(bytes), file).toBe(true);
}

describe('reading payments per environment or per wallet writes the same files', () => {
  it('on the spool (--no-db)', async () => {
    // `auto` reads per wallet on the spool (src/jobs/whole-environments.ts): the whole read is asked for
    const whole = await exportWith('spool-whole', 'environment', ['--no-db']);
    const auto = await exportWith('spool-auto', 'auto', ['--no-db']);
    expect(auto.whole).toBe(0);
    const perWallet = await exportWith('spool-wallet', 'wallet', ['--no-db']);
    expect(whole.walletFiltered).toBe(0);
    expect(whole.whole).toBeGreaterThan(0);
    expect(perWallet.whole).toBe(0);
    expect(whole.whole).toBeLessThan(perWallet.walletFiltered);
    expectSameFiles(whole.files, perWallet.files);
  });

  it.skipIf(pg.url === null)(`on the Postgres server${pg.skipReason === null ? '' : ` (skipped: ${pg.skipReason})`}`, async () => {
    const whole = await exportWith('pg-whole', 'auto', ['--schema', schemas[0]!]);
    const perWallet = await exportWith('pg-wallet', 'wallet', ['--schema', schemas[1]!]);
    expect(whole.walletFiltered).toBe(0);
    expect(perWallet.whole).toBe(0);
    expect(whole.whole).toBeLessThan(perWallet.walletFiltered);
    expectSameFiles(whole.files, perWallet.files);
  });
});
