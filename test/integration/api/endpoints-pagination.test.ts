/**
 * Endpoints + pagination against a fake service: table-driven, asserting both the items yielded
 * AND the requests made (the same filters and sort on every follow).
 */
import { describe, expect, it } from 'vitest';
import { getPayment, ledgerEventKey, ledgerPages, listWallets, paymentKey, paymentPages, type PaymentFilters } from '../../../src/api/endpoints.js';
import { ApiServerError } from '../../../src/api/errors.js';
import { dedupePages, SweepDeduper, type SweepPosition } from '../../../src/api/paginate.js';
import type { WirePayment } from '../../../src/api/wire/payments.js';
import { makeClient } from '../../support/api/client-harness.js';
import { sendError, sendJson, type RecordedRequest } from '../../support/api/fake-api-server.js';
import { serveFakeApi } from '../../support/api/serve-fake-api.js';
import { listHandler, type Fault } from '../../support/api/fake-payments-service.js';

const ORG = '0b6c3a52-3f1e-4a57-9d55-1a2b3c4d5e6f';
const ENV = '1c7d4b63-402f-4b68-8e66-2b3c4d5e6f70';
const WALLET = '2d8e5c74-5130-4c79-9f77-3c4d5e6f7081';
const PAYMENTS_PATH = `/v1/organizations/${ORG}/environments/${ENV}/payments`;

const payments = Array.from({ length: 7 }, (_v, i) => ({ id: `00000000-0000-4000-8000-00000000000${i}`, wallet_id: WALLET, amount: i }));
const ids = (list: ReadonlyArray<{ id: unknown }>): string[] => list.map((p) => String(p.id));

const FILTERS: PaymentFilters = {
  walletId: WALLET,
  statuses: ['completed', 'failed'],
  metadata: { tenant: 'acme', external_id: 'x 1' },
  startDate: '2026-10-01T00:00:00+02:00',
  endDate: new Date('2026-10-31T23:59:59.999Z'),
  direction: 'send',
};
const EXPECTED_FILTER_QUERY: Array<[string, string]> = [
  ['wallet_id', WALLET],
  ['metadata[external_id]', 'x 1'],
  ['metadata[tenant]', 'acme'],
  ['statuses[]', 'completed'],
  ['statuses[]', 'failed'],
  ['sort_key', 'created_at'],
  ['sort_order', 'DESC'],
  ['direction', 'send'],
  ['start_date', '2026-09-30T22:00:00.000000Z'],
  ['end_date', '2026-10-31T23:59:59.999000Z'],
];


async function sweep(baseUrl: string, start?: SweepPosition) {
  const { client } = makeClient(baseUrl);
  const deduper = new SweepDeduper();
  const pages = [];
  for await (const page of dedupePages(paymentPages(client, { organizationId: ORG, environmentId: ENV, filters: FILTERS, limit: 3, ...(start ? { start } : {}) }), paymentKey, deduper)) {
    pages.push(page);
  }
  await client.close();
  return { pages, items: pages.flatMap((p) => p.items), deduper, stats: client.stats() };
}

const filterPart = (request: RecordedRequest | undefined) => [...(request?.query.entries() ?? [])].filter(([k]) => !['pagination', 'limit', 'cursor', 'offset'].includes(k));

