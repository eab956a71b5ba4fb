import { describe, expect, it } from 'vitest';
import type { ExtractContext, StreamProgress } from '../../../src/extract/context.js';
import { pull } from '../../../src/extract/pull.js';
import type { PullPlan } from '../../../src/extract/pull-plan.js';
import type { RunStream, Stream, WalletStream } from '../../../src/extract/stream.js';
import type { WalletRow } from '../../../src/model/rows.js';
import type { SnapshotWriter } from '../../../src/model/ports.js';
import { createMemoryLogger } from '../../../src/util/log.js';

/*
 * Kinds of stream pull.ts has never heard of, each defined here in a few lines, scheduled by the
 * unchanged pull(): the proof that a new stream (bills, webhook deliveries, …) is one file.
 */

const wallet = (id: string): WalletRow => ({ wallet_id: id, environment_id: 'env' }) as WalletRow;
const done = (stream: string, rows = 1): StreamProgress => ({ stream, pages: 1, rows, duplicates: 0, done: true });

function context(): ExtractContext {
  return {
    organizationId: 'org',
    apiFor: () => {
      throw new Error('a fake stream makes no request');
    },
    writer: {} as SnapshotWriter,
    normalize: {} as ExtractContext['normalize'],
    log: createMemoryLogger().log,
    runKey: 'key',
    runId: 'run',
    resume: new Map(),
    pageSize: 10,
  };
}

function plan(wallets: WalletRow[], overrides: Partial<PullPlan> = {}): PullPlan {
  const window = { from: '2026-10-01T00:00:00.000000Z', to: '2026-11-01T00:00:00.000000Z', tz: 'UTC' } as PullPlan['window'];
  return {
    wallets,
    summaryEnvironments: [],
    window,
    paymentWindow: window,
    ledgerStart: async () => null,
    orphanPaymentIds: async () => [],
    concurrency: 1,
    now: '2026-11-22T12:00:00.000000Z',
    ...overrides,
  };
}

