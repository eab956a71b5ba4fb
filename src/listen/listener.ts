/**
 * `payexport listen` as an object: the HTTP receiver, the inbox worker and the sweep timer over
 * one Postgres database, with a graceful stop (SIGTERM in the CLI): stop accepting, finish the
 * requests in hand (each is stored and answered), let the worker finish its batch and the sweep
 * its page, record the listener's run, close. Deliveries still in the inbox are not lost: the
 * next start drains them.
 */
import type { AddressInfo } from 'node:net';
import { getPayment } from '../api/endpoints.js';
import { ApiError } from '../api/errors.js';
import type { ListenConfig } from '../config/listen-schema.js';
import { finishRun, insertRun } from '../store/sql/runs.js';
import { toUtcInstant } from '../model/instant.js';
import type { Logger } from '../util/log.js';
import { applyDeliveries } from './apply-deliveries.js';
import { createReceiver } from './http-receiver.js';
import { inboxDepth, inboxFacts, insertDelivery } from './inbox.js';
import { count, createMetrics, renderMetrics, type ListenerMetrics } from './metrics.js';
import { runSweep, type SweepDeps } from './sweep.js';
import type { WebhookSecretSource } from './webhook-secrets.js';

/** The listener reaches the snapshot and the API exactly as its sweep does (see SweepDeps). */
export interface ListenerOptions extends Pick<SweepDeps, 'db' | 'schema' | 'organizationId' | 'environmentIds' | 'apiFor' | 'pageSize' | 'newRunId'> {
  config: ListenConfig;
  secrets: WebhookSecretSource;
  log: Logger;
  runId: string;
  now?: () => Date;
  /** how often the worker looks at the inbox when nothing woke it, ms (default 1000) */
  pollMs?: number;
}

export interface Listener {
  readonly port: number;
  readonly metrics: ListenerMetrics;
  /** runs one sweep now (tests, and the first sweep at start) */
  sweepNow(): Promise<void>;
  /** resolves when the inbox has nothing due (tests) */
  drained(): Promise<void>;
  stop(): Promise<void>;
}