describe('payments sweep (cursor mode)', () => {
  it('yields every page once and repeats the same filters and sort on every follow', async () => {
    const server = await serveFakeApi(listHandler({ items: payments }));
    const { pages, items } = await sweep(server.baseUrl);
    expect(ids(items)).toEqual(ids(payments));
    expect(pages.map((p) => p.items.length)).toEqual([3, 3, 1]);
    expect(server.requests).toHaveLength(3);
    for (const [index, request] of server.requests.entries()) {
      expect(request.path).toBe(PAYMENTS_PATH);
      expect(filterPart(request)).toEqual(EXPECTED_FILTER_QUERY);
      expect(request.query.get('pagination')).toBe('cursor');
      expect(request.query.get('limit')).toBe('3');
      expect(request.query.has('cursor')).toBe(index > 0);
      expect(request.query.has('offset')).toBe(false);
    }
    expect(pages.map((p) => p.next?.mode)).toEqual(['cursor', 'cursor', undefined]);
  });

  it.each<[string, (n: number) => Fault | undefined, number]>([
    ['a 503 burst on page 2 within the budget', (n) => (n === 2 || n === 3 ? '503' : undefined), 5],
    ['a reset mid-body on page 1', (n) => (n === 1 ? 'reset' : undefined), 4],
    ['a connection closed before headers on page 3', (n) => (n === 3 ? 'hang-up-before-headers' : undefined), 4],
    ['a truncated body on page 3', (n) => (n === 3 ? 'truncate' : undefined), 4],
    ['a 429 with Retry-After on page 2', (n) => (n === 2 ? '429' : undefined), 4],
    ['every fault at once', (n) => (['reset', '503', undefined, 'truncate', '429', undefined] as const)[n - 1], 7],
  ])('ends with the complete set after %s', async (_name, fault, expectedRequests) => {
    const server = await serveFakeApi(listHandler({ items: payments, fault }));
    const { items, deduper, stats } = await sweep(server.baseUrl);
    expect(ids(items)).toEqual(ids(payments));
    expect(deduper.duplicates).toBe(0);
    expect(server.requests).toHaveLength(expectedRequests);
    expect(stats.retries).toBe(expectedRequests - 3);
    // a retried page is re-fetched with exactly the same query
    for (const request of server.requests) expect(filterPart(request)).toEqual(EXPECTED_FILTER_QUERY);
  });

  it('fails with exit 69 on a 503 beyond the budget, after yielding the pages before it', async () => {
    const server = await serveFakeApi(listHandler({ items: payments, fault: (n) => (n >= 2 ? '503' : undefined) }));
    const { client } = makeClient(server.baseUrl);
    const seen: WirePayment[][] = [];
    const error = await (async () => {
      for await (const page of paymentPages(client, { organizationId: ORG, environmentId: ENV, filters: FILTERS, limit: 3 })) seen.push(page.items);
    })().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiServerError);
    expect(error).toMatchObject({ exitCode: 69, attempts: 5 });
    expect(seen.map((p) => ids(p))).toEqual([ids(payments.slice(0, 3))]);
    expect(server.requests).toHaveLength(6);
    await client.close();
  });

  it('counts a duplicate across pages instead of yielding it twice', async () => {
    const server = await serveFakeApi(listHandler({ items: payments, extraAt: (offset) => (offset === 3 ? [payments[2]!] : []) }));
    const { items, deduper, pages } = await sweep(server.baseUrl);
    expect(ids(items)).toEqual(ids(payments));
    expect(deduper.duplicates).toBe(1);
    expect(pages.map((p) => p.duplicates)).toEqual([0, 1, 0]);
  });

  it('resumes after a saved page: the rest, once, with the same filters', async () => {
    const server = await serveFakeApi(listHandler({ items: payments }));
    const first = await sweep(server.baseUrl);
    const resumeFrom = first.pages[0]?.next;
    expect(resumeFrom?.mode).toBe('cursor');
    server.requests.length = 0;
    const { items } = await sweep(server.baseUrl, resumeFrom ?? undefined);
    expect(ids(items)).toEqual(ids(payments.slice(3)));
    expect(server.requests).toHaveLength(2);
    expect(filterPart(server.requests[0])).toEqual(EXPECTED_FILTER_QUERY);
  });

  it('surfaces invalid_cursor (filters changed under a saved cursor) as an ApiRequestError, exit 69', async () => {
    const server = await serveFakeApi(listHandler({ items: payments }));
    const first = await sweep(server.baseUrl);
    const { client } = makeClient(server.baseUrl);
    const other = paymentPages(client, { organizationId: ORG, environmentId: ENV, filters: { ...FILTERS, direction: 'receive' }, limit: 3, start: first.pages[0]!.next! });
    await expect(other.next()).rejects.toMatchObject({ status: 400, type: 'invalid_cursor', exitCode: 69, context: { field: 'cursor' } });
    await client.close();
  });
});

