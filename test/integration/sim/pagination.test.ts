import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseMicros } from '../../../src/sim/core/time.js';
import { startSimulator, type SimHandle } from '../../../src/sim/start-simulator.js';
import { call, envPath, walkCursor, type Json } from '../../support/sim/sim-client.js';

/**
 * Payments list pagination against the simulator over HTTP: cursor and offset modes, every filter,
 * stable order with ties, invalid_cursor, and cursors that survive a restart. Expected results are
 * computed here from the full list, independently of the simulator's own query code.
 */

const SEED = 31;
let sim: SimHandle;
let all: Json[];

const us = (p: Json): number => parseMicros(p['created_at'] as string) as number;
const updatedUs = (p: Json): number => parseMicros(p['updated_at'] as string) as number;
const ids = (items: Json[]): string[] => items.map((p) => p['id'] as string);
const byCreatedThenId = (a: Json, b: Json): number => us(a) - us(b) || (a['id'] < b['id'] ? -1 : a['id'] > b['id'] ? 1 : 0);

beforeAll(async () => {
  sim = await startSimulator({ seed: SEED, scale: 3000 });
  const first = await call(sim, `${envPath(sim)}/payments`, { query: { limit: 1000, sort_order: 'ASC' } });
  all = [...first.json['items']];
  // the simulator clamps a larger page to its cap and says so in `limit` (docs/simulator.md)
  const step = first.json['limit'] as number;
  for (let offset = step; offset < first.json['total']; offset += step) {
    all.push(...(await call(sim, `${envPath(sim)}/payments`, { query: { limit: 1000, offset, sort_order: 'ASC' } })).json['items']);
  }
});

afterAll(async () => {
  await sim.close();
});

