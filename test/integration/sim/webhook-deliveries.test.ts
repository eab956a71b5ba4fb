import { randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSimulator, type SimHandle } from '../../../src/sim/start-simulator.js';
import { verifySignature } from '../../../src/util/webhook-signature.js';
import { OpenApiValidator } from '../../support/sim/openapi.js';
import { call, envPath, type CallOptions, type Json, type TestReply } from '../../support/sim/sim-client.js';

/**
 * The simulator's deliveries: one per state change, retried with backoff on non-2xx, recorded and
 * served by the deliveries endpoints (list, summary, one, retry, abandon) and key rotation — each
 * reply validated against the OpenAPI document — and the delivery faults.
 */
let sim: SimHandle;
let receiver: Server;
let url: string;
let failNext = 0;
const received: Array<{ headers: Record<string, string>; body: string }> = [];
const validator = new OpenApiValidator();

async function conform(path: string, options: CallOptions = {}): Promise<TestReply> {
  const reply = await call(sim, path, options);
  const method = options.method ?? (options.body !== undefined ? 'POST' : 'GET');
  const result = validator.validateResponse(method, path, reply.status, reply.text === '' ? undefined : (JSON.parse(reply.text) as unknown));
  expect(result.errors, `${method} ${path} → ${reply.status}`).toBeNull();
  return reply;
}

beforeAll(async () => {
  receiver = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      received.push({ headers: req.headers as Record<string, string>, body: Buffer.concat(chunks).toString('utf8') });
      res.statusCode = failNext > 0 ? (failNext--, 500) : 204;
      res.end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
  sim = await startSimulator({ seed: 31, scale: 100, wallets: 4, timing: { stepMs: 5 }, webhooks: { retryDelayMs: 5, maxAttempts: 3 } });
});

afterAll(async () => {
  await sim.close();
  await new Promise<void>((resolve) => receiver.close(() => resolve()));
});

const wallet = (): string => sim.dataset.wallets.find((w) => w.environmentIndex === 0 && w.currencyKind === 'btc' && w.deactivatedUs === null)!.id;
const send = async (invoice: string): Promise<string> => {
  const id = randomUUID();
  expect((await call(sim, `${envPath(sim)}/payments`, { body: { id, wallet_id: wallet(), currency: 'btc', type: 'bolt11', data: { payment_request: invoice } } })).status).toBe(202);
  return id;
};

async function register(): Promise<{ id: string; secret: string; path: string }> {
  const id = randomUUID();
  const created = await conform(`${envPath(sim)}/webhooks`, { body: { id, url, name: 't', events: [{ send: 'succeeded' }, { send: 'failed' }, { receive: 'generated' }, { receive: 'completed' }] } });
  return { id, secret: created.json['shared_secret'] as string, path: `${envPath(sim)}/webhooks/${id}` };
}

describe('webhook deliveries', () => {
  it('retries a non-2xx with backoff, records the delivery, and serves list, summary, one, retry and abandon', async () => {
    const hook = await register();
    failNext = 3; // every attempt of the first delivery fails
    await send('lnbc10u1pone');
    await sim.settle();
    await send('lnbc10u1ptwo');
    await sim.settle();

    const list = (await conform(`${hook.path}/deliveries`, { query: { pagination: 'cursor', limit: 1 } })).json as Json;
    expect(list['has_more']).toBe(true);
    const page2 = (await conform(`${hook.path}/deliveries`, { query: { pagination: 'cursor', limit: 1, cursor: list['next_cursor'] as string } })).json as Json;
    const [newest, oldest] = [list['items'][0] as Json, page2['items'][0] as Json];
    expect([oldest['status'], oldest['attempt_count'], oldest['status_code'], oldest['error_info']?.['code']]).toEqual(['failed', 3, 500, 'http_server_error']);
    expect([newest['status'], newest['attempt_count']]).toEqual(['succeeded', 1]);

    const failed = (await conform(`${hook.path}/deliveries/summary`, { query: { statuses: 'failed' } })).json as Json;
    expect(failed).toMatchObject({ webhook_id: hook.id, statuses: ['failed'], total_count: 1, total_count_accuracy: 'exact' });

    expect((await conform(`${hook.path}/deliveries/${oldest['id']}/retry`, { method: 'POST' })).status).toBe(202);
    await sim.settle();
    expect(((await conform(`${hook.path}/deliveries/${oldest['id']}`)).json as Json)['status']).toBe('succeeded');
    expect(((await conform(`${hook.path}/deliveries/summary`, { query: { statuses: 'failed' } })).json as Json)['total_count']).toBe(0);
    expect((await conform(`${hook.path}/deliveries/${newest['id']}/abandon`, { method: 'POST' })).status).toBe(202);
    expect(((await conform(`${hook.path}/deliveries`, { query: { statuses: 'abandoned' } })).json as Json)['total']).toBe(1);
    expect((await conform(`${hook.path}/deliveries/${randomUUID()}`)).status).toBe(404);
  });

  it('signs with the rotated secret only, once rotated', async () => {
    const hook = await register();
    const rotated = (await conform(`${hook.path}/keys`, { method: 'POST' })).json as Json;
    expect(rotated['id']).toBe(hook.id);
    expect(rotated['shared_secret']).not.toBe(hook.secret);
    received.length = 0;
    await send('lnbc10u1prot');
    await sim.settle();
    const mine = received.filter((r) => r.headers['x-voltage-webhook-id'] === hook.id);
    expect(mine).toHaveLength(1);
    const [d] = mine as [(typeof received)[number]];
    const args = [d.body, d.headers['x-voltage-timestamp']!, d.headers['x-voltage-signature']!] as const;
    expect(verifySignature([rotated['shared_secret'] as string], ...args)).toBe(true);
    expect(verifySignature([hook.secret], ...args)).toBe(false);
  });

  it('applies delivery faults: drop, dup and badsig (seeded)', async () => {
    const hook = await register();
    sim.webhooks.setFaults('drop=0.3,dup=0.3,badsig=0.3,seed=3');
    try {
      received.length = 0;
      for (let i = 0; i < 20; i++) await send(`lnbc10u1pf${i}`);
      await sim.settle();
    } finally {
      sim.webhooks.setFaults(null);
    }
    const records = sim.webhooks.recordsOf(hook.id);
    expect(records).toHaveLength(20);
    const dropped = records.filter((r) => r.status === 'failed' && r.attemptCount === 0);
    expect(dropped.length).toBeGreaterThan(0);
    const mine = received.filter((r) => r.headers['x-voltage-webhook-id'] === hook.id);
    const valid = mine.filter((r) => verifySignature([hook.secret], r.body, r.headers['x-voltage-timestamp']!, r.headers['x-voltage-signature']!));
    expect(valid.length).toBeLessThan(mine.length); // some attempts were mis-signed
    const bodies = mine.map((r) => r.body);
    expect(new Set(bodies).size).toBeLessThan(bodies.length); // some were sent twice
    // this receiver answers 204 to anything, so a mis-signed attempt is not retried; every delivery not dropped arrived
    expect(new Set(bodies).size).toBe(20 - dropped.length);
  });
});
