/**
 * Two promises of the pull, end to end through the pipeline:
 * - the staging/production guard refuses a contradicting configuration with exit 78 before ANY
 *   request — not even the environments that are configured correctly are read;
 * - amounts beyond 2^53 arrive exact in the snapshot rows (Postgres, or the embedded engine
 *   without DATABASE_URL) and in the published CSV of a `--no-db` run.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SimHandle } from '../../../src/sim/index.js';
import { quoteIdent } from '../../../src/store/db/schema.js';
import { AppError } from '../../../src/util/errors.js';
import { minusOneMicrosecond } from '../../../src/api/date-bounds.js';
import { call } from '../../support/sim/sim-client.js';
import { uniqueSchemaName } from '../../support/store/engines.js';
import { OCTOBER, startSim } from '../../support/extract/harness.js';
import { openTargetStore, pipelineTarget, runJobInProcess } from '../../support/pipeline/pipeline-env.js';

let sim: SimHandle;
const databaseUrl = process.env.DATABASE_URL || null;
const NOW = new Date('2026-11-22T12:00:00Z');
const STAGING_ENV = '5e1f4b2a-9c3d-4e8f-a1b2-c3d4e5f60718';

beforeAll(async () => {
  sim = await startSim({ scale: 3_000 });
});
afterAll(async () => {
  await sim.close();
});

describe('staging vs production: exit 78 before any request', () => {
  it.each([
    { name: 'a staging environment on the production host', kind: 'staging' as const, baseUrl: 'https://voltageapi.com/v1', type: 'environment_mismatch' },
    { name: 'a production environment on the staging host', kind: 'production' as const, baseUrl: 'https://staging.voltageapi.com/v1', type: 'environment_mismatch' },
    { name: 'the production host over plain http', kind: 'production' as const, baseUrl: 'http://voltageapi.com/v1', type: 'insecure_base_url' },
  ])('$name', async ({ kind, baseUrl, type }) => {
    sim.requestLog.clear();
    const target = pipelineTarget(null, 'unused');
    const error = await runJobInProcess(sim, target, { command: 'export', from: '2026-10-01', to: '2026-10-31' }, NOW, {
      db: false,
      // the simulator's own environment first: it is valid, and still must not be read
      environments: [{ id: sim.environments[0]!.id, kind: 'production' }, { id: STAGING_ENV, kind, baseUrl }],
    }).then(
      () => null,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(AppError);
    expect(error).toMatchObject({ exitCode: 78, type });
    expect(sim.requestLog.entries()).toHaveLength(0);
  });
});

describe('amounts beyond 2^53 arrive exact', () => {
  /** Payments of October whose wire object holds an integer beyond 2^53, with that amount. */
  const hugePayments = (): Array<{ id: string; walletId: string; amount: bigint }> => {
    const ids = sim.dataset.paymentIds({ environmentId: sim.environments[0]!.id, from: OCTOBER.from, to: minusOneMicrosecond(OCTOBER.to) });
    return ids.flatMap((id) => {
      const wire = sim.dataset.getPayment(id) as { wallet_id: string; data: { amount?: { amount?: unknown } } };
      const amount = wire.data.amount?.amount;
      return typeof amount === 'bigint' && amount > 2n ** 53n ? [{ id, walletId: wire.wallet_id, amount }] : [];
    });
  };

  it('in the snapshot: payment principal and ledger amounts, digit for digit', async () => {
    const huge = hugePayments();
    expect(huge.length).toBeGreaterThan(0);
    const target = pipelineTarget(databaseUrl, uniqueSchemaName('lossless'));
    await runJobInProcess(sim, target, { command: 'export', from: '2026-10-01', to: '2026-10-31' }, NOW);
    const store = await openTargetStore(target);
    try {
      for (const payment of huge) {
        const rows = [];
        for await (const batch of store.source.payments({ organization_id: sim.organizationId, wallet_id: payment.walletId, window: OCTOBER })) rows.push(...batch);
        expect(rows.find((r) => r.payment_id === payment.id)?.principal_base).toBe(payment.amount);

        // the ledger as the service states it (parsed losslessly) against the snapshot's ledger rows
        const wire = await call(sim, `/organizations/${sim.organizationId}/wallets/${payment.walletId}/ledger`, { query: { payment_id: payment.id, limit: 100 } });
        const expected = (wire.json.items as Array<Record<string, unknown>>).flatMap((e) => {
          const amount = (e.amount as { amount?: unknown } | undefined)?.amount ?? e.amount_msats;
          return typeof amount === 'bigint' ? [amount] : [];
        });
        expect(expected.some((a) => a > 2n ** 53n)).toBe(true);
        const ledger = [];
        for await (const batch of store.source.ledger(sim.organizationId, payment.walletId)) ledger.push(...batch.filter((r) => r.payment_id === payment.id));
        expect(ledger.map((r) => r.amount_base).filter((a): a is bigint => a !== null).sort()).toEqual([...expected].sort());
      }
    } finally {
      if (databaseUrl) await store.db.query(`DROP SCHEMA IF EXISTS ${quoteIdent(target.schema)} CASCADE`);
      await store.close();
    }
  });

  it('in the --no-db run’s payments.csv', async () => {
    const huge = hugePayments();
    const target = pipelineTarget(null, 'unused');
    const run = await runJobInProcess(sim, target, { command: 'export', from: '2026-10-01', to: '2026-10-31' }, NOW, { db: false });
    const csv = readFileSync(join(run.outcome.dir!, 'payments.csv'), 'utf8');
    const rows = parse(csv, { columns: true, bom: true }) as Array<Record<string, string>>;
    for (const payment of huge) expect(rows.find((r) => r.payment_id === payment.id)?.principal_base).toBe(payment.amount.toString());
  });
});