describe('payments list: cursor pagination', () => {
  it('returns every payment exactly once, in (created_at, id) order, matching the ground truth', async () => {
    const { items, pages } = await walkCursor(sim, { limit: 97, sort_order: 'ASC' });
    expect(ids(items)).toEqual(ids([...all].sort(byCreatedThenId)));
    expect(ids(items)).toEqual(sim.dataset.paymentIds({ environmentId: sim.environments[0]?.id as string }));
    expect(pages).toBe(Math.ceil(all.length / 97));
  });

  it('walks DESC as the exact reverse, ties included', async () => {
    const { items } = await walkCursor(sim, { limit: 250, sort_order: 'DESC' });
    expect(ids(items)).toEqual(ids([...all].sort(byCreatedThenId)).reverse());
    const ties = items.filter((p, i) => i > 0 && us(p) === us(items[i - 1] as Json));
    expect(ties.length).toBeGreaterThan(5);
  });

  it('sorts by updated_at with ties broken by id', async () => {
    const { items } = await walkCursor(sim, { limit: 300, sort_key: 'updated_at', sort_order: 'ASC' });
    expect(new Set(ids(items))).toEqual(new Set(ids(all)));
    for (let i = 1; i < items.length; i++) {
      const a = items[i - 1] as Json;
      const b = items[i] as Json;
      expect(updatedUs(a) < updatedUs(b) || (updatedUs(a) === updatedUs(b) && a['id'] < b['id'])).toBe(true);
    }
  });

  it('omits total in cursor mode, sets offset 0, ends with has_more false and next_cursor null', async () => {
    const r = await call(sim, `${envPath(sim)}/payments`, { query: { pagination: 'cursor', limit: 5 } });
    expect(r.json['total']).toBeUndefined();
    expect(r.json['offset']).toBe(0);
    expect(r.json['has_more']).toBe(true);
    const last = await call(sim, `${envPath(sim)}/payments`, { query: { pagination: 'cursor', limit: 5000, sort_order: 'ASC' } });
    expect(last.json['limit']).toBe(500);
    const { items } = await walkCursor(sim, { limit: 1000 });
    expect(items).toHaveLength(all.length);
    const end = await call(sim, `${envPath(sim)}/payments`, { query: { pagination: 'cursor', limit: 1000, wallet_id: all[0]?.['wallet_id'] } });
    expect(typeof end.json['has_more']).toBe('boolean');
  });

  it('binds a cursor to its filters and sort: a change is 400 invalid_cursor naming the field', async () => {
    const walletId = all[0]?.['wallet_id'] as string;
    const first = await call(sim, `${envPath(sim)}/payments`, { query: { pagination: 'cursor', limit: 3, wallet_id: walletId } });
    const cursor = first.json['next_cursor'] as string;
    const otherWallet = all.find((p) => p['wallet_id'] !== walletId)?.['wallet_id'] as string;
    for (const [query, field] of [
      [{ cursor, wallet_id: otherWallet }, 'wallet_id'],
      [{ cursor }, 'wallet_id'],
      [{ cursor, wallet_id: walletId, sort_order: 'ASC' }, 'sort_order'],
      [{ cursor, wallet_id: walletId, kind: 'bolt11' }, 'kind'],
    ] as const) {
      const r = await call(sim, `${envPath(sim)}/payments`, { query });
      expect(r.status).toBe(400);
      expect(r.json['error']['type']).toBe('invalid_cursor');
      expect(r.json['error']['context']['field']).toBe(field);
      expect(typeof r.json['error']['context']['recovery']).toBe('string');
    }
    const tampered = `${cursor.slice(0, -3)}abc`;
    const r = await call(sim, `${envPath(sim)}/payments`, { query: { cursor: tampered, wallet_id: walletId } });
    expect([r.status, r.json['error']['context']['field']]).toEqual([400, 'cursor']);
    const ok = await call(sim, `${envPath(sim)}/payments`, { query: { cursor, wallet_id: walletId, limit: 50 } });
    expect(ok.status).toBe(200);
  });

  it('keeps cursors valid across a restart of the simulator with the same seed', async () => {
    const first = await call(sim, `${envPath(sim)}/payments`, { query: { pagination: 'cursor', limit: 10, statuses: ['completed'] } });
    const cursor = first.json['next_cursor'] as string;
    const expected = await call(sim, `${envPath(sim)}/payments`, { query: { cursor, limit: 10, statuses: ['completed'] } });
    const restarted = await startSimulator({ seed: SEED, scale: 3000 });
    try {
      const again = await call(restarted, `${envPath(restarted)}/payments`, { query: { cursor, limit: 10, statuses: ['completed'] }, key: restarted.environments[0]?.apiKey ?? null });
      expect(again.status).toBe(200);
      expect(again.text).toBe(expected.text);
      // same seed, same bytes — everywhere, not only on this page
      const wallets = (s: SimHandle) => call(s, `/organizations/${s.organizationId}/wallets`, { key: null, headers: { authorization: `Bearer ${s.bearerToken}` }, query: { inactive: true } }).then((r) => r.text);
      expect(await wallets(restarted)).toBe(await wallets(sim));
    } finally {
      await restarted.close();
    }
  });
});

describe('payments list: offset pagination (default)', () => {
  it('reports total and has_more, and pages add up to the total', async () => {
    const r = await call(sim, `${envPath(sim)}/payments`);
    expect(r.json['limit']).toBe(100);
    expect(r.json['offset']).toBe(0);
    expect(r.json['total']).toBe(all.length);
    expect(r.json['has_more']).toBe(true);
    expect(r.json['next_cursor']).toBeUndefined();
    const seen: string[] = [];
    for (let offset = 0; offset < all.length; offset += 400) {
      const page = await call(sim, `${envPath(sim)}/payments`, { query: { offset, limit: 400, sort_order: 'ASC' } });
      seen.push(...ids(page.json['items']));
      expect(page.json['has_more']).toBe(offset + 400 < all.length);
    }
    expect(seen).toEqual(ids(all));
    const beyond = await call(sim, `${envPath(sim)}/payments`, { query: { offset: all.length + 5 } });
    expect([beyond.json['items'].length, beyond.json['has_more']]).toEqual([0, false]);
  });
});

