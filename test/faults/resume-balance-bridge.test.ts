import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assertBuilt, describeRun, runCli, splitStderr } from '../support/cli/cli.js';
import { dropSchemas, probePostgres, uniqueSchemaName } from '../support/cli/pg.js';
import { PLANTED_SECRETS, type TestSim } from '../support/cli/sim.js';
import { workspace } from '../support/cli/workspace.js';
import { btcWallet, makePayments } from '../support/listen/harness.js';
import { csvRecords, expectExit } from './support/invariants.js';
import { startOctoberSim } from './support/setting.js';

/**
 * PROC-18: a nightly resumed after a failure, with payments landing in between, must not end 65
 * on `balance.api_total` (the soak found it; docs/reliability.md).
 *
 * The first nightly pulls everything — every ledger stream checkpointed done — and fails in the
 * report stage (a full disk at `report:open`, 74). Payments are then written to the simulator and
 * settled, so the wallet's ledger and its API balance both move past what that run read. The same
 * command again resumes from the checkpoints and reads the balance afresh: the bridge (closing +
 * movements since the window end = the API balance now) must tie, so the movements must reach the
 * new balance too. The control plants a real difference in the API balance on the same path: the
 * resumed run must still say 65 and name it.
 */

const pg = await probePostgres();
const ws = workspace('faults-resume-bridge');
let sim: TestSim;
const schemas: string[] = [];

beforeAll(async () => {
  assertBuilt();
  // a written payment steps through its states an hour apart: nothing moves until settle()
  sim = await startOctoberSim({ timing: { stepMs: 3_600_000, readableAfterMs: 0 } });
});

afterAll(async () => {
  await sim?.close();
  if (pg.url && schemas.length > 0) await dropSchemas(pg.url, schemas);
  ws.remove();
});

interface Engine {
  name: string;
  args(): string[];
  env(): Record<string, string>;
}

const SPOOL: Engine = { name: 'spool', args: () => ['--no-db'], env: () => ({}) };
const POSTGRES: Engine = {
  name: 'postgres',
  args: () => {
    const schema = uniqueSchemaName('rbridge');
    schemas.push(schema);
    return ['--schema', schema];
  },
  env: () => ({ DATABASE_URL: pg.url ?? '' }),
};

const yesterday = (): string => new Date(Date.now() - 86_400_000).toISOString().slice(0, 10);

/** The nightly that fails after its pull, payments landing, then the same nightly again (with `between` done last). */
async function failPayResume(engine: Engine, label: string, between: () => void = () => undefined): Promise<{ code: number | null; stderr: string; balances: Array<Record<string, string>>; wallet: string }> {
  const cwd = ws.fresh(`${engine.name}-${label}`);
  const date = yesterday();
  const args = ['nightly', '--date', date, ...engine.args(), '--page-size', '50'];
  const env = { ...sim.env('token'), ...engine.env() };
  const failed = await runCli(args, { cwd, env: { ...env, PAYEXPORT_FAULT_AT: 'report:open@full' } });
  expectExit(args, failed, 74, { secrets: PLANTED_SECRETS, dirs: [cwd] });

  const wallet = btcWallet(sim.sim);
  await makePayments(sim.sim, 6, wallet);
  await sim.sim.settle();
  between();

  const resumed = await runCli(args, { cwd, env });
  const logs = splitStderr(resumed.stderr).logs;
  expect(logs.some((r) => r.msg === 'resuming an interrupted run from its checkpoints'), describeRun(args, resumed)).toBe(true);
  const balances = resumed.code === 0 || resumed.code === 65 ? csvRecords(join(cwd, 'reports/nightly', date, 'balances.csv')) : [];
  return { code: resumed.code, stderr: resumed.stderr, balances, wallet };
}

function bridgeRow(balances: Array<Record<string, string>>, wallet: string): Record<string, string> {
  const row = balances.find((r) => r['wallet_id'] === wallet && r['currency'] === 'btc');
  expect(row, `balances.csv has the wallet ${wallet}`).toBeDefined();
  return row!;
}

describe.each([SPOOL, ...(pg.url === null ? [] : [POSTGRES])])('a nightly resumed after a failure, payments landing in between ($name)', (engine) => {
  it('ties the balance bridge and exits 0', async () => {
    const run = await failPayResume(engine, 'tie');
    expect(run.code, run.stderr).toBe(0);
    const row = bridgeRow(run.balances, run.wallet);
    expect(row['balance_check'], JSON.stringify(row)).toBe('bridge');
    // the payments written after the first run are in the movements since the window end
    expect(BigInt(row['movements_since_base'] ?? '0'), JSON.stringify(row)).not.toBe(0n);
    expect(row['bridge_difference_base'], JSON.stringify(row)).toBe('0');
  }, 120_000);

  it('still exits 65 when the API balance is truly off', async () => {
    const DELTA = 7_000n;
    let index = -1;
    const run = await failPayResume(engine, 'off', () => {
      index = sim.sim.dataset.wallets.findIndex((w) => w.id === btcWallet(sim.sim));
      sim.sim.dataset.plan.balanceDelta.set(index, DELTA);
    });
    sim.sim.dataset.plan.balanceDelta.delete(index);
    expect(run.code, run.stderr).toBe(65);
    const row = bridgeRow(run.balances, run.wallet);
    expect(row['balance_check'], JSON.stringify(row)).toBe('bridge');
    // closing + movements − the API balance: the planted difference exactly, no more
    expect(BigInt(row['bridge_difference_base'] ?? ''), JSON.stringify(row)).toBe(-DELTA);
  }, 120_000);
});
