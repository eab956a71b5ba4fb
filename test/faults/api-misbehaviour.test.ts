import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AnomalyKind, SimulatorOptions } from '../../src/sim/index.js';
import { assertBuilt, runCli } from '../support/cli/cli.js';
import { PLANTED_SECRETS, type TestSim } from '../support/cli/sim.js';
import { workspace } from '../support/cli/workspace.js';
import { compareIds, csvRecords, expectExit, expectFolderUnchanged, expectNoPartialFolders, expectPaymentsComplete, folderBytes, truthPaymentIds } from './support/invariants.js';
import { DATASET, OCTOBER, PERIOD, startOctoberSim } from './support/setting.js';

/**
 * API misbehaviour end to end through the CLI (API-02, -03, -09/-10, -12, -17, -18, -20): the
 * simulator serves damaged pages or planted anomalies; the run ends with the documented code, the
 * subject is named in exceptions.csv, every payment the service has is listed exactly once (a
 * record that cannot be booked is kept and flagged, never dropped), and a broken pagination
 * publishes nothing.
 */

const ws = workspace('faults-api');
const sims: TestSim[] = [];

beforeAll(() => assertBuilt());

afterAll(async () => {
  await Promise.all(sims.map((s) => s.close()));
  ws.remove();
});

async function october(options: SimulatorOptions): Promise<TestSim> {
  const sim = await startOctoberSim(options);
  sims.push(sim);
  return sim;
}

interface Exported {
  cwd: string;
  dir: string;
  exceptions: Array<Record<string, string>>;
  payments: Array<Record<string, string>>;
}

async function exportOctober(sim: TestSim, code: number, extra: string[] = []): Promise<Exported> {
  const cwd = ws.fresh('export');
  const args = ['export', ...OCTOBER, '--no-db', ...extra];
  expectExit(args, await runCli(args, { cwd, env: sim.env('token') }), code, { secrets: PLANTED_SECRETS, dirs: [cwd] });
  expect(expectNoPartialFolders(join(cwd, 'reports'), 'export')).toEqual([PERIOD]);
  const dir = join(cwd, 'reports/export', PERIOD);
  return { cwd, dir, exceptions: csvRecords(join(dir, 'exceptions.csv')), payments: csvRecords(join(dir, 'payments.csv')) };
}

const errorsAbout = (run: Exported, check: string): string[] => run.exceptions.filter((f) => f['check_id'] === check && f['severity'] === 'error').map((f) => f['subject_id'] ?? '');

describe('pagination misbehaviour', () => {
  it('65: pages that leave out an item (gap) — every payment not recovered is flagged by the summary checks', async () => {
    // Every cursor page drops its last item; page size 4 makes that a quarter of the payments.
    const sim = await october({ faults: 'gap=1,paths=*/payments' });
    const run = await exportOctober(sim, 65, ['--page-size', '4']);
    const truth = truthPaymentIds(sim.sim.dataset, DATASET.from, DATASET.to);
    const { lost, doubled, extra } = compareIds(run.payments.map((p) => p['payment_id'] ?? ''), truth);
    expect({ doubled, extra }).toEqual({ doubled: [], extra: [] });
    // Payments a ledger entry names were read back by id; the rest (no ledger entry) are missing...
    expect(lost.length).toBeGreaterThan(0);
    expect(lost.length).toBeLessThan(truth.length / 2);
    // ...and never silently: each one's wallet total and its bucket disagree with the service's summary.
    const bucketErrors = new Set(errorsAbout(run, 'summary.bucket'));
    const totalErrors = new Set(errorsAbout(run, 'summary.total'));
    const lostPerWallet = new Map<string, number>();
    for (const id of lost) {
      const p = sim.sim.dataset.getPayment(id) as { wallet_id: string; direction: string; status: string; type: string };
      const currency = sim.sim.wallets.find((w) => w.id === p.wallet_id)!.currency.toLowerCase();
      expect(bucketErrors, `${id} is missing`).toContain(`wallet:${p.wallet_id}:${p.direction}/${p.status}/${currency}/${p.type}`);
      expect(totalErrors, `${id} is missing`).toContain(`wallet:${p.wallet_id}`);
      lostPerWallet.set(p.wallet_id, (lostPerWallet.get(p.wallet_id) ?? 0) + 1);
    }
    for (const [wallet, missing] of lostPerWallet) {
      const total = run.exceptions.find((f) => f['check_id'] === 'summary.total' && f['subject_id'] === `wallet:${wallet}`)!;
      expect(Number(total['difference']), `wallet ${wallet}`).toBe(-missing);
    }
  });

  it('69: a cursor that repeats — the chain would loop; nothing is published, the previous report stays', async () => {
    const sim = await october({});
    const cwd = ws.fresh('repeat');
    const args = ['export', ...OCTOBER, '--no-db', '--page-size', '10'];
    expectExit(args, await runCli(args, { cwd, env: sim.env('token') }), 0);
    const final = join(cwd, 'reports/export', PERIOD);
    const before = folderBytes(final);
    sim.sim.setFaults('repeat=1,paths=*/payments');
    expectExit(args, await runCli(args, { cwd, env: sim.env('token') }), 69, { message: /returned a cursor it had already returned; the chain would loop/, secrets: PLANTED_SECRETS, dirs: [cwd] });
    expectFolderUnchanged(final, before, 'the previous good report');
    expect(expectNoPartialFolders(join(cwd, 'reports'), 'export')).toEqual([PERIOD]);
  });
});

