/**
 * The safety net beside the deliveries: the service's own advice for completeness (a repeated
 * sweep of the environment's payments, cursor pagination, `created_at DESC`, no status filter,
 * upsert by id), down to a look-back. A delivery that never came, or came while the listener was
 * down, is healed by the next sweep. Never `updated_at` as a watermark: the service does not
 * promise one. Each sweep is a run of its own (runs table, command `sweep`) and takes the
 * nightly job's run lock, so it never writes beside a nightly run; when the lock is held it is
 * skipped, and the nightly run does the same work.
 */
import { listWallets, paymentPages } from '../api/endpoints.js';
import type { ApiReader } from '../api/endpoints.js';
import { normalizePayment } from '../normalize/payment.js';
import type { PaymentRow } from '../model/rows.js';
import type { Db } from '../store/db/db.js';
import { loadRows } from '../store/sql/load-rows.js';
import { acquireRunLock } from '../store/sql/run-lock.js';
import { finishRun, insertRun } from '../store/sql/runs.js';
import type { StoreSchema } from '../store/db/schema.js';
import { PAYMENT_HISTORY } from '../store/snapshot-writer.js';
import { PAYMENTS } from '../store/sql/tables.js';
import { escapeText } from '../store/encoding/text-escape.js';
import { AppError } from '../util/errors.js';
import { toUtcInstant } from '../model/instant.js';

export interface SweepDeps {
  db: Db;
  schema: StoreSchema;
  organizationId: string;
  /** configured environments; empty = every environment that holds a wallet */
  environmentIds: readonly string[];
  apiFor(environmentId: string | undefined): ApiReader;
  pageSize: number;
  lookbackMs: number;
  /** the job whose run lock the sweep shares */
  lockJob: string;
  now(): Date;
  newRunId(): string;
  signal?: AbortSignal;
}

export type SweepResult = { outcome: 'done'; runId: string; payments: number; inserted: number; updated: number } | { outcome: 'skipped_locked' };

async function environmentsOf(deps: SweepDeps): Promise<string[]> {
  if (deps.environmentIds.length > 0) return [...deps.environmentIds];
  const wallets = await listWallets(deps.apiFor(undefined), { organizationId: deps.organizationId });
  return [...new Set(wallets.map((w) => String((w as { environment_id?: unknown }).environment_id ?? '')).filter((id) => id !== ''))].sort();
}

export async function runSweep(deps: SweepDeps): Promise<SweepResult> {
  let lock;
  try {
    lock = await acquireRunLock(deps.db, deps.schema, deps.organizationId, deps.lockJob);
  } catch (error) {
    if (error instanceof AppError && error.type === 'lock_held') return { outcome: 'skipped_locked' };
    throw error;
  }
  const runId = deps.newRunId();
  const started = deps.now();
  const cutoff = toUtcInstant(new Date(started.getTime() - deps.lookbackMs).toISOString()) ?? '';
  const totals = { payments: 0, inserted: 0, updated: 0 };
  try {
    await insertRun(deps.db, deps.schema, {
      run_id: runId,
      run_key: `sweep:${runId}`,
      command: 'sweep',
      organization_id: deps.organizationId,
      window: null,
      parameters: { lookback_ms: deps.lookbackMs, environments: deps.environmentIds },
      started_at: toUtcInstant(started.toISOString()) ?? '',
    });
    let status: 'succeeded' | 'failed' = 'failed';
    try {
      for (const environmentId of await environmentsOf(deps)) {
        for await (const page of paymentPages(deps.apiFor(environmentId), { organizationId: deps.organizationId, environmentId, limit: deps.pageSize })) {
          deps.signal?.throwIfAborted();
          const rows: PaymentRow[] = page.items.map((raw) => normalizePayment(raw, { organization_id: deps.organizationId, environment_id: environmentId }));
          const inWindow = rows.filter((row) => row.created_at >= cutoff);
          if (inWindow.length > 0) {
            const stats = await deps.db.transaction((tx) => loadRows(tx, deps.schema, PAYMENTS, inWindow, { runId: escapeText(runId), viaStaging: true, history: PAYMENT_HISTORY }));
            totals.payments += inWindow.length;
            totals.inserted += stats.inserted;
            totals.updated += stats.updated;
          }
          // created_at DESC: once a page reaches below the look-back, every later page is older still.
          if (inWindow.length < rows.length) break;
        }
      }
      status = 'succeeded';
      return { outcome: 'done', runId, ...totals };
    } finally {
      await deps.db.transaction((tx) => finishRun(tx, deps.schema, runId, status, totals)).catch(() => undefined);
    }
  } finally {
    await lock.release();
  }
}
