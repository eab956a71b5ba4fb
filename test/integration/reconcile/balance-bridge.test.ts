/**
 * balances.csv never shows a figure that contradicts its neighbours (issue 18): every row is read
 * back with Python's csv module and, in exact decimal arithmetic,
 *   direct:  difference        = closing − api_balance
 *   bridge:  bridge_difference = closing + movements_since − api_balance_now
 * for a window that reaches the present (checked directly) and a past month (checked by the bridge).
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { JOB_FLAGS } from '../../../src/jobs/pipeline-spec.js';
import type { PipelineSpec } from '../../../src/jobs/pipeline.js';
import { startSimulator, type SimHandle } from '../../../src/sim/index.js';
import { monthPeriod, rangePeriod } from '../../../src/model/period.js';
import { readCsvWithPython, readersMissing } from '../../support/readers/readers.js';
import { runAgainstSimulator, type PipelineRun } from '../../support/pipeline/run-pipeline.js';

const missing = readersMissing('csv');

/** A plain decimal ("-12.50") as an integer of `scale` decimals: exact, never a float. */
function scaled(text: string, scale: number): bigint {
  const m = /^(-?)(\d+)(?:\.(\d+))?$/.exec(text);
  if (m === null) throw new Error(`not a plain decimal: ${JSON.stringify(text)}`);
  const fraction = (m[3] ?? '').padEnd(scale, '0');
  if (fraction.length > scale) throw new Error(`${text} has more than ${scale} decimals`);
  const v = BigInt(`${m[2]}${fraction}`);
  return m[1] === '-' ? -v : v;
}

function balanceRows(run: PipelineRun): Record<string, string>[] {
  const csv = readCsvWithPython(join(run.dir, 'balances.csv'));
  return csv.rows.map((r) => Object.fromEntries(csv.header.map((h, i) => [h, r[i] ?? ''])));
}

function expectRowsAddUp(rows: Record<string, string>[]): void {
  for (const r of rows) {
    const scale = Math.max(...['closing', 'api_balance', 'difference', 'movements_since', 'api_balance_now', 'bridge_difference'].map((c) => (r[c] ?? '').split('.')[1]?.length ?? 0));
    const at = (c: string): bigint => scaled(r[c] as string, scale);
    const context = JSON.stringify(r);
    expect(r.wallet_name, context).not.toBe('');
    if (r.balance_check === 'direct') {
      expect(at('difference'), context).toBe(at('closing') - at('api_balance'));
      for (const c of ['movements_since', 'api_balance_now', 'bridge_difference']) expect(r[c], context).toBe('');
      // and the base units say the same
      expect(BigInt(r.difference_base as string), context).toBe(BigInt(r.closing_base as string) - BigInt(r.api_balance_base as string));
    } else if (r.balance_check === 'bridge') {
      expect(at('bridge_difference'), context).toBe(at('closing') + at('movements_since') - at('api_balance_now'));
      // today's balance is never shown beside a past closing as if they were comparable
      expect(r.api_balance, context).toBe('');
      expect(r.difference, context).toBe('');
    } else {
      expect(r.balance_check, context).toBe('not_checked');
      expect(r.balance_check_note, context).not.toBe('');
      for (const c of ['api_balance', 'difference', 'bridge_difference']) expect(r[c], context).toBe('');
    }
  }
}

describe.skipIf(missing !== null)(`balances.csv adds up, read with Python's csv${missing === null ? '' : ` (skipped: ${missing})`}`, () => {
  let sim: SimHandle;
  const runs: PipelineRun[] = [];
  const NOW = new Date();

  beforeAll(async () => {
    // October is a past month: the dataset goes on into November, so money moved after it closed
    sim = await startSimulator({ seed: 18, scale: 400, wallets: 6, from: '2026-10-01', to: '2026-11-21' });
  });
  afterAll(async () => {
    await sim?.close();
    for (const r of runs) await r.cleanup();
  });

  async function run(spec: PipelineSpec): Promise<PipelineRun> {
    const r = await runAgainstSimulator({ sim, spec, tz: 'UTC', flags: { db: false } });
    runs.push(r);
    return r;
  }

  it('a past month is checked by the bridge: closing + movements since = the API balance now', async () => {
    const r = await run({ command: 'month-end', job: 'month-end', ...JOB_FLAGS['month-end'], period: monthPeriod('2026-10', 'UTC', NOW), pull: true, incremental: false, closePeriod: true, allowOpen: true, dryRun: false });
    const rows = balanceRows(r);
    expect(rows.length).toBeGreaterThan(0);
    expect(rows.filter((x) => x.balance_check === 'bridge').length).toBeGreaterThan(0);
    // direct only where the service's balance itself dates from inside October (a wallet retired then)
    for (const x of rows.filter((y) => y.balance_check === 'direct')) expect((x.api_balance_time_utc ?? '') < '2026-11-01').toBe(true);
    // money moved after October in at least one wallet: the bridge is not a tautology
    expect(rows.some((x) => x.movements_since !== '' && scaled(x.movements_since as string, 11) !== 0n)).toBe(true);
    expectRowsAddUp(rows);
    // the clean simulator ties: every bridge closes at zero, and the check ran
    expect(rows.every((x) => x.balance_check !== 'bridge' || /^-?0(\.0+)?$/.test(x.bridge_difference as string))).toBe(true);
    const check = (await r.manifest()).checks.find((c) => c.check_id === 'balance.api_total');
    expect(check).toMatchObject({ findings: 0, passed: true });
    expect(check?.evaluated).toBe(rows.length);
  });

  it('a window that reaches the present is compared directly: difference = closing − api_balance', async () => {
    const today = NOW.toISOString().slice(0, 10);
    const r = await run({ command: 'export', job: 'export', ...JOB_FLAGS.export, period: rangePeriod('2026-11-01', today, 'UTC', NOW), pull: true, incremental: false, closePeriod: false, allowOpen: false, dryRun: false });
    const rows = balanceRows(r);
    expect(rows.length).toBeGreaterThan(0);
    expect(rows.filter((x) => x.balance_check === 'direct').length).toBe(rows.length);
    expectRowsAddUp(rows);
  });
});