describe('payments list: filters', () => {
  const cases: Array<[string, Record<string, string | readonly string[]>, (p: Json) => boolean]> = [
    ['direction', { direction: 'receive' }, (p) => p['direction'] === 'receive'],
    ['kind', { kind: 'onchain' }, (p) => p['type'] === 'onchain'],
    ['statuses[]', { 'statuses[]': ['failed', 'expired'] }, (p) => p['status'] === 'failed' || p['status'] === 'expired'],
    ['payment_category', { payment_category: 'treasury' }, (p) => p['payment_category'] === 'treasury'],
    ['metadata[k]=v', { 'metadata[tenant_id]': 'tenant-2' }, (p) => p['metadata']?.['tenant_id'] === 'tenant-2'],
    ['two metadata pairs', { 'metadata[tenant_id]': 'tenant-3', 'metadata[external_id]': 'ord-9' }, (p) => p['metadata']?.['tenant_id'] === 'tenant-3' && p['metadata']?.['external_id'] === 'ord-9'],
    ['combined', { direction: 'send', kind: 'bolt11', 'statuses[]': ['completed'] }, (p) => p['direction'] === 'send' && p['type'] === 'bolt11' && p['status'] === 'completed'],
  ];
  it.each(cases)('%s', async (_name, query, keep) => {
    const expected = ids(all.filter(keep).sort(byCreatedThenId));
    const { items } = await walkCursor(sim, { ...query, limit: 200, sort_order: 'ASC' });
    expect(ids(items)).toEqual(expected);
    const offset = await call(sim, `${envPath(sim)}/payments`, { query: { ...query, limit: 1 } });
    expect(offset.json['total']).toBe(expected.length);
  });

  it('filters by wallet and by line of credit', async () => {
    const walletId = all.find((p) => p['currency'] === 'usd')?.['wallet_id'] as string;
    const { items } = await walkCursor(sim, { wallet_id: walletId, limit: 500, sort_order: 'ASC' });
    expect(ids(items)).toEqual(ids(all.filter((p) => p['wallet_id'] === walletId).sort(byCreatedThenId)));
    const wallet = sim.wallets.find((w) => w.id === walletId);
    const loc = wallet?.lineOfCreditId as string;
    const inLoc = new Set(sim.wallets.filter((w) => w.lineOfCreditId === loc).map((w) => w.id));
    const byLoc = await walkCursor(sim, { line_of_credit_id: loc, limit: 500, sort_order: 'ASC' });
    expect(ids(byLoc.items)).toEqual(ids(all.filter((p) => inLoc.has(p['wallet_id'])).sort(byCreatedThenId)));
    const foreign = sim.wallets.find((w) => w.environmentId !== sim.environments[0]?.id)?.id as string;
    const none = await call(sim, `${envPath(sim)}/payments`, { query: { wallet_id: foreign } });
    expect([none.status, none.json['total']]).toEqual([200, 0]);
  });

  it('bounds creation time inclusively on both ends', async () => {
    const sorted = [...all].sort(byCreatedThenId);
    const from = sorted[100] as Json;
    const to = sorted[700] as Json;
    const expected = sorted.filter((p) => us(p) >= us(from) && us(p) <= us(to));
    const { items } = await walkCursor(sim, { start_date: from['created_at'], end_date: to['created_at'], limit: 128, sort_order: 'ASC' });
    expect(ids(items)).toEqual(ids(expected));
    expect(ids(items)).toContain(from['id']);
    expect(ids(items)).toContain(to['id']);
    // the generator puts a payment exactly on 2026-10-01T00:00:00Z and one a microsecond before
    const edges: string[] = [];
    for (let e = 0; e < sim.environments.length; e++) {
      const inWindow = await walkCursor(sim, { start_date: '2026-10-01T00:00:00Z', end_date: '2026-10-31T23:59:59.999999Z', limit: 1000 }, e);
      const truth = sim.dataset.paymentIds({ environmentId: sim.environments[e]?.id as string, from: '2026-10-01T00:00:00Z', to: '2026-10-31T23:59:59.999999Z' });
      expect(new Set(ids(inWindow.items))).toEqual(new Set(truth));
      for (const p of inWindow.items) expect(String(p['created_at']).startsWith('2026-10')).toBe(true);
      edges.push(...inWindow.items.map((p) => p['created_at'] as string));
    }
    expect(edges).toContain('2026-10-01T00:00:00Z');

  });

  it('rejects values that do not parse with 400 invalid_parameter', async () => {
    const bad: Array<Record<string, string>> = [{ limit: '-1' }, { kind: 'lightning' }, { sort_order: 'asc' }, { 'statuses[]': 'settled' }, { start_date: 'yesterday' }, { wallet_id: 'w1' }, { pagination: 'pages' }];
    for (const query of bad) {
      const r = await call(sim, `${envPath(sim)}/payments`, { query });
      expect(r.status, JSON.stringify(query)).toBe(400);
      expect(r.json['error']['type']).toBe('invalid_parameter');
    }
  });
});

