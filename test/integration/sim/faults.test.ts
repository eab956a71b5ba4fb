import { randomUUID } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startSimulator, type SimHandle } from '../../../src/sim/start-simulator.js';
import { call, envPath, walkCursor } from '../../support/sim/sim-client.js';

/** Faults on request, over real HTTP: replaced statuses, resets, truncation, drip, duplicate, repeated and gapped cursors. */

let sim: SimHandle;
const paymentsUrl = (): string => `${sim.baseUrl}${envPath(sim)}/payments`;
const headers = (): Record<string, string> => ({ 'x-api-key': sim.environments[0]?.apiKey as string });

beforeAll(async () => {
  sim = await startSimulator({ seed: 12, scale: 800, timing: { stepMs: 60_000, readableAfterMs: 0 } });
});

afterEach(() => {
  sim.setFaults(null);
  sim.requestLog.clear();
});

afterAll(async () => {
  await sim.close();
});

describe('status faults', () => {
  it('fails exactly the first N requests to a path with 503 read_temporarily_unavailable', async () => {
    sim.setFaults('first=2:503@*/payments');
    const statuses: number[] = [];
    for (let i = 0; i < 3; i++) statuses.push((await call(sim, `${envPath(sim)}/payments`)).status);
    expect((await call(sim, `${envPath(sim)}/payments/summary`)).status).toBe(200);
    expect(statuses).toEqual([503, 503, 200]);
    const first = await (async () => {
      sim.setFaults('first=1:503');
      return call(sim, `${envPath(sim)}/payments`);
    })();
    expect(first.json.error.type).toBe('read_temporarily_unavailable');
    expect(first.headers.get('retry-after')).toBe('1');
    expect(sim.requestLog.entries().filter((e) => e.fault === '503')).toHaveLength(3);
  });

  it('answers 429 with Retry-After, 500 with the JSON envelope, 502 with an HTML body', async () => {
    sim.setFaults({ schedule: [{ fault: '429', nth: 1 }, { fault: '500', nth: 2 }, { fault: '502', nth: 3 }], retryAfterSeconds: 7 });
    const r429 = await call(sim, `${envPath(sim)}/payments`);
    expect([r429.status, r429.headers.get('retry-after'), r429.json.error.type]).toEqual([429, '7', 'rate_limited']);
    const r500 = await call(sim, `${envPath(sim)}/payments`);
    expect([r500.status, r500.json.error.type]).toEqual([500, 'internal_error']);
    const r502 = await call(sim, `${envPath(sim)}/payments`);
    expect([r502.status, r502.headers.get('content-type'), r502.json]).toEqual([502, 'text/html', undefined]);
    expect(r502.text).toContain('Bad Gateway');
  });

  it('a 503 on a write creates nothing', async () => {
    sim.setFaults('first=1:503');
    const id = randomUUID();
    const wallet = sim.dataset.wallets.find((w) => w.environmentIndex === 0 && w.currencyKind === 'btc') as { id: string };
    const body = { id, wallet_id: wallet.id, currency: 'btc', type: 'bolt11', data: { payment_request: 'lnbc1u1p' } };
    expect((await call(sim, `${envPath(sim)}/payments`, { body })).status).toBe(503);
    expect(sim.dataset.getPayment(id)).toBeNull();
    expect((await call(sim, `${envPath(sim)}/payments`, { body })).status).toBe(202);
  });
});

