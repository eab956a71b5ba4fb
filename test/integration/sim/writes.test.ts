import { createHmac, randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSimulator, type SimHandle } from '../../../src/sim/start-simulator.js';
import { call, envPath, orgPath, type Json } from '../../support/sim/sim-client.js';

/**
 * Writes: 202 then asynchronous state machines (docs/service-facts.md#states-and-transitions), the brief 404
 * after creation, 409 on a duplicate id, quotes for USD wallets, webhooks signed with the
 * registration's shared_secret, and written payments showing up consistently in the ledger, the
 * summaries and the lists. Transitions are driven with `sim.settle()`, not by waiting.
 */

let sim: SimHandle;
let receiver: Server;
let receiverUrl: string;
const deliveries: Array<{ headers: Record<string, string | string[] | undefined>; body: string }> = [];

const btcFeeWallet = (): string => sim.dataset.wallets.find((w) => w.environmentIndex === 0 && w.currencyKind === 'btc' && w.processingFee !== null && w.deactivatedUs === null)?.id as string;
const usdWallet = (): { id: string; loc: string } => {
  const w = sim.dataset.wallets.find((x) => x.environmentIndex === 0 && x.currencyKind === 'usd');
  if (!w || w.lineOfCreditIndex === null) throw new Error('the default dataset has a USD wallet in environment 0');
  return { id: w.id, loc: sim.dataset.linesOfCredit[w.lineOfCreditIndex]?.id as string };
};
const bearer = (): { key: null; headers: Record<string, string> } => ({ key: null, headers: { authorization: `Bearer ${sim.bearerToken}` } });

/** The payment, once `settle()` has ended its brief 404 window. */
async function readable(id: string): Promise<Json> {
  const r = await call(sim, `${envPath(sim)}/payments/${id}`);
  expect(r.status).toBe(200);
  return r.json as Json;
}

async function ledgerOf(walletId: string, paymentId: string): Promise<Json[]> {
  const r = await call(sim, `${orgPath(sim)}/wallets/${walletId}/ledger`, { query: { payment_id: paymentId } });
  return r.json['items'] as Json[];
}

async function walletTotal(walletId: string): Promise<bigint> {
  const w = (await call(sim, `${orgPath(sim)}/wallets/${walletId}`)).json as Json;
  const total = w['balances'][0]['total'];
  return (total['negative'] ? -1n : 1n) * BigInt(total['amount']);
}