/** Waits `ms`, or less when `signal` aborts or `wakeUp` is called; leaves no listener behind. */
function pause(ms: number, signal: AbortSignal, onWake?: (wakeUp: () => void) => void): Promise<void> {
  return new Promise((resolve) => {
    const done = (): void => {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal.addEventListener('abort', done, { once: true });
    onWake?.(done);
  });
}

export async function startListener(options: ListenerOptions): Promise<Listener> {
  const { db, schema, config, log } = options;
  const now = options.now ?? (() => new Date());
  const metrics = createMetrics(now().getTime());
  const stopping = new AbortController();
  let wake: (() => void) | null = null;
  // drained(): a waiter is answered by the first empty pass that STARTED after it asked, so a pass
  // already running when a delivery was committed cannot answer for it.
  let passes = 0;
  let idleWaiters: Array<{ after: number; resolve: () => void }> = [];

  await insertRun(db, schema, {
    run_id: options.runId,
    run_key: `listen:${options.runId}`,
    command: 'listen',
    organization_id: options.organizationId,
    window: null,
    parameters: { path: config.path, tolerance_seconds: config.toleranceSeconds, sweep_minutes: config.sweepMinutes, sweep_lookback_hours: config.sweepLookbackHours },
    started_at: toUtcInstant(now().toISOString()) ?? '',
  });

  const fetchPayment = async (environmentId: string, paymentId: string): Promise<unknown> => {
    try {
      return await getPayment(options.apiFor(environmentId), { organizationId: options.organizationId, environmentId, paymentId, justCreated: true });
    } catch (error) {
      if (error instanceof ApiError && error.status === 404) return null;
      throw error;
    }
  };

  // ---- the worker: drain the inbox, wake on a new delivery, poll otherwise (other listeners' rows)
  const worker = (async () => {
    let failures = 0;
    while (!stopping.signal.aborted) {
      const pass = ++passes;
      try {
        const result = await applyDeliveries({ db, schema, organizationId: options.organizationId, defaultEnvironmentId: options.environmentIds.length === 1 ? (options.environmentIds[0] ?? null) : null, fetchPayment, runId: options.runId, batchSize: config.batchSize });
        failures = 0;
        for (const [outcome, n] of Object.entries(result.outcomes)) if (n > 0) count(metrics.applied, outcome, n);
        if (result.deferred > 0) count(metrics.applied, 'deferred', result.deferred);
        if (result.claimed > 0) continue;
      } catch (error) {
        metrics.workerErrors++;
        failures++;
        log.error({ error: error instanceof Error ? error.message : String(error), failures }, 'inbox batch failed; its deliveries stay in the inbox and are retried');
        await pause(Math.min(30_000, 500 * 2 ** Math.min(failures, 6)), stopping.signal);
        continue;
      }
      const answered = idleWaiters.filter((w) => w.after < pass);
      idleWaiters = idleWaiters.filter((w) => w.after >= pass);
      answered.forEach((w) => w.resolve());
      await pause(options.pollMs ?? 1_000, stopping.signal, (wakeUp) => (wake = wakeUp));
      wake = null;
    }
  })();

  // ---- the sweep: now, then every sweepMinutes; one at a time
  let sweeping: Promise<void> | null = null;
  const sweepOnce = async (): Promise<void> => {
    const startedMs = now().getTime();
    try {
      const result = await runSweep({
        db,
        schema,
        organizationId: options.organizationId,
        environmentIds: options.environmentIds,
        apiFor: options.apiFor,
        pageSize: options.pageSize,
        lookbackMs: config.sweepLookbackHours * 3_600_000,
        lockJob: config.sweepLockJob,
        now,
        newRunId: options.newRunId,
        signal: stopping.signal,
      });
      count(metrics.sweeps, result.outcome);
      if (result.outcome === 'done') {
        metrics.lastSweepAtMs = startedMs;
        metrics.sweepPayments += result.payments;
        log.info({ sweep_run: result.runId, payments: result.payments, inserted: result.inserted, updated: result.updated }, 'sweep finished');
      } else {
        log.info({ lock_job: config.sweepLockJob }, `sweep skipped: a ${config.sweepLockJob} run holds the lock`);
      }
    } catch (error) {
      if (stopping.signal.aborted) return;
      count(metrics.sweeps, 'failed');
      log.error({ error: error instanceof Error ? error.message : String(error) }, 'sweep failed; the next one retries');
    }
  };
  const sweepNow = (): Promise<void> => {
    sweeping ??= sweepOnce().finally(() => (sweeping = null));
    return sweeping;
  };
  const timer = config.sweepMinutes > 0 ? setInterval(() => void sweepNow(), config.sweepMinutes * 60_000) : null;

  // ---- the receiver
  const server = createReceiver({
    path: config.path,
    maxBodyBytes: config.maxBodyBytes,
    toleranceSeconds: config.toleranceSeconds,
    secretsFor: (id) => options.secrets.secretsFor(id),
    async store(delivery) {
      const fresh = await insertDelivery(db, schema, delivery, inboxFacts(delivery));
      wake?.();
      return fresh;
    },
    async ready() {
      if (stopping.signal.aborted) return false;
      try {
        await db.query('SELECT 1');
        return true;
      } catch {
        return false;
      }
    },
    async metricsText() {
      const depth = await inboxDepth(db, schema).catch(() => ({ pending: -1, oldestSeconds: -1 }));
      return renderMetrics(metrics, { inboxPending: depth.pending, inboxOldestSeconds: depth.oldestSeconds, nowMs: now().getTime() });
    },
    metrics,
    log,
    nowSeconds: () => Math.floor(now().getTime() / 1000),
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(config.port, config.host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const port = (server.address() as AddressInfo).port;
  log.info({ port, path: config.path, registrations: options.secrets.registrations, sweep_minutes: config.sweepMinutes }, 'listening for webhook deliveries');
  if (config.sweepMinutes > 0) void sweepNow();

  let stopped: Promise<void> | null = null;
  return {
    port,
    metrics,
    sweepNow,
    drained: () =>
      new Promise<void>((resolve) => {
        idleWaiters.push({ after: passes, resolve });
        wake?.();
      }),
    stop() {
      stopped ??= (async () => {
        if (timer) clearInterval(timer);
        // Stop accepting; requests in hand finish (stored and answered) before close's callback.
        const closed = new Promise<void>((resolve) => server.close(() => resolve()));
        server.closeIdleConnections();
        await closed;
        stopping.abort();
        await worker;
        await sweeping;
        const totals: Record<string, number> = {};
        for (const [k, v] of metrics.deliveries) totals[`deliveries_${k}`] = v;
        for (const [k, v] of metrics.applied) totals[`applied_${k}`] = v;
        await db.transaction((tx) => finishRun(tx, schema, options.runId, 'succeeded', totals)).catch(() => undefined);
        log.info(totals, 'listener stopped');
      })();
      return stopped;
    },
  };
}