describe('payments sweep (offset fallback)', () => {
  it('switches to offset mode when the server sends no cursor field, and stops at total', async () => {
    const server = await serveFakeApi(listHandler({ items: payments, cursorMode: false }));
    const { items, pages } = await sweep(server.baseUrl);
    expect(ids(items)).toEqual(ids(payments));
    expect(server.requests.map((r) => [r.query.get('pagination'), r.query.get('offset')])).toEqual([
      ['cursor', null],
      [null, '3'],
      [null, '6'],
    ]);
    for (const request of server.requests) expect(filterPart(request)).toEqual(EXPECTED_FILTER_QUERY);
    expect(pages.map((p) => p.next)).toEqual([{ mode: 'offset', offset: 3 }, { mode: 'offset', offset: 6 }, null]);
  });

  it('resumes an offset sweep from a saved offset', async () => {
    const server = await serveFakeApi(listHandler({ items: payments, cursorMode: false }));
    const { items } = await sweep(server.baseUrl, { mode: 'offset', offset: 5 });
    expect(ids(items)).toEqual(ids(payments.slice(5)));
    expect(server.requests.map((r) => r.query.get('offset'))).toEqual(['5']);
  });
});

describe('ledger (offset mode, stable sort)', () => {
  const events = Array.from({ length: 5 }, (_v, i) => ({ type: 'credited', credit_id: `c${i}`, payment_id: 'p', effective_time: `2026-10-0${i + 1}T00:00:00Z` }));

  it('walks offsets by items received with the same filters and stops at total', async () => {
    const server = await serveFakeApi(listHandler({ items: events, cursorMode: false }));
    const { client } = makeClient(server.baseUrl);
    const pages = [];
    for await (const page of ledgerPages(client, { organizationId: ORG, walletId: WALLET, filters: { startDate: '2026-10-01T00:00:00Z' }, limit: 2 })) pages.push(page);
    expect(pages.flatMap((p) => p.items).map(ledgerEventKey)).toEqual(events.map((e) => `credited:${e.credit_id}`));
    expect(server.requests.map((r) => r.url)).toEqual(
      [0, 2, 4].map(
        (offset) => `/v1/organizations/${ORG}/wallets/${WALLET}/ledger?start_date=2026-10-01T00%3A00%3A00.000000Z&sort_key=effective_time&sort_order=ASC&offset=${offset}&limit=2`,
      ),
    );
    expect(pages.map((p) => p.next)).toEqual([2, 4, null]);
    await client.close();
  });

  it('resumes from a saved offset', async () => {
    const server = await serveFakeApi(listHandler({ items: events, cursorMode: false }));
    const { client } = makeClient(server.baseUrl);
    const got = [];
    for await (const page of ledgerPages(client, { organizationId: ORG, walletId: WALLET, limit: 2, start: 4 })) got.push(...page.items);
    expect(got.map(ledgerEventKey)).toEqual(['credited:c4']);
    expect(server.requests).toHaveLength(1);
    await client.close();
  });
});

describe('single-object endpoints', () => {
  it('lists wallets as a bare array, inactive included', async () => {
    const server = await serveFakeApi((_req, res) => sendJson(res, 200, [{ id: WALLET, active: false }]));
    const { client } = makeClient(server.baseUrl);
    await expect(listWallets(client, { organizationId: ORG })).resolves.toEqual([{ id: WALLET, active: false }]);
    expect(server.requests[0]?.url).toBe(`/v1/organizations/${ORG}/wallets?inactive=true`);
    await client.close();
  });

  it('retries a just-created payment read through its 404 window', async () => {
    const server = await serveFakeApi((_req, res, { n }) => (n < 3 ? sendError(res, 404, 'payment_not_found') : sendJson(res, 200, `{"id": "${payments[0]!.id}", "amount": 12345678901234567890}`)));
    const { client } = makeClient(server.baseUrl);
    const payment = await getPayment(client, { organizationId: ORG, environmentId: ENV, paymentId: payments[0]!.id, justCreated: true });
    expect(payment).toMatchObject({ id: payments[0]!.id, amount: 12345678901234567890n });
    expect(server.requests).toHaveLength(3);
    await client.close();
  });

  it('validates path parameters as UUIDs before any request (exit 64)', async () => {
    const server = await serveFakeApi((_req, res) => sendJson(res, 200, {}));
    const { client } = makeClient(server.baseUrl);
    for (const bad of ['../etc', 'x/../../wallets', '%2e%2e', ' ', `${WALLET}/ledger`]) {
      await expect(getPayment(client, { organizationId: ORG, environmentId: ENV, paymentId: bad })).rejects.toMatchObject({ type: 'invalid_uuid', exitCode: 64 });
    }
    expect(server.requests).toHaveLength(0);
    await client.close();
  });
});
