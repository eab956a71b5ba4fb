/**
 * The page size negotiated with the service (api/page-size.ts), asserted on the simulator's
 * request log (docs/style.md#10-tests): the run asks for its largest page, follows the `limit`
 * the service echoes, and falls back when a size is refused, with every payment and ledger entry
 * pulled once either way.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { RequestLogEntry, SimHandle } from '../../../src/sim/index.js';
import { expectedLedgerKeys, expectedPaymentIds, OCTOBER, pullHarness, startSim } from '../../support/extract/harness.js';

const CONCURRENCY = 4;
const ASKED = 1000;

const isPayments = (e: RequestLogEntry): boolean => /\/environments\/[^/]+\/payments$/.test(e.path);
const isLedger = (e: RequestLogEntry): boolean => e.path.endsWith('/ledger');
const limitOf = (e: RequestLogEntry): number => Number(new URLSearchParams(e.query).get('limit'));
const walletOf = (e: RequestLogEntry): string | null => new URLSearchParams(e.query).get('wallet_id');

/** Every payment and every ledger entry of every wallet, once. */
async function expectComplete(sim: SimHandle, pageSize: number): Promise<{ wallets: string[] }> {
  const h = await pullHarness(sim, { pageSize, concurrency: CONCURRENCY, negotiate: true });
  try {
    const result = await h.run({ maxChainPages: 0 });
    expect(result.duplicates).toBe(0);
    expect(h.writer.sweptPaymentIds()).toEqual(expectedPaymentIds(sim, OCTOBER));
    expect([...h.writer.paymentWriteCounts().values()].every((n) => n === 1)).toBe(true);
    for (const wallet of h.discovery.wallets) {
      const pulled = [...h.writer.ledger.values()].filter((r) => r.wallet_id === wallet.wallet_id).map((r) => `${r.entry_type}:${r.entry_id}`);
      expect(pulled.sort()).toEqual(expectedLedgerKeys(sim, wallet.wallet_id));
    }
    return { wallets: h.discovery.wallets.map((w) => w.wallet_id) };
  } finally {
    await h.close();
  }
}

describe('a service that caps the page and says so in `limit`', () => {
  const CAP = 60;
  let sim: SimHandle;
  beforeAll(async () => {
    sim = await startSim({ scale: 2_000, limits: { maxPageSize: CAP } });
  });
  afterEach(() => sim.requestLog.clear());
  afterAll(async () => sim.close());

  it('asks the largest page first, then the echoed cap; each wallet takes the pages the cap needs', async () => {
    const { wallets } = await expectComplete(sim, ASKED);
    const log = sim.requestLog.entries();
    for (const list of [isPayments, isLedger]) {
      const requests = log.filter(list);
      expect(requests.every((e) => e.status === 200)).toBe(true);
      expect(new Set(requests.map(limitOf))).toEqual(new Set([ASKED, CAP]));
      // only requests made before the first answer came back asked the largest size: at most one
      // per open chain (2 × concurrency, chain-budget.ts), some of them queued for a slot
      const asked = requests.filter((e) => limitOf(e) === ASKED);
      expect(asked.length).toBeGreaterThanOrEqual(1);
      expect(asked.length).toBeLessThanOrEqual(2 * CONCURRENCY);
      const firstCapped = requests.findIndex((e) => limitOf(e) === CAP);
      expect(requests.slice(firstCapped).every((e) => limitOf(e) === CAP)).toBe(true);
    }
    // a clamped page is a full page, not the last one: the chain goes on, one request per page
    for (const walletId of wallets) {
      const payments = expectedPaymentIds(sim, OCTOBER, walletId).length;
      expect(log.filter((e) => isPayments(e) && walletOf(e) === walletId)).toHaveLength(Math.max(1, Math.ceil(payments / CAP)));
      const ledger = expectedLedgerKeys(sim, walletId).length;
      expect(log.filter((e) => isLedger(e) && e.path.includes(walletId))).toHaveLength(Math.max(1, Math.ceil(ledger / CAP)));
    }
  });
});

describe('a service that refuses a page larger than it serves', () => {
  const CAP = 300;
  let sim: SimHandle;
  beforeAll(async () => {
    sim = await startSim({ scale: 2_000, limits: { maxPageSize: CAP, oversizedLimit: 'refuse' } });
  });
  afterEach(() => sim.requestLog.clear());
  afterAll(async () => sim.close());

  it('halves the size after each refusal and keeps the first size served for the rest of the run', async () => {
    const { wallets } = await expectComplete(sim, ASKED);
    const log = sim.requestLog.entries();
    for (const list of [isPayments, isLedger]) {
      const requests = log.filter(list);
      const refused = requests.filter((e) => e.status !== 200);
      const served = requests.filter((e) => e.status === 200);
      // 1000 and 500 are refused (each at most once per open chain, 2 × concurrency), 250 is served
      expect(refused.length).toBeGreaterThanOrEqual(2);
      expect(refused.length).toBeLessThanOrEqual(2 * 2 * CONCURRENCY);
      expect(refused.every((e) => e.status === 400 && limitOf(e) > CAP)).toBe(true);
      expect(new Set(served.map(limitOf))).toEqual(new Set([250]));
    }
    for (const walletId of wallets) {
      const payments = expectedPaymentIds(sim, OCTOBER, walletId).length;
      expect(log.filter((e) => isPayments(e) && e.status === 200 && walletOf(e) === walletId)).toHaveLength(Math.max(1, Math.ceil(payments / 250)));
    }
  });

  it('a refusal of a size at or below the service default (100) stays an error', async () => {
    const strict = await startSim({ scale: 200, limits: { maxPageSize: 50, oversizedLimit: 'refuse' } });
    try {
      const h = await pullHarness(strict, { pageSize: ASKED, concurrency: CONCURRENCY, negotiate: true });
      try {
        await expect(h.run({ maxChainPages: 0 })).rejects.toMatchObject({ status: 400, type: 'invalid_parameter' });
        const sizes = strict.requestLog.entries().filter((e) => isPayments(e) || isLedger(e)).map(limitOf);
        expect(Math.min(...sizes)).toBe(100);
        expect(sizes.every((size) => [1000, 500, 250, 125, 100].includes(size))).toBe(true);
      } finally {
        await h.close();
      }
    } finally {
      await strict.close();
    }
  });
});