describe('data that cannot be booked as sent: kept, named, exit 65', () => {
  const cases: Array<{ label: string; anomaly: AnomalyKind; check: (subject: { paymentId: string | null; subjectId: string; detail: string }) => string[] }> = [
    {
      label: 'malformed amounts ("1e3", "1,000", "", 1.5) and a negative one where none is possible (-500)',
      anomaly: 'malformed_amount',
      check: (a) => [/-500/.test(a.detail) ? `data.negative_amount|${a.paymentId}` : `data.malformed_amount|${a.paymentId}`],
    },
    { label: 'a completed send with no fee object at all (unknown, not 0)', anomaly: 'missing_fee', check: (a) => [`payment.fee_unknown|${a.paymentId}`] },
    { label: "a payment in another currency than its wallet's", anomaly: 'currency_mismatch', check: (a) => [`data.currency_mismatch|${a.paymentId}`] },
    {
      label: "a summary that disagrees with the listed payments (a bucket counts one more)",
      anomaly: 'summary_count_off_by_one',
      check: (a) => {
        const [wallet, direction, status, currency, kind] = a.subjectId.split('|');
        return [`summary.bucket|wallet:${wallet}:${direction}/${status}/${currency}/${kind}`, `summary.total|wallet:${wallet}`];
      },
    },
  ];

  it.each(cases)('$label', async ({ anomaly, check }) => {
    const sim = await october({ anomalies: [anomaly] });
    const run = await exportOctober(sim, 65);
    const planted = sim.sim.dataset.anomalies;
    expect(planted.length).toBeGreaterThan(0);
    const errors = new Set(run.exceptions.filter((f) => f['severity'] === 'error').map((f) => `${f['check_id']}|${f['subject_id']}`));
    for (const a of planted) for (const key of check(a)) expect(errors, a.detail).toContain(key);
    expectPaymentsComplete(run.dir, truthPaymentIds(sim.sim.dataset, DATASET.from, DATASET.to), anomaly);
    if (anomaly === 'missing_fee') {
      const row = run.payments.find((p) => p['payment_id'] === planted[0]!.paymentId)!;
      expect(row['network_fee_base'], 'an unknown fee is empty, never 0').toBe('');
    }
  });
});

describe('forward compatibility: unknown enum values and fields', () => {
  it('0 by policy: kept verbatim, reported (unknown status = warning, unknown field = note), open items listed', async () => {
    // seed 7 has open sends in the unknown status `settling_v2` in October
    const sim = await october({ seed: 7, unknownFields: true });
    const run = await exportOctober(sim, 0);
    const truth = truthPaymentIds(sim.sim.dataset, DATASET.from, DATASET.to);
    expectPaymentsComplete(run.dir, truth, 'unknown fields');
    const unknownStatus = sim.sim.dataset.paymentIds({ statuses: ['settling_v2'] });
    expect(unknownStatus.length).toBeGreaterThan(0);
    const openItems = csvRecords(join(run.dir, 'open-items.csv')).map((r) => r['payment_id']);
    for (const id of unknownStatus) {
      expect(run.payments.find((p) => p['payment_id'] === id)?.['status']).toBe('settling_v2');
      expect(openItems, 'an unknown status is not terminal: it stays an open item').toContain(id);
      expect(run.exceptions.some((f) => f['check_id'] === 'data.unknown_enum' && f['severity'] === 'warning' && f['subject_id'] === id)).toBe(true);
    }
    const fields = run.exceptions.filter((f) => f['check_id'] === 'data.unknown_field');
    expect(fields.length).toBeGreaterThan(0);
    for (const f of fields) expect(f['severity']).toBe('info');
    expect(existsSync(join(run.dir, 'report.xlsx'))).toBe(true);
  });
});