beforeAll(async () => {
  receiver = createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (c: string) => (body += c));
    req.on('end', () => {
      deliveries.push({ headers: req.headers, body });
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks`;
  // long timers: nothing moves unless the test calls settle()
  sim = await startSimulator({ seed: 8, scale: 600, timing: { stepMs: 60_000, readableAfterMs: 5_000 } });
});

afterAll(async () => {
  await sim.close();
  await new Promise((resolve) => receiver.close(resolve));
});

describe('send', () => {
  it('202, brief 404, sending (held), then completed (captured) — consistent everywhere', async () => {
    const walletId = btcFeeWallet();
    const before = await walletTotal(walletId);
    const summaryQuery = { 'statuses[]': ['completed'], direction: 'send', kind: 'bolt11' };
    const countBefore = (await call(sim, `${orgPath(sim)}/wallets/${walletId}/payments/summary`, { query: summaryQuery })).json['total_count'] as number;
    const id = randomUUID();
    const created = await call(sim, `${envPath(sim)}/payments`, { body: { id, wallet_id: walletId, currency: 'btc', type: 'bolt11', data: { payment_request: 'lnbc20u1pexample' }, metadata: { order: 'A-1' } } });
    expect([created.status, created.text]).toEqual([202, '']);
    expect((await call(sim, `${envPath(sim)}/payments/${id}`)).status).toBe(404);

    await sim.settle(0);
    const sending = await readable(id);
    expect(sending).toMatchObject({ id, status: 'sending', direction: 'send', type: 'bolt11', metadata: { order: 'A-1' } });
    expect(sending['data']['amount']).toEqual({ currency: 'btc', amount: 2_000_000, unit: 'msats' });
    expect((await ledgerOf(walletId, id)).map((e) => e['type'])).toEqual(['held']);
    const again = await call(sim, `${envPath(sim)}/payments`, { body: { id, wallet_id: walletId, currency: 'btc', type: 'bolt11', data: { payment_request: 'lnbc20u1pexample' } } });
    expect(again.status).toBe(409);
    expect(again.json.error).toMatchObject({ type: 'payment_exists', context: { payment_id: id } });

    await sim.settle();
    const done = (await call(sim, `${envPath(sim)}/payments/${id}`)).json as Json;
    expect(done['status']).toBe('completed');
    const events = await ledgerOf(walletId, id);
    expect(events.map((e) => e['type'])).toEqual(['held', 'captured']);
    const b = done['payment_breakdown'];
    const captured = BigInt(events[1]?.['amount']['amount']);
    expect(captured).toBe(BigInt(b['principal']['amount']) + BigInt(b['network_fee']['amount']) + BigInt(b['processing_fee']['amount']));
    expect(captured).toBe(2_000_000n + BigInt(done['data']['fees']['amount']));
    expect(done['data']['outflows'][0]['data']['ledger_id']).toBe(events[0]?.['hold_id']);
    expect(await walletTotal(walletId)).toBe(before - captured);
    const countAfter = (await call(sim, `${orgPath(sim)}/wallets/${walletId}/payments/summary`, { query: summaryQuery })).json['total_count'];
    expect(countAfter).toBe(countBefore + 1);
    const listed = await call(sim, `${envPath(sim)}/payments`, { query: { wallet_id: walletId, 'metadata[order]': 'A-1' } });
    expect(listed.json['items'].map((p: Json) => p['id'])).toEqual([id]);
  });

  it('fails on a magic invoice: held then released, with an error', async () => {
    const walletId = btcFeeWallet();
    const id = randomUUID();
    expect((await call(sim, `${envPath(sim)}/payments`, { body: { id, wallet_id: walletId, currency: 'btc', type: 'bolt11', data: { payment_request: 'lnbc5u1pfail', max_fee: { currency: 'btc', amount: 5000 } } } })).status).toBe(202);
    await sim.settle();
    const p = await readable(id);
    expect(p['status']).toBe('failed');
    expect(p['error']).toMatchObject({ type: 'send_failed', code: 'no_route' });
    expect((await ledgerOf(walletId, id)).map((e) => e['type'])).toEqual(['held', 'released']);
  });

  it('validates amounts and currencies (400)', async () => {
    const walletId = btcFeeWallet();
    const bad = [
      [{ id: randomUUID(), wallet_id: walletId, currency: 'btc', type: 'bolt11', data: { payment_request: 'lnbc1pnoamount' } }, 'amount_required'],
      [{ id: randomUUID(), wallet_id: walletId, currency: 'usd', type: 'bolt11', data: { payment_request: 'lnbc20u1p' } }, 'invalid_currency'],
      [{ id: randomUUID(), wallet_id: walletId, currency: 'btc', type: 'onchain', data: { address: 'bc1qx', amount: { currency: 'btc', amount: 1500 } } }, 'invalid_amount'],
      [{ id: randomUUID(), wallet_id: walletId, currency: 'btc', type: 'bolt11', data: { payment_request: 'lnbc20u1p', amount: { currency: 'btc', amount: 0 } } }, 'invalid_amount'],
    ] as const;
    for (const [body, type] of bad) {
      const r = await call(sim, `${envPath(sim)}/payments`, { body });
      expect([r.status, r.json.error.type]).toEqual([400, type]);
    }
  });
});

describe('receive, check, treasury', () => {
  it('generating → receiving (invoice issued) → completed (credited)', async () => {
    const walletId = btcFeeWallet();
    const id = randomUUID();
    expect((await call(sim, `${envPath(sim)}/payments`, { body: { id, wallet_id: walletId, payment_kind: 'bolt11', amount: { currency: 'btc', amount: 3_000_000 }, description: 'Invoice 7' } })).status).toBe(202);
    await sim.settle(0);
    const generating = await readable(id);
    expect([generating['status'], generating['data']['payment_request']]).toEqual(['generating', null]);
    await sim.settle(1);
    const receiving = (await call(sim, `${envPath(sim)}/payments/${id}`)).json as Json;
    expect(receiving['status']).toBe('receiving');
    expect(receiving['data']['payment_request']).toMatch(/^lnbc/);
    await sim.settle();
    const done = (await call(sim, `${envPath(sim)}/payments/${id}`)).json as Json;
    expect(done['status']).toBe('completed');
    const events = await ledgerOf(walletId, id);
    expect(events.map((e) => e['type'])).toEqual(['credited']);
    expect(BigInt(events[0]?.['amount']['amount'])).toBe(3_000_000n);
    expect(done['data']['receipts'][0]['data']['ledger_id']).toBe(events[0]?.['credit_id']);
  });

  it('expires on request (metadata simulate=expire); any-amount receives fail on a fee-bearing wallet', async () => {
    const walletId = btcFeeWallet();
    const expiring = randomUUID();
    await call(sim, `${envPath(sim)}/payments`, { body: { id: expiring, wallet_id: walletId, payment_kind: 'onchain', amount: { currency: 'btc', amount: 50_000_000 }, metadata: { simulate: 'expire' } } });
    const anyAmount = randomUUID();
    await call(sim, `${envPath(sim)}/payments`, { body: { id: anyAmount, wallet_id: walletId, payment_kind: 'bolt11', currency: 'btc' } });
    await sim.settle();
    expect((await readable(expiring))['status']).toBe('expired');
    const failed = await readable(anyAmount);
    expect([failed['status'], failed['error']['type']]).toEqual(['failed', 'receive_failed']);
    expect(await ledgerOf(walletId, expiring)).toEqual([]);
  });

  it('policy check: approved, no money moves', async () => {
    const walletId = btcFeeWallet();
    const id = randomUUID();
    expect((await call(sim, `${envPath(sim)}/payments/check`, { body: { id, wallet_id: walletId, currency: 'btc', type: 'bolt11', data: { payment_request: 'lnbc1u1pcheck' } } })).status).toBe(202);
    await sim.settle();
    expect((await readable(id))['status']).toBe('approved');
    expect(await ledgerOf(walletId, id)).toEqual([]);
  });

  it('treasury movement: category treasury, no processing fee', async () => {
    const walletId = btcFeeWallet();
    const id = randomUUID();
    expect((await call(sim, `${envPath(sim)}/treasury_movements`, { body: { id, wallet_id: walletId, payment_kind: 'bolt11', amount: { currency: 'btc', amount: 9_000_000 } } })).status).toBe(202);
    await sim.settle();
    const p = await readable(id);
    expect([p['payment_category'], p['status'], p['processing_fee'], p['payment_breakdown']]).toEqual(['treasury', 'completed', undefined, undefined]);
    const unknownWallet = await call(sim, `${envPath(sim)}/treasury_movements`, { body: { id: randomUUID(), wallet_id: randomUUID(), payment_kind: 'bolt11', amount: { currency: 'btc', amount: 1 } } });
    expect([unknownWallet.status, unknownWallet.json.error.type]).toEqual([404, 'wallet_not_found']);
  });
});

describe('USD wallets and quotes', () => {
  it('need a single-use quote: quote_required, then a cross-currency payment with exchanges', async () => {
    const { id: walletId, loc } = usdWallet();
    const noQuote = await call(sim, `${envPath(sim)}/payments`, { body: { id: randomUUID(), wallet_id: walletId, currency: 'usd', type: 'bolt11', data: { payment_request: 'lnbc100u1p' } } });
    expect(noQuote.json.error).toMatchObject({ type: 'quote_required', code: 'required', context: { field: 'quote_id' } });

    const quoteId = randomUUID();
    const q = await call(sim, `${envPath(sim)}/quotes`, { body: { id: quoteId, line_of_credit_id: loc, network: 'mainnet', amount: { currency: 'btc', amount: 10_000_000 }, to: 'usd' } });
    expect([q.status, q.text]).toEqual([202, '']);
    const quote = (await call(sim, `${envPath(sim)}/quotes/${quoteId}`)).json as Json;
    expect(quote['quote']['detail']['rate']).toMatch(/^\d+e\d+$/);
    expect(quote['consumed_at']).toBeNull();

    const id = randomUUID();
    expect((await call(sim, `${envPath(sim)}/payments`, { body: { id, wallet_id: walletId, currency: 'usd', type: 'bolt11', quote_id: quoteId, data: { payment_request: 'lnbc100u1p' } } })).status).toBe(202);
    await sim.settle();
    const p = await readable(id);
    expect(p['currency']).toBe('usd');
    expect(p['data']['amount']['unit']).toBe('cents');
    expect(p['data']['amount_msats']).toBe(10_000_000);
    expect(p['exchanges'][0]).toMatchObject({ quote_id: quoteId, to_amount: { currency: 'btc' } });
    expect(p['data']['market_quote']['rate']).toBe(quote['quote']['detail']['rate']);
    const reuse = await call(sim, `${envPath(sim)}/payments`, { body: { id: randomUUID(), wallet_id: walletId, currency: 'usd', type: 'bolt11', quote_id: quoteId, data: { payment_request: 'lnbc100u1p' } } });
    expect(reuse.json.error.type).toBe('invalid_quote');
    expect((await call(sim, `${envPath(sim)}/quotes/${quoteId}`)).json['consumed_at']).not.toBeNull();
  });
});

describe('webhooks', () => {
  it('returns a shared_secret and signs each delivery: base64 HMAC-SHA256 over raw_body + "." + timestamp', async () => {
    const webhookId = randomUUID();
    const created = await call(sim, `${envPath(sim)}/webhooks`, { body: { id: webhookId, url: receiverUrl, name: 'books', events: [{ send: 'succeeded' }, { receive: 'completed' }] } });
    expect(created.status).toBe(202);
    const secret = created.json['shared_secret'] as string;
    expect(secret.length).toBeGreaterThan(20);
    expect((await call(sim, `${envPath(sim)}/webhooks`, { body: { id: webhookId, url: receiverUrl, name: 'dup', events: [] } })).status).toBe(409);

    deliveries.length = 0;
    const id = randomUUID();
    await call(sim, `${envPath(sim)}/payments`, { body: { id, wallet_id: btcFeeWallet(), currency: 'btc', type: 'bolt11', data: { payment_request: 'lnbc3u1phook' } } });
    await sim.settle();
    const mine = deliveries.filter((d) => d.headers['x-voltage-webhook-id'] === webhookId);
    expect(mine).toHaveLength(1);
    const d = mine[0] as (typeof deliveries)[number];
    const timestamp = d.headers['x-voltage-timestamp'] as string;
    const expected = createHmac('sha256', Buffer.from(secret, 'utf8')).update(`${d.body}.${timestamp}`).digest('base64');
    expect(d.headers['x-voltage-signature']).toBe(expected);
    const payload = JSON.parse(d.body) as Json;
    expect(payload).toMatchObject({ type: 'send', detail: { event: 'succeeded', data: { id, status: 'completed' } } });
    expect(sim.webhooks.deliveries.some((x) => x.paymentId === id && x.status === 204)).toBe(true);
  });
});

describe('wallet writes and policies', () => {
  it('creates (readable after provisioning), renames and deletes (inactive) a wallet', async () => {
    const { loc } = usdWallet();
    const id = randomUUID();
    const created = await call(sim, `${orgPath(sim)}/wallets`, { body: { id, environment_id: sim.environments[0]?.id, line_of_credit_id: loc, name: 'New USD', network: 'mainnet', limit: 100_000 } });
    expect(created.status).toBe(202);
    const provisioning = await call(sim, `${orgPath(sim)}/wallets/${id}`);
    expect([provisioning.status, provisioning.json.error.type]).toEqual([404, 'instance_not_found']);
    await sim.settle();
    const wallet = (await call(sim, `${orgPath(sim)}/wallets/${id}`)).json as Json;
    expect(wallet).toMatchObject({ id, active: true, name: 'New USD', line_of_credit_id: loc });
    expect((await call(sim, `${orgPath(sim)}/wallets/${id}`, { method: 'PATCH', body: { name: 'Renamed' } })).status).toBe(202);
    expect((await call(sim, `${orgPath(sim)}/wallets/${id}`)).json['name']).toBe('Renamed');
    expect((await call(sim, `${orgPath(sim)}/wallets/${id}`, { method: 'DELETE' })).status).toBe(202);
    const deleted = (await call(sim, `${orgPath(sim)}/wallets/${id}`)).json as Json;
    expect([deleted['active'], typeof deleted['deleted_at']]).toEqual([false, 'string']);
    const listed = (await call(sim, `${orgPath(sim)}/wallets`)).json as Json[];
    expect(listed.some((w) => w['id'] === id)).toBe(false);
  });

  it('updates policies: an empty update is 400 no_updates_provided; a new fee applies to later payments', async () => {
    const wallet = sim.dataset.wallets.find((w) => w.environmentIndex === 0 && w.currencyKind === 'btc' && w.hasPolicies && w.deactivatedUs === null && w.id !== btcFeeWallet());
    if (!wallet) throw new Error('the default dataset has a second BTC wallet with policies in environment 0');
    const path = `${orgPath(sim)}/wallets/${wallet.id}/policies`;
    const empty = await call(sim, path, { method: 'PATCH', body: {} });
    expect(empty.json.error).toMatchObject({ type: 'no_updates_provided', context: { wallet_id: wallet.id } });
    expect((await call(sim, path, { method: 'PATCH', body: { unknown_field: 1 } })).status).toBe(422);
    expect((await call(sim, path, { method: 'PATCH', body: { processing_fee: { send_basis_points: 200, receive_basis_points: 0 } } })).status).toBe(202);
    const policies = (await call(sim, path, bearer())).json as Json;
    expect(policies['policies']).toContainEqual(expect.objectContaining({ type: 'processing_fee', data: expect.objectContaining({ rates: { send_basis_points: 200, receive_basis_points: 0 } }) }));
    const id = randomUUID();
    await call(sim, `${envPath(sim)}/payments`, { body: { id, wallet_id: wallet.id, currency: 'btc', type: 'bolt11', data: { payment_request: 'lnbc10u1p' } } });
    await sim.settle();
    const p = await readable(id);
    expect(p['processing_fee']).toEqual({ basis_points: 200, amount: { currency: 'btc', amount: 20_000, unit: 'msats' } });
  });
});