describe('wallet ledger: offset pagination', () => {
  const ledgerPath = (walletId: string): string => `/organizations/${sim.organizationId}/wallets/${walletId}/ledger`;
  const entryKey = (e: Json): string => `${e['type']}:${e['hold_id'] ?? e['credit_id'] ?? e['deposit_id'] ?? e['withdraw_id']}`;
  const at = (e: Json): number => parseMicros(e['effective_time'] as string) as number;

  async function allEntries(walletId: string, query: Record<string, string> = {}): Promise<{ items: Json[]; total: number }> {
    const items: Json[] = [];
    let total = -1;
    for (let offset = 0; total < 0 || offset < total; offset += 333) {
      const r = await call(sim, ledgerPath(walletId), { query: { ...query, offset: String(offset), limit: '333' } });
      expect(r.status).toBe(200);
      total = r.json['total'] as number;
      items.push(...(r.json['items'] as Json[]));
    }
    return { items, total };
  }

  it('pages through every entry once, in effective_time order, with a stable total; DESC is the reverse', async () => {
    const walletId = all[0]?.['wallet_id'] as string;
    const asc = await allEntries(walletId);
    expect(asc.items).toHaveLength(asc.total);
    expect(new Set(asc.items.map(entryKey)).size).toBe(asc.total);
    for (let i = 1; i < asc.items.length; i++) expect(at(asc.items[i - 1] as Json)).toBeLessThanOrEqual(at(asc.items[i] as Json));
    expect(asc.items.map(entryKey)).toEqual(sim.dataset.ledgerEntries(walletId).map((e) => `${e.entryType}:${e.entryId}`));
    const desc = await allEntries(walletId, { sort_order: 'DESC' });
    expect(desc.items.map(entryKey)).toEqual(asc.items.map(entryKey).reverse());
    const byMessage = await allEntries(walletId, { sort_key: 'message_time' });
    expect(new Set(byMessage.items.map(entryKey))).toEqual(new Set(asc.items.map(entryKey)));
    const first = await call(sim, ledgerPath(walletId));
    expect([first.json['offset'], first.json['limit'], first.json['items'].length]).toEqual([0, 100, 100]);
  });

  it('filters on effective_time inclusively and by payment id', async () => {
    const walletId = all[0]?.['wallet_id'] as string;
    const { items } = await allEntries(walletId);
    const from = items[50] as Json;
    const to = items[400] as Json;
    for (const sortKey of ['effective_time', 'time_and_effective_time']) {
      const windowed = await allEntries(walletId, { start_date: from['effective_time'], end_date: to['effective_time'], sort_key: sortKey });
      expect(new Set(windowed.items.map(entryKey))).toEqual(new Set(items.filter((e) => at(e) >= at(from) && at(e) <= at(to)).map(entryKey)));
    }
    const paymentId = items.find((e) => e['type'] === 'captured')?.['payment_id'] as string;
    const one = await call(sim, ledgerPath(walletId), { query: { payment_id: paymentId } });
    expect(one.json['items'].map((e: Json) => e['type'])).toEqual(['held', 'captured']);
    expect(one.json['total']).toBe(2);
  });
});
