/**
 * Whole pulls against a faulty simulator: every run must end with the complete, de-duplicated set
 * (compared with `sim.dataset`), never more than `concurrency` requests in flight, and no trace of
 * the API key in any log line at any level. Backoffs are recorded and shortened to 1 ms, so the
 * tests are fast; a `Retry-After` must still have been asked for in full.
 */
import { connect, createServer, type AddressInfo, type Socket } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { ApiClientOptions } from '../../../src/api/client.js';
import type { SimHandle } from '../../../src/sim/index.js';
import { expectedLedgerKeys, expectedPaymentIds, OCTOBER, PLANTED_KEY, pullHarness, startSim } from '../../support/extract/harness.js';

let sim: SimHandle;

beforeAll(async () => {
  sim = await startSim({ scale: 1_500 });
});
afterEach(() => {
  sim.setFaults(null);
  sim.requestLog.clear();
});
afterAll(async () => {
  await sim.close();
});

/** Attempts per request are raised so that a random fault cannot exhaust them by bad luck. */
const PATIENT: Partial<ApiClientOptions> = { retry: { maxAttempts: 12, runRetryBudget: 10_000 } };

interface FaultCase {
  name: string;
  faults: string;
  /** the fault names that must show up in the request log */
  injected: string[];
  /** false when the fault needs no retry (duplicates are dropped, not retried) */
  retried?: boolean;
  concurrency: number;
  client?: Partial<ApiClientOptions>;
}

const CASES: FaultCase[] = [
  { name: '503 bursts', faults: 'first=8:503@*/payments,503=0.15,seed=1', injected: ['503'], concurrency: 4 },
  { name: '500 / 502 / 504 from a proxy', faults: '500=0.05,502=0.05,504=0.05,seed=2', injected: ['500', '502', '504'], concurrency: 4 },
  { name: 'connection resets mid-body', faults: 'reset=0.1,seed=3', injected: ['reset'], concurrency: 4 },
  { name: 'truncated 200 bodies', faults: 'truncate=0.1,seed=4', injected: ['truncate'], concurrency: 4 },
  { name: '429 with Retry-After', faults: '429=0.1:retry-after=2,seed=5', injected: ['429'], concurrency: 4 },
  { name: 'duplicates across cursor pages', faults: 'dup=0.4,seed=6', injected: ['dup'], retried: false, concurrency: 4 },
  { name: 'a slow drip cut by the total deadline', faults: 'drip=0.04:20ms:64,seed=7', injected: ['drip'], concurrency: 4, client: { timeoutMs: 400 } },
  {
    name: 'everything at once, concurrency 3',
    // dup damages only a page that has a next one: the first pages of the chains get it for sure, whatever order the requests arrive in
    faults: 'latency=0-4ms,503=0.05,500=0.02,429=0.03:retry-after=1,reset=0.03,truncate=0.03,dup=0.1,first=6:dup@*/payments,drip=0.01:20ms:64,seed=8',
    injected: ['503', '429', 'reset', 'truncate', 'dup'],
    concurrency: 3,
    client: { timeoutMs: 400 },
  },
];

