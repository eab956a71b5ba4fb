/**
 * The snapshot in a database (a Postgres server, or the embedded engine): the model/ports.ts
 * `Snapshot` over one Db and one schema, plus the reads only a database can answer (checkpoints,
 * the closed-period record, open payments, payment history) and the migrations. Jobs open it
 * through snapshot.ts; the listener, `db migrate` and the notification record hold it directly.
 */
import type { JournalExports } from '../model/journal-record.js';
import type { LotsRecord } from '../model/lots-record.js';
import { minusDays } from '../model/period.js';
import type { Checkpoint, Snapshot } from '../model/ports.js';
import type { Db } from './db/db.js';
import { migrate, type MigrateResult } from './db/migrate.js';
import { openDb, type OpenDbOptions } from './db/open-db.js';
import { DEFAULT_SCHEMA, storeSchema, type StoreSchema } from './db/schema.js';
import { createReportSource, type ReportSourceOptions } from './report-source.js';
import { createSnapshotWriter, type PostgresSnapshotWriter, type SnapshotWriterOptions } from './snapshot-writer.js';
import { loadCheckpoints } from './sql/checkpoints.js';
import { createJournalExports } from './sql/journal-exports.js';
import { createLotsRecord } from './sql/lots-record.js';
import { ledgerHighWater, orphanLedgerPaymentIds } from './sql/ledger-queries.js';
import { listPaymentHistory, openPayments, type OpenPayment, type OpenPaymentsFilter, type PaymentHistoryFilter, type PaymentHistoryRow } from './sql/payment-queries.js';
import { closePeriod, getClosedPeriod, isPeriodClosed, type ClosedPeriod } from './sql/periods.js';
import { acquireRunLock } from './sql/run-lock.js';

export interface DatabaseSnapshot extends Snapshot {
  readonly kind: 'postgres' | 'embedded';
  readonly db: Db;
  readonly schema: StoreSchema;
  /** a writer for one run (call beginRun first) */
  writer(options?: SnapshotWriterOptions): PostgresSnapshotWriter;
  readonly journalExports: JournalExports;
  readonly lotsRecord: LotsRecord;
  loadCheckpoints(runKey: string): Promise<Checkpoint[]>;
  getClosedPeriod(organizationId: string, period: string): Promise<ClosedPeriod | null>;
  openPayments(organizationId: string, filter?: OpenPaymentsFilter): Promise<OpenPayment[]>;
  paymentHistory(filter: PaymentHistoryFilter): Promise<PaymentHistoryRow[]>;
  migrate(): Promise<MigrateResult>;
}

export interface DatabaseSnapshotOptions extends ReportSourceOptions {
  /** schema name, default `payexport` */
  schema?: string;
  /** where it lives, safe to print; default the Db's own `target` */
  target?: string;
}

/** The snapshot over an open Db (the caller owns the Db's lifetime unless it calls `close`). */
export function databaseSnapshot(db: Db, options: DatabaseSnapshotOptions = {}): DatabaseSnapshot {
  const schema = storeSchema(options.schema ?? DEFAULT_SCHEMA);
  return {
    kind: db.engine === 'postgres' ? 'postgres' : 'embedded',
    target: options.target ?? db.target,
    db,
    schema,
    writer: (options) => createSnapshotWriter(db, schema, options),
    source: createReportSource(db, schema, { packRows: db.engine === 'pglite', ...options }),
    lock: (organizationId, job) => acquireRunLock(db, schema, organizationId, job),
    async ledgerStart(organizationId, wallet, lookbackDays) {
      const high = await ledgerHighWater(db, schema, organizationId, wallet.wallet_id);
      // Re-read the look-back: late-arriving entries with older effective times are caught, and upserts absorb the overlap.
      return high === null ? null : minusDays(high, lookbackDays);
    },
    orphanPaymentIds: (organizationId, wallet, window) => orphanLedgerPaymentIds(db, schema, organizationId, wallet.wallet_id, window),
    async openPaymentIds(organizationId, wallet) {
      return (await openPayments(db, schema, organizationId, { wallet_ids: [wallet.wallet_id] })).map((p) => p.payment_id);
    },
    isPeriodClosed: (organizationId, period) => isPeriodClosed(db, schema, organizationId, period),
    closePeriod: (input) => closePeriod(db, schema, input),
    journalExports: createJournalExports(db, schema),
    lotsRecord: createLotsRecord(db, schema),
    loadCheckpoints: (runKey) => loadCheckpoints(db, schema, runKey),
    getClosedPeriod: (organizationId, period) => getClosedPeriod(db, schema, organizationId, period),
    openPayments: (organizationId, filter) => openPayments(db, schema, organizationId, filter),
    paymentHistory: (filter) => listPaymentHistory(db, schema, filter),
    migrate: () => migrate(db, schema),
    close: () => db.close(),
  };
}

/** Opens the configured database (or the embedded one), applies pending migrations, returns the snapshot. */
export async function openDatabaseSnapshot(options: OpenDbOptions & DatabaseSnapshotOptions): Promise<DatabaseSnapshot> {
  const db = await openDb(options);
  try {
    const snapshot = databaseSnapshot(db, options);
    await snapshot.migrate();
    return snapshot;
  } catch (error) {
    await db.close().catch(() => undefined);
    throw error;
  }
}