describe('damaged responses', () => {
  it('reset: the connection drops mid-body (the write itself happened: a retry is 409)', async () => {
    sim.setFaults('first=1:reset');
    const res = await fetch(`${paymentsUrl()}?limit=200`, { headers: headers() });
    expect(res.status).toBe(200);
    await expect(res.text()).rejects.toThrow();
    expect(sim.requestLog.entries()[0]?.fault).toBe('reset');

    sim.setFaults('first=1:reset@*/payments');
    const wallet = sim.dataset.wallets.find((w) => w.environmentIndex === 0 && w.currencyKind === 'btc') as { id: string };
    const body = JSON.stringify({ id: randomUUID(), wallet_id: wallet.id, currency: 'btc', type: 'bolt11', data: { payment_request: 'lnbc1u1p' } });
    await expect(fetch(paymentsUrl(), { method: 'POST', headers: { ...headers(), 'content-type': 'application/json' }, body }).then(async (r) => (r.status === 202 && r.headers.get('content-length') === '0' ? Promise.reject(new Error('reset')) : r.text()))).rejects.toThrow();
    const retry = await fetch(paymentsUrl(), { method: 'POST', headers: { ...headers(), 'content-type': 'application/json' }, body });
    expect(retry.status).toBe(409);
  });

  it('truncate: a 200 whose body is cut short (not valid JSON)', async () => {
    sim.setFaults('truncate=1');
    const r = await call(sim, `${envPath(sim)}/payments`);
    expect(r.status).toBe(200);
    expect(r.json).toBeUndefined();
    expect(() => JSON.parse(r.text) as unknown).toThrow();
  });

  it('drip: the body arrives in small pieces, complete and valid', async () => {
    sim.setFaults({ rates: { drip: 1 }, dripIntervalMs: 1, dripChunkBytes: 512 });
    const r = await call(sim, `${envPath(sim)}/payments`, { query: { limit: 10 } });
    expect(r.json['items']).toHaveLength(10);
    expect(sim.requestLog.entries()[0]?.fault).toBe('drip');
  });
});

describe('cursor faults', () => {
  it('dup: consecutive cursor pages overlap; the union is still every payment', async () => {
    sim.setFaults('dup=1');
    const { items } = await walkCursor(sim, { limit: 50, sort_order: 'ASC' });
    const truth = sim.dataset.paymentIds({ environmentId: sim.environments[0]?.id as string });
    expect(items.length).toBeGreaterThan(truth.length);
    expect(new Set(items.map((p) => p['id']))).toEqual(new Set(truth));
    expect(sim.requestLog.entries().some((e) => e.fault === 'dup')).toBe(true);
  });

  it('gap: each page leaves out its last item while the cursor points past it; nothing else is lost or repeated', async () => {
    sim.setFaults('gap=1');
    const { items, pages } = await walkCursor(sim, { limit: 50, sort_order: 'ASC' });
    const truth = sim.dataset.paymentIds({ environmentId: sim.environments[0]?.id as string });
    const listed = items.map((p) => p['id'] as string);
    expect(new Set(listed).size).toBe(listed.length);
    expect(listed.every((id) => truth.includes(id))).toBe(true);
    expect(truth.length - listed.length).toBe(pages);
    expect(sim.requestLog.entries().filter((e) => e.fault === 'gap')).toHaveLength(pages);
  });

  it('repeat: a page hands back the cursor it was given', async () => {
    const first = await call(sim, `${envPath(sim)}/payments`, { query: { pagination: 'cursor', limit: 5 } });
    const cursor = first.json['next_cursor'] as string;
    sim.setFaults('repeat=1');
    const second = await call(sim, `${envPath(sim)}/payments`, { query: { cursor, limit: 5 } });
    expect(second.json['next_cursor']).toBe(cursor);
  });

  it('random faults follow the seed and the rates; switching them off at runtime restores service', async () => {
    sim.setFaults('seed=5,503=0.3');
    const statuses = await Promise.all(Array.from({ length: 40 }, () => call(sim, `${envPath(sim)}/payments/summary`).then((r) => r.status)));
    expect(statuses.filter((s) => s === 503).length).toBeGreaterThan(0);
    expect(statuses.filter((s) => s === 200).length).toBeGreaterThan(0);
    sim.setFaults(null);
    expect((await call(sim, `${envPath(sim)}/payments/summary`)).status).toBe(200);
    expect(sim.faults.counts()['503']).toBeGreaterThan(0);
  });
});
