/**
 * The incremental nightly: a payment still open when the first run stored it, completed later, is
 * brought up to date by the next nightly's re-read of the snapshot's open payments — although that
 * nightly's sweep (its day plus the look-back) does not reach the payment's creation day.
 * On the real Postgres when DATABASE_URL is set, else on the embedded engine.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SimHandle } from '../../../src/sim/index.js';
import { quoteIdent } from '../../../src/store/db/schema.js';
import { call, envPath } from '../../support/sim/sim-client.js';
import { uniqueSchemaName } from '../../support/store/engines.js';
import { startSim } from '../../support/extract/harness.js';
import { openTargetStore, pipelineTarget, runJobInProcess, type PipelineTarget } from '../../support/pipeline/pipeline-env.js';

let sim: SimHandle;
let target: PipelineTarget;
const databaseUrl = process.env.DATABASE_URL || null;
if (databaseUrl === null) console.warn('NOTICE: nightly extraction test runs on the embedded engine (DATABASE_URL is not set)');

beforeAll(async () => {
  // a written payment stays `sending` until settle(): its state machine steps are an hour apart
  sim = await startSim({ scale: 600, timing: { stepMs: 3_600_000, readableAfterMs: 0 } });
  target = pipelineTarget(databaseUrl, uniqueSchemaName('nightly'));
});
afterAll(async () => {
  await sim.close();
  if (databaseUrl) {
    const store = await openTargetStore(target);
    await store.db.query(`DROP SCHEMA IF EXISTS ${quoteIdent(target.schema)} CASCADE`);
    await store.close();
  }
});

describe('nightly: open payments of the snapshot are re-read by id', () => {
  it('catches a late completion the sweep cannot see', async () => {
    const wallet = sim.wallets.find((w) => w.environmentId === sim.environments[0]!.id && w.currency === 'btc' && w.active)!;
    const id = randomUUID();
    const created = await call(sim, `${envPath(sim)}/payments`, { key: sim.environments[0]!.apiKey, body: { id, wallet_id: wallet.id, currency: 'btc', type: 'bolt11', data: { payment_request: 'lnbc25u1pnightly' } } });
    expect(created.status).toBe(202);
    const now = new Date();
    const today = now.toISOString().slice(0, 10);

    // 1. today's export stores the payment while it is open
    const first = await runJobInProcess(sim, target, { command: 'export', from: today, to: today }, now);
    // read per wallet, or with its environment read whole (docs/extraction.md#environment-level-payments)
    const swept = (s: { stream: string }): boolean => s.stream === `payments:wallet:${wallet.id}` || s.stream.startsWith(`payments:env:${wallet.environmentId}:`);
    expect(first.outcome.pull?.streams.some((s) => swept(s) && s.rows >= 1)).toBe(true);
    let store = await openTargetStore(target);
    try {
      const open = await store.openPayments(sim.organizationId, { wallet_ids: [wallet.id] });
      expect(open.find((p) => p.payment_id === id)?.status).toBe('sending');
    } finally {
      await store.close();
    }

    // 2. the service completes it
    await sim.settle();
    expect((sim.dataset.getPayment(id) as { status: string }).status).toBe('completed');

    // 3. a nightly for a day whose sweep (with the 7-day look-back) ends well before today
    sim.requestLog.clear();
    const nightlyDate = new Date(now.getTime() - 10 * 86_400_000).toISOString().slice(0, 10);
    const second = await runJobInProcess(sim, target, { command: 'nightly', date: nightlyDate }, now);
    // the wallet's sweep: per wallet, or its environment's read whole (no wallet_id filter)
    const walletFilter = (e: { query: string }): string | null => new URLSearchParams(e.query).get('wallet_id');
    const sweeps = sim.requestLog.entries().filter((e) => e.path.endsWith(`/environments/${wallet.environmentId}/payments`) && (walletFilter(e) === wallet.id || walletFilter(e) === null));
    expect(sweeps.length).toBeGreaterThan(0);
    for (const e of sweeps) expect(new URLSearchParams(e.query).get('end_date')! < today).toBe(true);
    expect(sim.requestLog.filter(`/payments/${id}`)).toHaveLength(1);
    expect(second.outcome.pull?.streams.find((s) => s.stream === `payments:byid-open:${wallet.id}`)?.done).toBe(true);

    store = await openTargetStore(target);
    try {
      const stillOpen = await store.openPayments(sim.organizationId, { wallet_ids: [wallet.id] });
      expect(stillOpen.map((p) => p.payment_id)).not.toContain(id);
      const history = await store.paymentHistory({ organization_id: sim.organizationId, payment_id: id });
      expect(history.map((h) => [h.change, h.status])).toEqual([
        ['first_seen', 'sending'],
        ['changed', 'completed'],
      ]);
    } finally {
      await store.close();
    }
  });
});
