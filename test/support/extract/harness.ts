/**
 * The extraction layer against the simulator, in-process: a real ApiClient (tiny recorded backoffs,
 * a planted key, a memory logger at trace level), discovery, and a writer that records every page
 * so tests can prove "no row missing, none doubled" against `sim.dataset`.
 */
import pLimit from 'p-limit';
import { ApiClient, type ApiClientOptions } from '../../../src/api/client.js';
import { PageSize } from '../../../src/api/page-size.js';
import type { ExtractContext, StreamProgress } from '../../../src/extract/context.js';
import { pull, type PullResult } from '../../../src/extract/pull.js';
import type { PullPlan } from '../../../src/extract/pull-plan.js';
import { discover, type Discovery } from '../../../src/extract/wallets.js';
import { bindNormalizers } from '../../../src/jobs/normalizers.js';
import type { AssetRow, BillRecord, BillSummaryRow, LedgerRow, PaymentRow, SummaryBucketRow, WalletRow } from '../../../src/model/rows.js';
import type { Checkpoint, RunInfo, SnapshotWriter, WriteStats } from '../../../src/model/ports.js';
import type { Window } from '../../../src/model/window.js';
import { windowContains } from '../../../src/model/window.js';
import { startSimulator, type SimHandle, type SimulatorOptions } from '../../../src/sim/start-simulator.js';
import { createMemoryLogger, type MemoryLogger } from '../../../src/util/log.js';
import { SecretScrubber } from '../../../src/util/secret-scrubber.js';
import { minusOneMicrosecond } from '../../../src/api/date-bounds.js';

/** A key that must never appear in any log line (the simulator is started with it). */
export const PLANTED_KEY = 'vltg_PLANTED_7c1e9b2a4d6f48e0a3b5c7d9e1f30a2b';

/** October 2026, the simulator's full month. */
export const OCTOBER: Window = { from: '2026-10-01T00:00:00.000000Z', to: '2026-11-01T00:00:00.000000Z', tz: 'UTC' };

export async function startSim(options: SimulatorOptions = {}): Promise<SimHandle> {
  return startSimulator({ seed: 31, scale: 3_000, wallets: 8, environments: ['production'], apiKeys: [PLANTED_KEY], timing: { stepMs: 3_600_000, readableAfterMs: 0 }, ...options });
}

/** Every page the pull wrote, in order, plus the latest row per key. */
export class RecordingWriter implements SnapshotWriter {
  readonly paymentWrites: Array<{ rows: readonly PaymentRow[]; checkpoint: Checkpoint }> = [];
  readonly ledgerWrites: Array<{ rows: readonly LedgerRow[]; checkpoint: Checkpoint }> = [];
  readonly summaries: SummaryBucketRow[] = [];
  readonly payments = new Map<string, PaymentRow>();
  readonly ledger = new Map<string, LedgerRow>();
  readonly checkpoints = new Map<string, Checkpoint>();
  readonly bills = new Map<string, BillRecord>();
  readonly billSummaries: BillSummaryRow[] = [];

  async beginRun(_run: RunInfo): Promise<Checkpoint[]> {
    return [];
  }
  async upsertWallets(rows: readonly WalletRow[]): Promise<WriteStats> {
    return { inserted: rows.length, updated: 0, unchanged: 0 };
  }
  async upsertAssets(rows: readonly AssetRow[]): Promise<WriteStats> {
    return { inserted: rows.length, updated: 0, unchanged: 0 };
  }
  async writePaymentsPage(rows: readonly PaymentRow[], checkpoint: Checkpoint): Promise<WriteStats> {
    this.paymentWrites.push({ rows, checkpoint });
    for (const row of rows) this.payments.set(row.payment_id, row);
    this.checkpoints.set(checkpoint.stream, checkpoint);
    return { inserted: rows.length, updated: 0, unchanged: 0 };
  }
  async writeBillsPage(records: readonly BillRecord[], checkpoint: Checkpoint): Promise<WriteStats> {
    for (const record of records) this.bills.set(record.bill.bill_id, record);
    this.checkpoints.set(checkpoint.stream, checkpoint);
    return { inserted: records.length, updated: 0, unchanged: 0 };
  }
  async writeBillSummary(_runId: string, row: BillSummaryRow, checkpoint: Checkpoint): Promise<void> {
    this.billSummaries.push(row);
    this.checkpoints.set(checkpoint.stream, checkpoint);
  }
  async writeLedgerPage(rows: readonly LedgerRow[], checkpoint: Checkpoint): Promise<WriteStats> {
    this.ledgerWrites.push({ rows, checkpoint });
    for (const row of rows) this.ledger.set(`${row.entry_type}:${row.entry_id}`, row);
    this.checkpoints.set(checkpoint.stream, checkpoint);
    return { inserted: rows.length, updated: 0, unchanged: 0 };
  }
  async writeSummaries(_runId: string, rows: readonly SummaryBucketRow[], checkpoint: Checkpoint): Promise<void> {
    this.summaries.push(...rows);
    this.checkpoints.set(checkpoint.stream, checkpoint);
  }
  async writeFindings(): Promise<void> {}
  async finishRun(): Promise<void> {}