describe('pulls under faults end complete and de-duplicated', () => {
  it.each(CASES)('$name', async ({ faults, injected, retried = true, concurrency, client }) => {
    sim.setFaults(faults);
    const h = await pullHarness(sim, { pageSize: 40, concurrency, client: { ...PATIENT, ...client } });
    try {
      const result = await h.run({ maxChainPages: 3, now: '2026-11-22T12:00:00.000000Z' });

      // the faults really happened, and were retried
      const seen = new Set(sim.requestLog.entries().map((e) => e.fault));
      for (const fault of injected) expect(seen).toContain(fault);
      if (retried) expect(h.api.stats().retries).toBeGreaterThan(0);
      else expect(result.duplicates).toBeGreaterThan(0);

      // complete: every payment of the window once, every ledger entry, every summary
      expect(h.writer.sweptPaymentIds()).toEqual(expectedPaymentIds(sim, OCTOBER));
      expect([...h.writer.paymentWriteCounts().values()].every((n) => n === 1)).toBe(true);
      for (const wallet of h.discovery.wallets) {
        const written = [...h.writer.ledger.values()].filter((r) => r.wallet_id === wallet.wallet_id).map((r) => `${r.entry_type}:${r.entry_id}`);
        expect(written.sort()).toEqual(expectedLedgerKeys(sim, wallet.wallet_id));
      }
      expect(result.streams.filter((s) => s.stream.startsWith('summary:wallet:'))).toHaveLength(h.discovery.wallets.length);
      expect(result.streams.every((s) => s.done)).toBe(true);
      expect(result.missingPaymentIds).toEqual([]);

      // one limiter for the whole run
      expect(sim.requestLog.maxInFlight()).toBeLessThanOrEqual(concurrency);

      // the key never reaches a log line, at trace level, whatever failed
      const text = h.memory.lines.join('\n');
      expect(h.memory.lines.some((l) => l.includes(retried ? '"api retry"' : '"api response"'))).toBe(true);
      for (const form of encodedForms(PLANTED_KEY)) expect(text).not.toContain(form);
    } finally {
      await h.close();
    }
  });

  it('asks for at least the Retry-After the service sent before trying again', async () => {
    sim.setFaults({ schedule: [{ fault: '429', first: 3, path: '*/ledger' }], retryAfterSeconds: 7 });
    const h = await pullHarness(sim, { pageSize: 100, concurrency: 2, client: PATIENT });
    try {
      await h.run({ maxChainPages: 0 });
      expect(sim.requestLog.entries().filter((e) => e.fault === '429')).toHaveLength(3);
      expect(h.sleeps.filter((ms) => ms >= 7_000)).toHaveLength(3);
      expect(h.writer.sweptPaymentIds()).toEqual(expectedPaymentIds(sim, OCTOBER));
    } finally {
      await h.close();
    }
  });

  it('keeps exactly `concurrency` requests in flight at most, while many chains wait', async () => {
    sim.setFaults('latency=5-15ms,seed=9');
    const h = await pullHarness(sim, { pageSize: 25, concurrency: 3 });
    try {
      await h.run({ maxChainPages: 2, width: 12, now: '2026-11-22T12:00:00.000000Z' });
      const inFlight = sim.requestLog.entries().map((e) => e.in_flight);
      expect(Math.max(...inFlight)).toBe(3);
      expect(h.writer.sweptPaymentIds()).toEqual(expectedPaymentIds(sim, OCTOBER));
    } finally {
      await h.close();
    }
  });

  it('reuses its connections (keep-alive): no more sockets than requests in flight', async () => {
    const proxy = await countingProxy(sim);
    const h = await pullHarness({ ...sim, baseUrl: proxy.baseUrl } as SimHandle, { pageSize: 25, concurrency: 3 });
    try {
      await h.run({ maxChainPages: 0 });
      expect(sim.requestLog.entries().length).toBeGreaterThan(100);
      expect(proxy.connections()).toBeLessThanOrEqual(3);
    } finally {
      await h.close();
      await proxy.close();
    }
  });

  it('refuses to loop when the service repeats a cursor (exit 69, api_repeated_cursor)', async () => {
    sim.setFaults('repeat=1,paths=*/payments');
    const h = await pullHarness(sim, { pageSize: 20, concurrency: 2 });
    try {
      const error = await h.run({ maxChainPages: 0 }).then(
        () => null,
        (e: unknown) => e,
      );
      expect(error).toMatchObject({ exitCode: 69, type: 'api_repeated_cursor' });
    } finally {
      await h.close();
    }
  });

  it('fails loudly (exit 69) when the service stays down, after saving what it had', async () => {
    sim.setFaults('503=1,paths=*/ledger');
    const h = await pullHarness(sim, { pageSize: 100, concurrency: 2, client: { retry: { maxAttempts: 3 } } });
    try {
      const error = await h.run({ maxChainPages: 0 }).then(
        () => null,
        (e: unknown) => e,
      );
      expect(error).toMatchObject({ exitCode: 69, status: 503, type: 'read_temporarily_unavailable', attempts: 3 });
      // summaries were saved before the failure; no ledger page was
      expect(h.writer.summaries.length).toBeGreaterThan(0);
      expect(h.writer.ledgerWrites).toHaveLength(0);
    } finally {
      await h.close();
    }
  });
});

/** A TCP relay in front of the simulator that counts the connections the client opens. */
async function countingProxy(target: SimHandle): Promise<{ baseUrl: string; connections(): number; close(): Promise<void> }> {
  const upstream = new URL(target.baseUrl);
  let connections = 0;
  const sockets = new Set<Socket>();
  const server = createServer((client) => {
    connections++;
    const relay = connect(Number(upstream.port), upstream.hostname);
    for (const s of [client, relay]) {
      sockets.add(s);
      s.on('close', () => sockets.delete(s));
      s.on('error', () => undefined);
    }
    client.pipe(relay).pipe(client);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}${upstream.pathname}`,
    connections: () => connections,
    close: () =>
      new Promise((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}

function encodedForms(secret: string): string[] {
  const bytes = Buffer.from(secret);
  return [secret, encodeURIComponent(secret), bytes.toString('base64').slice(2, -2), bytes.toString('base64url').slice(2, -2), secret.slice(5)];
}
