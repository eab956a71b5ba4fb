import { ASSET_COLUMNS, type AssetRow } from '../model/rows.js';
import type { LedgerQuery, ReportSource } from '../model/ports.js';
import type { Queryable } from './db/db.js';
import type { StoreSchema } from './db/schema.js';
import { decodeRow, selectList } from './encoding/columns.js';
import { ledgerBatches, paymentBatches, type BatchReading } from './report-batches.js';
import { newestBillSummaries, readBills } from './sql/bills.js';
import { knownPaymentIds } from './sql/payment-queries.js';
import { newestSummaries } from './sql/summary-buckets.js';
import { readWallets } from './sql/wallets.js';

/**
 * model/ports.ts `ReportSource` over the Postgres snapshot. Payments and ledger entries stream in
 * batches by keyset pagination on the report order (report-batches.ts); everything else is one
 * read of sql/. Rows read back are deep-equal to the rows written (test/integration/store).
 */
export interface ReportSourceOptions {
  /** rows per batch, default 1000 */
  batchRows?: number;
  /**
   * Payments and ledger entries come back as one JSON array per row (encoding/columns.ts
   * `packedSelect`) instead of one field per column: cheaper on the embedded engine, whose wire
   * parser and thread hand-off cost per field; on a server the columns are cheaper (default)
   */
  packRows?: boolean;
}

export function createReportSource(db: Queryable, schema: StoreSchema, options: ReportSourceOptions = {}): ReportSource {
  const reading: BatchReading = { batchRows: options.batchRows ?? 1000, pack: options.packRows === true };
  return {
    wallets: (organizationId, walletIds) => readWallets(db, schema, organizationId, walletIds),
    async assets(): Promise<AssetRow[]> {
      const { rows } = await db.query(`SELECT ${selectList('a', ASSET_COLUMNS)} FROM ${schema.table('assets')} a ORDER BY a.currency`);
      return rows.map((record) => decodeRow<AssetRow>(ASSET_COLUMNS, record));
    },
    summaries: (organizationId, window) => newestSummaries(db, schema, organizationId, window),
    payments: (query) => paymentBatches(db, schema, reading, query),
    ledger: (organizationId, walletId, options: LedgerQuery = {}) => ledgerBatches(db, schema, reading, organizationId, walletId, options),
    bills: (organizationId, window) => readBills(db, schema, organizationId, window),
    billSummaries: (organizationId, window) => newestBillSummaries(db, schema, organizationId, window),
    knownPaymentIds: (organizationId, paymentIds) => knownPaymentIds(db, schema, organizationId, paymentIds),
  };
}