  /** How often each payment id was written by the sweeps (a sweep writes each once; by-id reads excluded). */
  paymentWriteCounts(): Map<string, number> {
    const counts = new Map<string, number>();
    for (const { rows, checkpoint } of this.paymentWrites) {
      // a wallet's sweep, or its environment's read whole
      if (!checkpoint.stream.startsWith('payments:wallet:') && !checkpoint.stream.startsWith('payments:env:')) continue;
      for (const row of rows) counts.set(row.payment_id, (counts.get(row.payment_id) ?? 0) + 1);
    }
    return counts;
  }

  /** Payment ids the sweeps wrote (not the reads by id), sorted. */
  sweptPaymentIds(): string[] {
    return [...this.paymentWriteCounts().keys()].sort();
  }

  /** Ledger entries of the window that name a payment this writer never received. */
  orphans(walletId: string, window: Window): string[] {
    const ids = new Set<string>();
    for (const row of this.ledger.values()) {
      if (row.wallet_id === walletId && row.payment_id !== null && windowContains(window, row.effective_time) && !this.payments.has(row.payment_id)) ids.add(row.payment_id);
    }
    return [...ids].sort();
  }
}

export interface PullHarness {
  sim: SimHandle;
  api: ApiClient;
  memory: MemoryLogger;
  writer: RecordingWriter;
  discovery: Discovery;
  /** every backoff the client asked for, ms (the sleep itself is 1 ms) */
  sleeps: number[];
  ctx: ExtractContext;
  run(plan?: Partial<PullPlan>): Promise<PullResult>;
  close(): Promise<void>;
}

export interface HarnessOptions {
  concurrency?: number;
  pageSize?: number;
  window?: Window;
  client?: Partial<ApiClientOptions>;
  /** a writer of the test's own (default: a RecordingWriter) */
  writer?: RecordingWriter;
  /** the chains share one negotiated page size per list, as the job's do (api/page-size.ts) */
  negotiate?: boolean;
}

/** Discovery + a context + `run()` = pull(), against a running simulator. */
export async function pullHarness(sim: SimHandle, options: HarnessOptions = {}): Promise<PullHarness> {
  const scrubber = new SecretScrubber();
  const memory = createMemoryLogger({ scrubber, level: 'trace' });
  const sleeps: number[] = [];
  const api = new ApiClient({
    baseUrl: sim.baseUrl,
    auth: { kind: 'apiKey', apiKey: sim.environments[0]!.apiKey },
    limiter: pLimit(options.concurrency ?? 4),
    log: memory.log,
    scrubber,
    timeoutMs: 5_000,
    sleep: (ms) => {
      sleeps.push(ms);
      return new Promise((resolve) => setTimeout(resolve, 1));
    },
    ...options.client,
  });
  const normalize = bindNormalizers(sim.organizationId);
  const discovery = await discover({ organizationId: sim.organizationId, readers: [{ environmentId: sim.environments[0]!.id, api }], environmentIds: [], walletIds: [], shard: undefined, normalize });
  const writer = options.writer ?? new RecordingWriter();
  const window = options.window ?? OCTOBER;
  const ctx: ExtractContext = {
    organizationId: sim.organizationId,
    apiFor: () => api,
    writer,
    normalize,
    log: memory.log,
    runKey: 'test-run-key',
    runId: 'test-run',
    resume: new Map(),
    pageSize: options.pageSize ?? 50,
    ...(options.negotiate === true ? { pageSizes: { payments: new PageSize(options.pageSize ?? 50), ledger: new PageSize(options.pageSize ?? 50) } } : {}),
  };
  return {
    sim,
    api,
    memory,
    writer,
    discovery,
    sleeps,
    ctx,
    run: (plan = {}) =>
      pull(ctx, {
        wallets: discovery.wallets,
        summaryEnvironments: discovery.environments,
        window,
        paymentWindow: window,
        ledgerStart: async () => null,
        orphanPaymentIds: async (wallet) => writer.orphans(wallet.wallet_id, window),
        concurrency: options.concurrency ?? 4,
        ...plan,
      }),
    close: () => api.close(),
  };
}

/** Ground truth: payment ids created in the window (every wallet of the simulator's environment 0). */
export function expectedPaymentIds(sim: SimHandle, window: Window, walletId?: string): string[] {
  return sim.dataset
    .paymentIds({ environmentId: sim.environments[0]!.id, from: window.from, to: minusOneMicrosecond(window.to), ...(walletId ? { walletId } : {}) })
    .sort();
}

/** Ground truth: every ledger entry key of a wallet (whole history). */
export function expectedLedgerKeys(sim: SimHandle, walletId: string): string[] {
  return sim.dataset
    .ledgerEntries(walletId)
    .map((e) => `${e.entryType}:${e.entryId}`)
    .sort();
}

/** Query pairs of a logged request, without the paging ones. */
export function filterPairs(query: string): Array<[string, string]> {
  return [...new URLSearchParams(query).entries()].filter(([k]) => !['pagination', 'cursor', 'offset'].includes(k));
}

export function streamsOf(result: PullResult, prefix: string): StreamProgress[] {
  return result.streams.filter((s) => s.stream.startsWith(prefix));
}
