import { loadCheckpoints } from './sql/checkpoints.js';
import { ledgerHighWater, orphanLedgerPaymentIds } from './sql/ledger-queries.js';
import type { Db } from './db/db.js';
import { migrate, type MigrateResult } from './db/migrate.js';
import { openDb, type OpenDbOptions } from './db/open-db.js';
import { listPaymentHistory, openPayments, type OpenPayment, type OpenPaymentsFilter, type PaymentHistoryFilter, type PaymentHistoryRow } from './sql/payment-queries.js';
import { closePeriod, getClosedPeriod, isPeriodClosed, type ClosedPeriod, type ClosePeriodInput } from './sql/periods.js';
import type { Checkpoint, ReportSource, RunStatus } from '../model/ports.js';
import type { Window } from '../model/window.js';
import { createReportSource, type ReportSourceOptions } from './report-source.js';
import { acquireRunLock, type RunLock } from './sql/run-lock.js';
import { finishRun } from './sql/runs.js';
import { DEFAULT_SCHEMA, storeSchema, type StoreSchema } from './db/schema.js';
import { createSnapshotWriter, type PostgresSnapshotWriter } from './snapshot-writer.js';

/**
 * The snapshot as jobs see it: one object over a Db and a schema, bundling the model/ports.ts seams
 * with the run lock, checkpoints, closed periods and the open-payments / history queries.
 */
export interface Store {
  readonly db: Db;
  readonly schema: StoreSchema;
  /** a writer for one run (call beginRun first) */
  writer(): PostgresSnapshotWriter;
  readonly source: ReportSource;
  acquireRunLock(organizationId: string, job: string): Promise<RunLock>;
  loadCheckpoints(runKey: string): Promise<Checkpoint[]>;
  finishRun(runId: string, status: RunStatus, counts: Record<string, number>): Promise<void>;
  closePeriod(input: ClosePeriodInput): Promise<boolean>;
  isPeriodClosed(organizationId: string, period: string): Promise<boolean>;
  getClosedPeriod(organizationId: string, period: string): Promise<ClosedPeriod | null>;
  openPayments(organizationId: string, filter?: OpenPaymentsFilter): Promise<OpenPayment[]>;
  paymentHistory(filter: PaymentHistoryFilter): Promise<PaymentHistoryRow[]>;
  /** newest stored ledger effective_time of a wallet (incremental ledger reads) */
  ledgerHighWater(organizationId: string, walletId: string): Promise<string | null>;
  /** payment ids the wallet's in-window ledger names but the snapshot lacks */
  orphanPaymentIds(organizationId: string, walletId: string, window: Window): Promise<string[]>;
  migrate(): Promise<MigrateResult>;
  close(): Promise<void>;
}

export interface StoreOptions extends ReportSourceOptions {
  /** schema name, default `payexport` */
  schema?: string;
}

/** A Store over an open Db (the caller owns the Db's lifetime unless it calls `close`). */
export function createStore(db: Db, options: StoreOptions = {}): Store {
  const schema = storeSchema(options.schema ?? DEFAULT_SCHEMA);
  return {
    db,
    schema,
    writer: () => createSnapshotWriter(db, schema),
    source: createReportSource(db, schema, options),
    acquireRunLock: (organizationId, job) => acquireRunLock(db, schema, organizationId, job),
    loadCheckpoints: (runKey) => loadCheckpoints(db, schema, runKey),
    finishRun: (runId, status, counts) => db.transaction((tx) => finishRun(tx, schema, runId, status, counts)),
    closePeriod: (input) => closePeriod(db, schema, input),
    isPeriodClosed: (organizationId, period) => isPeriodClosed(db, schema, organizationId, period),
    getClosedPeriod: (organizationId, period) => getClosedPeriod(db, schema, organizationId, period),
    openPayments: (organizationId, filter) => openPayments(db, schema, organizationId, filter),
    paymentHistory: (filter) => listPaymentHistory(db, schema, filter),
    ledgerHighWater: (organizationId, walletId) => ledgerHighWater(db, schema, organizationId, walletId),
    orphanPaymentIds: (organizationId, walletId, window) => orphanLedgerPaymentIds(db, schema, organizationId, walletId, window),
    migrate: () => migrate(db, schema),
    close: () => db.close(),
  };
}

/** Opens the configured database (or the embedded one), applies pending migrations, returns the Store. */
export async function openStore(options: OpenDbOptions & StoreOptions): Promise<Store> {
  const db = await openDb(options);
  try {
    const store = createStore(db, options);
    await store.migrate();
    return store;
  } catch (error) {
    await db.close().catch(() => undefined);
    throw error;
  }
}
