/**
 * The payments a lots replay needs (src/jobs/lots-payment-reach.ts): a first close's orphans reach
 * back to the first event, and there are many of them. With the plan's `orphanSweep`, the pull
 * reads them with a list sweep over the creation range before the window (a page at a time), and
 * by id only what the sweep left; without it, one request each. Both end with every payment the
 * wallets' ledgers name before the window's end in the snapshot; the sweep takes a fraction of
 * the requests. Asserted on the simulator's request log and ground truth.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SimHandle } from '../../../src/sim/index.js';
import type { Window } from '../../../src/model/window.js';
import { OCTOBER, pullHarness, startSim, streamsOf } from '../../support/extract/harness.js';

const HISTORY: Window = { ...OCTOBER, from: '0001-01-01T00:00:00.000000Z' };
let sim: SimHandle;

beforeAll(async () => {
  sim = await startSim({ scale: 3_000 });
});
afterAll(async () => {
  await sim.close();
});

/** Payment ids the wallets' ledgers name before the window's end (ground truth). */
function named(walletIds: readonly string[]): Set<string> {
  const ids = new Set<string>();
  for (const id of walletIds) for (const e of sim.dataset.ledgerEntries(id, { to: '2026-10-31T23:59:59.999999Z' })) if (e.paymentId !== null && sim.dataset.getPayment(e.paymentId) !== undefined) ids.add(e.paymentId);
  return ids;
}

/** One pull of October whose orphans reach the whole history, with or without the sweep range; what it requested. */
async function pullHistory(sweep: boolean): Promise<{ byId: number; history: number; missing: string[]; wanted: number; sweptPages: number }> {
  const h = await pullHarness(sim, { pageSize: 100 });
  try {
    const before = sim.requestLog.entries().length;
    const result = await h.run({ orphanPaymentIds: async (wallet) => h.writer.orphans(wallet.wallet_id, HISTORY), ...(sweep ? { orphanSweep: () => ({ from: null, to: OCTOBER.from }) } : {}) });
    const requests = sim.requestLog.entries().slice(before);
    const wanted = named(h.discovery.wallets.map((w) => w.wallet_id));
    const history = streamsOf(result, 'payments:history:');
    expect(history.every((s) => s.done)).toBe(true);
    return {
      byId: requests.filter((r) => /\/payments\/[0-9a-f-]{36}$/.test(r.path)).length,
      history: history.length,
      missing: [...wanted].filter((id) => !h.writer.payments.has(id)),
      wanted: wanted.size,
      // the sweep's pages ask for payments created before the window only
      sweptPages: requests.filter((r) => /\/payments$/.test(r.path) && new URLSearchParams(r.query).get('end_date') === '2026-09-30T23:59:59.999999Z').length,
    };
  } finally {
    await h.close();
  }
}

describe("orphans of a lots replay's history", () => {
  it('are swept by list where a wallet has many, and read by id otherwise; the snapshot holds every payment named either way', async () => {
    const swept = await pullHistory(true);
    const one = await pullHistory(false);
    expect(swept.wanted).toBeGreaterThan(500);
    expect({ swept: swept.missing, byId: one.missing }).toEqual({ swept: [], byId: [] });
    expect(one.history).toBe(0);
    expect(one.sweptPages).toBe(0);
    expect(swept.history).toBeGreaterThan(0);
    expect(swept.sweptPages).toBeGreaterThan(0);
    // each by-id read the sweep saved costs far less than a page of it
    expect(swept.byId + swept.sweptPages).toBeLessThan(one.byId / 2);
  }, 120_000);
});
