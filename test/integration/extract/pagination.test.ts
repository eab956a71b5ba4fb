/**
 * The extraction streams against the simulator, table-driven, asserting both the rows written and
 * the requests made (from the simulator's request log): the same filters and sort on every follow,
 * cursor mode for payments with an offset fallback, offset mode over a stable sort for the ledger,
 * time slices for a wallet larger than the chain budget, de-duplication within a sweep.
 */
import { createServer, request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { RequestLogEntry, SimHandle } from '../../../src/sim/index.js';
import { minusOneMicrosecond } from '../../../src/api/date-bounds.js';
import { expectedLedgerKeys, expectedPaymentIds, filterPairs, OCTOBER, pullHarness, startSim, streamsOf, type RecordingWriter } from '../../support/extract/harness.js';

let sim: SimHandle;

beforeAll(async () => {
  sim = await startSim({ scale: 2_000 });
});
afterEach(() => {
  sim.setFaults(null);
  sim.requestLog.clear();
});
afterAll(async () => {
  await sim.close();
});

const payments = (): RequestLogEntry[] => sim.requestLog.entries().filter((e) => /\/environments\/[^/]+\/payments$/.test(e.path));
const ledgerOf = (walletId: string): RequestLogEntry[] => sim.requestLog.entries().filter((e) => e.path.endsWith(`/wallets/${walletId}/ledger`));
const walletParam = (e: RequestLogEntry): string | null => new URLSearchParams(e.query).get('wallet_id');
const sorted = (values: Iterable<string>): string[] => [...values].sort();

describe('payments: cursor mode, the same filters on every follow', () => {
  it.each([
    { pageSize: 7, label: 'small pages' },
    { pageSize: 50, label: 'default-sized pages' },
    { pageSize: 1000, label: 'one page per wallet' },
  ])('$label (limit $pageSize): every payment once, and each wallet a chain of identical queries', async ({ pageSize }) => {
    const h = await pullHarness(sim, { pageSize });
    try {
      const result = await h.run({ maxChainPages: 0 });
      expect(h.writer.sweptPaymentIds()).toEqual(expectedPaymentIds(sim, OCTOBER));
      expect([...h.writer.paymentWriteCounts().values()].every((n) => n === 1)).toBe(true);
      expect(result.duplicates).toBe(0);

      for (const wallet of h.discovery.wallets) {
        const requests = payments().filter((e) => walletParam(e) === wallet.wallet_id);
        const expected = expectedPaymentIds(sim, OCTOBER, wallet.wallet_id).length;
        expect(requests).toHaveLength(Math.max(1, Math.ceil(expected / pageSize)));
        const first = filterPairs(requests[0]!.query);
        expect(Object.fromEntries(first)).toEqual({
          wallet_id: wallet.wallet_id,
          sort_key: 'created_at',
          sort_order: 'DESC',
          start_date: OCTOBER.from,
          end_date: minusOneMicrosecond(OCTOBER.to),
          limit: String(pageSize),
        });
        requests.forEach((request, index) => {
          const query = new URLSearchParams(request.query);
          expect(filterPairs(request.query)).toEqual(first);
          expect(query.get('pagination')).toBe('cursor');
          expect(query.has('cursor')).toBe(index > 0);
          expect(query.has('offset')).toBe(false);
        });
      }
    } finally {
      await h.close();
    }
  });

  it('falls back to offset mode when the server sends no cursor, and still reads every payment once', async () => {
    const proxy = await cursorlessProxy(sim);
    const h = await pullHarness({ ...sim, baseUrl: proxy.baseUrl } as SimHandle, { pageSize: 20 });
    try {
      await h.run({ maxChainPages: 0 });
      expect(h.writer.sweptPaymentIds()).toEqual(expectedPaymentIds(sim, OCTOBER));
      for (const wallet of h.discovery.wallets) {
        const requests = payments().filter((e) => walletParam(e) === wallet.wallet_id);
        const expected = expectedPaymentIds(sim, OCTOBER, wallet.wallet_id).length;
        expect(requests.length).toBeGreaterThanOrEqual(Math.ceil(expected / 20));
        expect(new URLSearchParams(requests[0]!.query).get('pagination')).toBe('cursor');
        const follows = requests.slice(1).map((r) => new URLSearchParams(r.query));
        expect(follows.map((q) => Number(q.get('offset')))).toEqual(follows.map((_q, i) => (i + 1) * 20));
        for (const q of follows) expect(q.has('cursor') || q.has('pagination')).toBe(false);
        const filters = (e: RequestLogEntry) => filterPairs(e.query).filter(([k]) => k !== 'limit');
        for (const r of requests) expect(filters(r)).toEqual(filters(requests[0]!));
      }
    } finally {
      await h.close();
      await proxy.close();
    }
  });

  it('counts duplicates a cursor page repeats and writes each payment once', async () => {
    sim.setFaults('dup=0.5,seed=3,paths=*/payments');
    const h = await pullHarness(sim, { pageSize: 20 });
    try {
      const result = await h.run({ maxChainPages: 0 });
      expect(sim.requestLog.entries().some((e) => e.fault === 'dup')).toBe(true);
      expect(result.duplicates).toBeGreaterThan(0);
      expect(h.writer.sweptPaymentIds()).toEqual(expectedPaymentIds(sim, OCTOBER));
      expect([...h.writer.paymentWriteCounts().values()].every((n) => n === 1)).toBe(true);
      const streamDuplicates = streamsOf(result, 'payments:wallet:').reduce((n, s) => n + s.duplicates, 0);
      expect(streamDuplicates).toBe(result.duplicates);
    } finally {
      await h.close();
    }
  });
});

describe('payments: a saved cursor the service refuses', () => {
  it('restarts that wallet from its first page (400 invalid_cursor) and still reads every payment once', async () => {
    const h = await pullHarness(sim, { pageSize: 20 });
    const wallet = h.discovery.wallets[0]!;
    const stream = `payments:wallet:${wallet.wallet_id}`;
    try {
      h.ctx.resume = new Map([[stream, { run_key: 'test-run-key', stream, position: JSON.stringify({ next: { mode: 'cursor', cursor: 'expired-or-forged' } }), pages: 3, rows: 60, done: false }]]);
      const result = await h.run({ wallets: [wallet], maxChainPages: 0 });
      expect(result.streams.find((s) => s.stream === stream)?.rows).toBe(expectedPaymentIds(sim, OCTOBER, wallet.wallet_id).length);
      const requests = payments();
      expect(requests[0]?.status).toBe(400);
      expect(new URLSearchParams(requests[0]!.query).get('cursor')).toBe('expired-or-forged');
      expect(new URLSearchParams(requests[1]!.query).has('cursor')).toBe(false);
      expect(h.memory.lines.some((l) => l.includes('saved cursor refused by the service'))).toBe(true);
      expect(h.writer.sweptPaymentIds()).toEqual(expectedPaymentIds(sim, OCTOBER, wallet.wallet_id));
    } finally {
      await h.close();
    }
  });
});

describe('ledger: offset mode over a stable sort', () => {
  it.each([{ pageSize: 13 }, { pageSize: 100 }])('limit $pageSize: offsets advance by the items received; every entry once', async ({ pageSize }) => {
    const h = await pullHarness(sim, { pageSize });
    try {
      await h.run({ maxChainPages: 0 });
      for (const wallet of h.discovery.wallets) {
        const keys = expectedLedgerKeys(sim, wallet.wallet_id);
        expect(sorted([...h.writer.ledger.values()].filter((r) => r.wallet_id === wallet.wallet_id).map((r) => `${r.entry_type}:${r.entry_id}`))).toEqual(keys);
        const requests = ledgerOf(wallet.wallet_id).map((e) => new URLSearchParams(e.query));
        expect(requests.map((q) => Number(q.get('offset')))).toEqual(requests.map((_q, i) => i * pageSize));
        expect(requests).toHaveLength(Math.max(1, Math.ceil(keys.length / pageSize)));
        for (const q of requests) {
          expect([q.get('sort_key'), q.get('sort_order'), q.get('limit'), q.has('start_date'), q.has('end_date')]).toEqual(['effective_time', 'ASC', String(pageSize), false, false]);
        }
      }
    } finally {
      await h.close();
    }
  });

  it('starts at the given date when a high-water mark is known', async () => {
    const h = await pullHarness(sim, { pageSize: 50 });
    const startDate = '2026-11-01T00:00:00.000000Z';
    try {
      await h.run({ maxChainPages: 0, ledgerStart: async () => startDate });
      const wallet = h.discovery.wallets[0]!;
      const keys = sim.dataset
        .ledgerEntries(wallet.wallet_id, { from: startDate })
        .map((e) => `${e.entryType}:${e.entryId}`)
        .sort();
      expect(sorted([...h.writer.ledger.values()].filter((r) => r.wallet_id === wallet.wallet_id).map((r) => `${r.entry_type}:${r.entry_id}`))).toEqual(keys);
      for (const e of ledgerOf(wallet.wallet_id)) expect(new URLSearchParams(e.query).get('start_date')).toBe(startDate);
    } finally {
      await h.close();
    }
  });
});

describe('time slices: a wallet larger than the chain budget', () => {
  it('splits payments and ledger into disjoint slices, each a chain with fixed filters, together complete', async () => {
    const h = await pullHarness(sim, { pageSize: 20 });
    try {
      const result = await h.run({ maxChainPages: 2, now: '2026-11-22T12:00:00.000000Z' });
      expect(h.writer.sweptPaymentIds()).toEqual(expectedPaymentIds(sim, OCTOBER));
      expect([...h.writer.paymentWriteCounts().values()].every((n) => n === 1)).toBe(true);

      const wallet = h.discovery.wallets.reduce((a, b) => (expectedPaymentIds(sim, OCTOBER, a.wallet_id).length >= expectedPaymentIds(sim, OCTOBER, b.wallet_id).length ? a : b));
      const slices = streamsOf(result, `payments:wallet:${wallet.wallet_id}:slice-`);
      expect(slices.length).toBeGreaterThan(1);
      expect(slices.every((s) => s.done)).toBe(true);
      const parent = h.writer.checkpoints.get(`payments:wallet:${wallet.wallet_id}`)!;
      expect(parent.done).toBe(true);
      const plan = JSON.parse(parent.position) as { slices: Array<{ from: string; to: string }> };
      expect(plan.slices).toHaveLength(slices.length);
      // the slices tile the window: first from its start, each from where the previous ended
      expect(plan.slices[0]!.from).toBe(OCTOBER.from);
      expect(plan.slices.at(-1)!.to).toBe(OCTOBER.to);
      plan.slices.slice(1).forEach((slice, i) => expect(slice.from).toBe(plan.slices[i]!.to));

      // each slice's chain repeats its own filters; the requests of all slices use every slice's range
      const byRange = new Map<string, RequestLogEntry[]>();
      for (const e of payments().filter((r) => walletParam(r) === wallet.wallet_id)) {
        const q = new URLSearchParams(e.query);
        const key = `${q.get('start_date')}|${q.get('end_date')}`;
        byRange.set(key, [...(byRange.get(key) ?? []), e]);
      }
      expect(sorted(byRange.keys())).toEqual(sorted(plan.slices.map((s) => `${s.from}|${minusOneMicrosecond(s.to)}`)));
      for (const chain of byRange.values()) {
        chain.forEach((e, i) => {
          expect(filterPairs(e.query)).toEqual(filterPairs(chain[0]!.query));
          expect(new URLSearchParams(e.query).has('cursor')).toBe(i > 0);
        });
      }

      // the ledger: split after its first page, every entry still read exactly once
      for (const w of h.discovery.wallets) {
        const keys = expectedLedgerKeys(sim, w.wallet_id);
        const written = h.writer.ledgerWrites.flatMap(({ rows }) => rows.filter((r) => r.wallet_id === w.wallet_id).map((r) => `${r.entry_type}:${r.entry_id}`));
        expect(sorted(written)).toEqual(keys);
      }
      expect(streamsOf(result, `ledger:wallet:${wallet.wallet_id}:slice-`).length).toBeGreaterThan(1);
      expect(h.writer.checkpoints.get(`ledger:wallet:${wallet.wallet_id}`)?.done).toBe(true);
    } finally {
      await h.close();
    }
  });

  it('resumes a split wallet with the saved plan, skipping the slices already done', async () => {
    const first = await pullHarness(sim, { pageSize: 20 });
    let checkpoints: RecordingWriter['checkpoints'];
    try {
      await first.run({ maxChainPages: 2, now: '2026-11-22T12:00:00.000000Z' });
      checkpoints = first.writer.checkpoints;
    } finally {
      await first.close();
    }
    const wallet = first.discovery.wallets[0]!;
    const parent = `payments:wallet:${wallet.wallet_id}`;
    const sliceNames = [...checkpoints.keys()].filter((s) => s.startsWith(`${parent}:slice-`)).sort();
    expect(sliceNames.length).toBeGreaterThan(1);
    // a run killed after the plan and the first slice were saved
    const resume = new Map([
      [parent, { ...checkpoints.get(parent)!, done: false }],
      [sliceNames[0]!, checkpoints.get(sliceNames[0]!)!],
    ]);
    sim.requestLog.clear();
    const second = await pullHarness(sim, { pageSize: 20 });
    try {
      second.ctx.resume = resume;
      // a different budget must not change the saved plan
      await second.run({ wallets: [wallet], summaryEnvironments: [], maxChainPages: 1000 });
      const requested = payments().map((e) => `${new URLSearchParams(e.query).get('start_date')}`);
      const plan = JSON.parse(checkpoints.get(parent)!.position) as { slices: Array<{ from: string }> };
      expect(sorted(new Set(requested))).toEqual(sorted(plan.slices.slice(1).map((s) => s.from)));
      const doneBefore = first.writer.paymentWrites.filter((w) => w.checkpoint.stream === sliceNames[0]).flatMap((w) => w.rows.map((r) => r.payment_id));
      expect(doneBefore.length).toBeGreaterThan(0);
      expect(doneBefore.filter((id) => second.writer.paymentWriteCounts().has(id))).toEqual([]);
      expect(sorted([...second.writer.sweptPaymentIds(), ...doneBefore])).toEqual(expectedPaymentIds(sim, OCTOBER, wallet.wallet_id));
      expect(second.writer.checkpoints.get(parent)?.done).toBe(true);
    } finally {
      await second.close();
    }
  });
});

/** A server without cursor support: the simulator behind a proxy that drops `next_cursor` from payment lists. */
async function cursorlessProxy(target: SimHandle): Promise<{ baseUrl: string; close(): Promise<void> }> {
  const upstream = new URL(target.baseUrl);
  const server: Server = createServer((req, res) => {
    const forward = httpRequest({ host: upstream.hostname, port: upstream.port, path: req.url, method: req.method, headers: req.headers }, (reply) => {
      const chunks: Buffer[] = [];
      reply.on('data', (c: Buffer) => chunks.push(c));
      reply.on('end', () => {
        let body = Buffer.concat(chunks).toString('utf8');
        if (/\/payments(\?|$)/.test(req.url ?? '')) body = body.replace(/,"next_cursor":(null|"[^"]*")/, '');
        res.writeHead(reply.statusCode ?? 502, { 'content-type': reply.headers['content-type'] ?? 'application/json', 'content-length': String(Buffer.byteLength(body)) });
        res.end(body);
      });
    });
    req.pipe(forward);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}${upstream.pathname}`,
    close: () =>
      new Promise((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
