/**
 * The environment-level payments read (src/extract/streams/environment-payments.ts) against the
 * simulator, asserting the items written and the requests made (the simulator's request log): one
 * read of endpoint 10 without the `wallet_id` filter, time-sliced, each slice a cursor chain with
 * fixed filters; fewer requests than the per-wallet reads of the same data, the same payments, the
 * reads by id after; and a killed run resumes each slice where its checkpoint left it.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { RequestLogEntry, SimHandle } from '../../../src/sim/index.js';
import { minusOneMicrosecond } from '../../../src/api/date-bounds.js';
import type { Checkpoint } from '../../../src/model/ports.js';
import { expectedPaymentIds, filterPairs, OCTOBER, pullHarness, startSim, streamsOf } from '../../support/extract/harness.js';

let sim: SimHandle;

// many small wallets: each costs a request per wallet, however few payments it holds
beforeAll(async () => {
  sim = await startSim({ scale: 2_000, wallets: 40 });
});
afterEach(() => {
  sim.requestLog.clear();
});
afterAll(async () => {
  await sim.close();
});

const PAGE = 10;
const payments = (): RequestLogEntry[] => sim.requestLog.entries().filter((e) => /\/environments\/[^/]+\/payments$/.test(e.path));
const query = (e: RequestLogEntry): URLSearchParams => new URLSearchParams(e.query);
const sorted = (values: Iterable<string>): string[] => [...values].sort();
const rangeKey = (e: RequestLogEntry): string => `${query(e).get('start_date')}|${query(e).get('end_date')}`;
const planOf = (checkpoint: Checkpoint | undefined): Array<{ from: string; to: string }> => (JSON.parse(checkpoint?.position ?? '{}') as { slices: Array<{ from: string; to: string }> }).slices;

describe('environment-level payments read', () => {
  it('reads every payment once, in fewer requests than per wallet, time-sliced into cursor chains with fixed filters', async () => {
    const perWallet = await pullHarness(sim, { pageSize: PAGE });
    let perWalletRequests: number;
    let perWalletById: string[];
    try {
      await perWallet.run({ maxChainPages: 0 });
      perWalletRequests = payments().length;
      perWalletById = sorted(sim.requestLog.entries().filter((e) => /\/payments\/[^/]+$/.test(e.path) && !e.path.endsWith('/summary')).map((e) => e.path));
      expect(payments().every((e) => query(e).has('wallet_id'))).toBe(true);
    } finally {
      await perWallet.close();
    }
    sim.requestLog.clear();

    const h = await pullHarness(sim, { pageSize: PAGE });
    try {
      const environmentId = h.discovery.environments[0]!;
      const expects: Array<Readonly<Record<string, number>>> = [];
      h.ctx.onExpect = (streams) => expects.push(streams);
      const result = await h.run({ maxChainPages: 0, wholeEnvironments: h.discovery.environments });
      // the items: every payment of the window once, the same as per wallet
      expect(h.writer.sweptPaymentIds()).toEqual(expectedPaymentIds(sim, OCTOBER));
      expect(sorted(h.writer.sweptPaymentIds())).toEqual(sorted(perWallet.writer.sweptPaymentIds()));
      expect([...h.writer.paymentWriteCounts().values()].every((n) => n === 1)).toBe(true);

      // the requests: no wallet_id filter, fewer than per wallet, within the environment's pages and one short page per slice
      const requests = payments();
      expect(requests.every((e) => !query(e).has('wallet_id'))).toBe(true);
      expect(requests.length).toBeLessThan(perWalletRequests);
      const parent = h.writer.checkpoints.get(`payments:env:${environmentId}`);
      expect(parent?.done).toBe(true);
      const plan = planOf(parent);
      expect(plan.length).toBeGreaterThan(1);
      expect(requests.length).toBeLessThanOrEqual(Math.ceil(expectedPaymentIds(sim, OCTOBER).length / PAGE) + plan.length);

      // the slices tile the window, and each is a chain repeating its own filters, following its cursor
      expect(plan[0]!.from).toBe(OCTOBER.from);
      expect(plan.at(-1)!.to).toBe(OCTOBER.to);
      plan.slice(1).forEach((slice, i) => expect(slice.from).toBe(plan[i]!.to));
      const byRange = new Map<string, RequestLogEntry[]>();
      for (const e of requests) byRange.set(rangeKey(e), [...(byRange.get(rangeKey(e)) ?? []), e]);
      expect(sorted(byRange.keys())).toEqual(sorted(plan.map((s) => `${s.from}|${minusOneMicrosecond(s.to)}`)));
      for (const chain of byRange.values()) {
        chain.forEach((e, i) => {
          expect(filterPairs(e.query)).toEqual(filterPairs(chain[0]!.query));
          expect(query(e).has('cursor')).toBe(i > 0);
        });
      }
      const slices = streamsOf(result, `payments:env:${environmentId}:slice-`);
      expect(slices).toHaveLength(plan.length);
      // the progress bars' denominator: the slices and the environment's own stream, as many as the pull reports
      expect(expects).toEqual([{ payments: plan.length + 1 }]);
      expect(streamsOf(result, 'payments:env:')).toHaveLength(plan.length + 1);
      expect(slices.every((s) => s.done)).toBe(true);
      // no wallet's payments stream ran; each wallet's reads by id still did, the same as per wallet
      expect(streamsOf(result, 'payments:wallet:')).toEqual([]);
      const byId = sorted(sim.requestLog.entries().filter((e) => /\/payments\/[^/]+$/.test(e.path) && !e.path.endsWith('/summary')).map((e) => e.path));
      expect(byId).toEqual(perWalletById);
    } finally {
      await h.close();
    }
  });

  it('resumes a killed read with its saved plan: a finished slice is not read again, a half-read one goes on from its cursor', async () => {
    const first = await pullHarness(sim, { pageSize: PAGE });
    let writes: typeof first.writer.paymentWrites;
    let checkpoints: typeof first.writer.checkpoints;
    const environmentId = first.discovery.environments[0]!;
    try {
      await first.run({ maxChainPages: 0, wholeEnvironments: first.discovery.environments });
      writes = first.writer.paymentWrites;
      checkpoints = first.writer.checkpoints;
    } finally {
      await first.close();
    }
    const parent = `payments:env:${environmentId}`;
    const sliceNames = sorted([...checkpoints.keys()].filter((s) => s.startsWith(`${parent}:slice-`)));
    expect(sliceNames.length).toBeGreaterThan(1);
    // killed after the plan, all of the first slice, and the first page of a slice of several pages
    const [finished, ...rest] = sliceNames;
    const halfRead = rest.find((name) => (checkpoints.get(name)?.pages ?? 0) > 1)!;
    expect(halfRead).toBeDefined();
    const firstPage = writes.find((w) => w.checkpoint.stream === halfRead && w.checkpoint.pages === 1)!;
    const resume = new Map<string, Checkpoint>([
      [parent, { ...checkpoints.get(parent)!, done: false }],
      [finished!, checkpoints.get(finished!)!],
      [halfRead, firstPage.checkpoint],
    ]);
    sim.requestLog.clear();

    const second = await pullHarness(sim, { pageSize: PAGE });
    try {
      second.ctx.resume = resume;
      // other counts (a resumed run reads no summary again here) must not change the saved decision
      await second.run({ maxChainPages: 0, wholeEnvironments: second.discovery.environments, summaryEnvironments: [] });
      const plan = planOf(checkpoints.get(parent));
      const requests = payments();
      expect(requests.every((e) => !query(e).has('wallet_id'))).toBe(true);
      const rangeOf = (name: string): string => {
        const slice = plan[Number(/slice-(\d+)-of/.exec(name)![1]) - 1]!;
        return `${slice.from}|${minusOneMicrosecond(slice.to)}`;
      };
      // the finished slice: no request; the half-read one: its first request follows the saved cursor
      expect(requests.filter((e) => rangeKey(e) === rangeOf(finished!))).toEqual([]);
      expect(query(requests.find((e) => rangeKey(e) === rangeOf(halfRead))!).has('cursor')).toBe(true);
      const before = writes.filter((w) => w.checkpoint.stream === finished || w === firstPage).flatMap((w) => w.rows.map((r) => r.payment_id));
      expect(before.length).toBeGreaterThan(0);
      expect(before.filter((id) => second.writer.paymentWriteCounts().has(id))).toEqual([]);
      expect(sorted([...second.writer.sweptPaymentIds(), ...before])).toEqual(expectedPaymentIds(sim, OCTOBER));
      expect(second.writer.checkpoints.get(parent)?.done).toBe(true);
    } finally {
      await second.close();
    }
  });
});