/** A journal of what ran, in order. */
function fakeStreams(log: string[]): Array<Stream<unknown>> {
  // sizing: one "count" per wallet, which the wallet stage reads back from the scope
  const counts: RunStream<WalletRow> = {
    name: 'fake-counts',
    stage: 'sizing',
    slices: async (_ctx, { plan }) => ({ slices: plan.wallets.map((w) => ({ slice: w, size: 0 })) }),
    read: async (_ctx, scope, w) => {
      log.push(`count:${w.wallet_id}`);
      scope.counts.set(w.wallet_id, { totalCount: w.wallet_id === 'w-big' ? 500 : 5, oldest: null, newest: null });
      return { progress: [done(`count:${w.wallet_id}`)] };
    },
  };
  // per wallet: one delivery chain sized by the count; the big one splits into three parts on its first read
  type Delivery = { wallet: WalletRow; part: number | null };
  const deliveries: WalletStream<Delivery> = {
    name: 'webhook-deliveries',
    stage: 'wallet',
    slices: async (_ctx, scope, w) => ({ slices: [{ slice: { wallet: w, part: null }, size: scope.counts.get(w.wallet_id)?.totalCount ?? 0 }] }),
    read: async (_ctx, scope, { wallet: w, part }) => {
      log.push(`deliveries:${w.wallet_id}${part === null ? '' : `#${part}`}`);
      if (part === null && (scope.counts.get(w.wallet_id)?.totalCount ?? 0) > scope.maxChainItems) {
        return {
          progress: [],
          split: {
            slices: [1, 2, 3].map((p) => ({ slice: { wallet: w, part: p }, size: scope.budgetPages })),
            finish: async () => {
              log.push(`finish:${w.wallet_id}`);
              return done(`deliveries:${w.wallet_id}`, 0);
            },
          },
        };
      }
      return { progress: [done(`deliveries:${w.wallet_id}${part === null ? '' : `:part-${part}`}`)] };
    },
  };
  // once a wallet's chains are done: a follow-up read, which reports an id the service did not know
  const followUp: WalletStream<WalletRow> = {
    name: 'redeliveries',
    stage: 'wallet-done',
    slices: async (_ctx, _scope, w) => ({ slices: [{ slice: w, size: Number.MAX_SAFE_INTEGER }] }),
    read: async (_ctx, _scope, w) => {
      log.push(`after:${w.wallet_id}`);
      return { progress: [done(`after:${w.wallet_id}`)], missingPaymentIds: [`gone-${w.wallet_id}`] };
    },
  };
  return [counts, deliveries, followUp];
}

describe('pull() schedules any stream through the one contract', () => {
  it('runs sizing first, then chains longest first, splits, finishes a split stream once, and each wallet’s follow-up after its chains', async () => {
    const log: string[] = [];
    const wallets = [wallet('w-a'), wallet('w-big'), wallet('w-c')];
    // one chain at a time: the order of the log is the scheduler's order
    const result = await pull(context(), plan(wallets, { width: 1, maxChainPages: 10 }), fakeStreams(log));

    expect(log).toEqual([
      'count:w-a',
      'count:w-big',
      'count:w-c',
      // the first chain queued takes the free slot at once; the others wait for it
      'deliveries:w-a',
      // a ready wallet's follow-up goes before any chain still waiting
      'after:w-a',
      // then the largest estimate first (500 before 5)
      'deliveries:w-big',
      // its parts (size = the budget, 10 pages) outrank the small chain (5); the stream finishes after its last part
      'deliveries:w-big#1',
      'deliveries:w-big#2',
      'deliveries:w-big#3',
      'finish:w-big',
      'after:w-big',
      'deliveries:w-c',
      'after:w-c',
    ]);
    expect(result.streams.map((s) => s.stream)).toEqual([...result.streams.map((s) => s.stream)].sort());
    expect(result.streams.map((s) => s.stream)).toContain('deliveries:w-big');
    expect(result.streams.filter((s) => s.stream.startsWith('deliveries:w-big:part-'))).toHaveLength(3);
    expect(result.missingPaymentIds).toEqual(['gone-w-a', 'gone-w-big', 'gone-w-c']);
  });

  it('derives the pool from --concurrency: twice as many chains open as requests in flight', async () => {
    let running = 0;
    let peak = 0;
    const gate: WalletStream<WalletRow> = {
      name: 'gate',
      stage: 'wallet',
      slices: async (_ctx, _scope, w) => ({ slices: [{ slice: w, size: 1 }] }),
      read: async (_ctx, _scope, w) => {
        peak = Math.max(peak, ++running);
        await new Promise((resolve) => setImmediate(resolve));
        running--;
        return { progress: [done(w.wallet_id)] };
      },
    };
    const wallets = Array.from({ length: 20 }, (_v, i) => wallet(`w${String(i).padStart(2, '0')}`));
    const result = await pull(context(), plan(wallets, { concurrency: 3 }), [gate]);
    expect(peak).toBe(6);
    expect(result.streams).toHaveLength(20);
  });

  it('in report order: each wallet’s chains and follow-up before the next wallet’s, sizing announced first, each wallet complete once its follow-up is done', async () => {
    const log: string[] = [];
    const wallets = [wallet('w-a'), wallet('w-big'), wallet('w-c')];
    const result = await pull(
      context(),
      plan(wallets, {
        width: 1,
        maxChainPages: 10,
        inOrder: true,
        onSized: () => log.push('SIZED'),
        onWalletComplete: (w) => log.push(`COMPLETE:${w.wallet_id}`),
      }),
      fakeStreams(log),
    );
    expect(log).toEqual([
      'count:w-a',
      'count:w-big',
      'count:w-c',
      'SIZED',
      'deliveries:w-a',
      'after:w-a',
      'COMPLETE:w-a',
      // the largest no longer goes first: the report's order does
      'deliveries:w-big',
      'deliveries:w-big#1',
      'deliveries:w-big#2',
      'deliveries:w-big#3',
      'finish:w-big',
      'after:w-big',
      'COMPLETE:w-big',
      'deliveries:w-c',
      'after:w-c',
      'COMPLETE:w-c',
    ]);
    expect(result.missingPaymentIds).toEqual(['gone-w-a', 'gone-w-big', 'gone-w-c']);
  });

  it('a wallet with no chains and no follow-up is complete at once; every wallet exactly once with many chains open', async () => {
    const complete: string[] = [];
    const slow: WalletStream<WalletRow> = {
      name: 'slow',
      stage: 'wallet',
      slices: async (_ctx, _scope, w) => ({ slices: w.wallet_id === 'w-empty' ? [] : [{ slice: w, size: 1 }] }),
      read: async (_ctx, _scope, w) => {
        // later wallets answer sooner: completion order is not the queue's order
        await new Promise((resolve) => setTimeout(resolve, 30 - Number(w.wallet_id.slice(1)) * 3));
        return { progress: [done(w.wallet_id)] };
      },
    };
    const wallets = [wallet('w-empty'), ...Array.from({ length: 8 }, (_v, i) => wallet(`w${i}`))];
    await pull(context(), plan(wallets, { width: 4, inOrder: true, onWalletComplete: (w) => complete.push(w.wallet_id) }), [slow]);
    expect(complete[0]).toBe('w-empty');
    expect([...complete].sort()).toEqual(wallets.map((w) => w.wallet_id).sort());
  });
});
