/**
 * `payexport listen` as an object: the HTTP receiver, the inbox worker and the sweep timer over
 * one Postgres database, with a graceful stop (SIGTERM in the CLI): stop accepting, finish the
 * requests in hand (each is stored and answered), let the worker finish its batch and the sweep
 * its page, record the listener's run, close. Deliveries still in the inbox are not lost: the
 * next start drains them.
 */
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { getPayment } from '../api/endpoints.js';
import { ApiError } from '../api/errors.js';
import type { ListenConfig } from '../config/listen-schema.js';
import { finishRun, insertRun } from '../store/sql/runs.js';
import { toUtcInstant } from '../model/instant.js';
import type { Logger } from '../util/log.js';
import type { ApplyDeps } from './apply-deliveries.js';
import { createReceiver } from './http-receiver.js';
import { inboxDepth, inboxFacts, insertDelivery } from './inbox.js';
import { startInboxWorker } from './inbox-worker.js';
import { createMetrics, renderMetrics, type ListenerMetrics } from './metrics.js';
import type { SweepDeps } from './sweep.js';
import { scheduleSweeps } from './sweep-schedule.js';
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

export async function startListener(options: ListenerOptions): Promise<Listener> {
  const { db, schema, config, log } = options;
  const now = options.now ?? (() => new Date());
  const metrics = createMetrics(now().getTime());
  const stopping = new AbortController();
  await insertRun(db, schema, {
    run_id: options.runId,
    run_key: `listen:${options.runId}`,
    command: 'listen',
    organization_id: options.organizationId,
    window: null,
    parameters: { path: config.path, tolerance_seconds: config.toleranceSeconds, sweep_minutes: config.sweepMinutes, sweep_lookback_hours: config.sweepLookbackHours },
    started_at: toUtcInstant(now().toISOString()) ?? '',
  });
  const worker = startInboxWorker({ apply: applyDepsOf(options), metrics, log, pollMs: options.pollMs ?? 1_000, stopping: stopping.signal });
  const { environmentIds, organizationId, apiFor, pageSize, newRunId } = options;
  const sweeps = scheduleSweeps({ sweep: { db, schema, organizationId, environmentIds, apiFor, pageSize, newRunId }, config, metrics, log, now, stopping: stopping.signal });
  const server = createReceiver({
    path: config.path,
    maxBodyBytes: config.maxBodyBytes,
    toleranceSeconds: config.toleranceSeconds,
    secretsFor: (id) => options.secrets.secretsFor(id),
    async store(delivery) {
      const fresh = await insertDelivery(db, schema, delivery, inboxFacts(delivery));
      worker.wake();
      return fresh;
    },
    ready: () => (stopping.signal.aborted ? Promise.resolve(false) : db.query('SELECT 1').then(() => true, () => false)),
    async metricsText() {
      const depth = await inboxDepth(db, schema).catch(() => ({ pending: -1, oldestSeconds: -1 }));
      return renderMetrics(metrics, { inboxPending: depth.pending, inboxOldestSeconds: depth.oldestSeconds, nowMs: now().getTime() });
    },
    metrics,
    log,
    nowSeconds: () => Math.floor(now().getTime() / 1000),
  });
  const port = await listenOn(server, config.port, config.host);
  log.info({ port, path: config.path, registrations: options.secrets.registrations, sweep_minutes: config.sweepMinutes }, 'listening for webhook deliveries');
  if (config.sweepMinutes > 0) void sweeps.sweepNow();

  let stopped: Promise<void> | null = null;
  return {
    port,
    metrics,
    sweepNow: sweeps.sweepNow,
    drained: worker.drained,
    stop() {
      stopped ??= (async () => {
        void sweeps.stop(); // no sweep starts from here on
        // Stop accepting; requests in hand finish (stored and answered) before close's callback.
        const closed = new Promise<void>((resolve) => server.close(() => resolve()));
        server.closeIdleConnections();
        await closed;
        stopping.abort();
        await worker.done;
        await sweeps.stop();
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

/** How the worker applies deliveries: a payment the service does not know (404) is null, not an error. */
function applyDepsOf(options: ListenerOptions): ApplyDeps {
  const { organizationId } = options;
  return {
    db: options.db,
    schema: options.schema,
    organizationId,
    defaultEnvironmentId: options.environmentIds.length === 1 ? (options.environmentIds[0] ?? null) : null,
    async fetchPayment(environmentId, paymentId) {
      try {
        return await getPayment(options.apiFor(environmentId), { organizationId, environmentId, paymentId, justCreated: true });
      } catch (error) {
        if (error instanceof ApiError && error.status === 404) return null;
        throw error;
      }
    },
    runId: options.runId,
    batchSize: options.config.batchSize,
  };
}

async function listenOn(server: Server, port: number, host: string): Promise<number> {
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  return (server.address() as AddressInfo).port;
}
