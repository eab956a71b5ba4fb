import {
  ASSET_COLUMNS,
  BILL_COLUMNS,
  BILL_LINE_ITEM_COLUMNS,
  BILL_SUMMARY_COLUMNS,
  LEDGER_COLUMNS,
  PAYMENT_COLUMNS,
  SUMMARY_BUCKET_COLUMNS,
  WALLET_COLUMNS,
  type AssetRow,
  type BillLineItemRow,
  type BillRecord,
  type BillRow,
  type BillSummaryRow,
  type LedgerRow,
  type PaymentRow,
  type SummaryBucketRow,
  type WalletBalanceRow,
  type WalletRow,
} from '../model/rows.js';
import { decodePackedRow, decodeRow, instantText, packedSelect, selectList, type ColumnMap } from './encoding/columns.js';
import type { Queryable } from './db/db.js';
import type { LedgerQuery, PaymentQuery, ReportSource } from '../model/ports.js';
import type { Window } from '../model/window.js';
import type { StoreSchema } from './db/schema.js';
import { STORED_BALANCE_COLUMNS, type StoredBalance, type StoredWallet } from './sql/tables.js';
import { summarySourceSql } from './sql/summary-source.js';
import { escapeText } from './encoding/text-escape.js';

/**
 * model/ports.ts `ReportSource` over the Postgres snapshot. Payments and ledger entries stream in
 * batches by keyset pagination on the report order, so memory stays flat however many rows a
 * wallet has, and no transaction is held open between batches (works alike on both engines).
 * Rows read back are deep-equal to the rows written (test/integration/store).
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

type PaymentRecord = Record<string, unknown> & { created_at: string; key_id: string; packed?: string };
type LedgerRecord = Record<string, unknown> & { effective_time: string; key_type: string; key_id: string; packed?: string };

/** Up to this many ids per `= ANY($1)` lookup. */
const ID_CHUNK = 10_000;

export function createReportSource(db: Queryable, schema: StoreSchema, options: ReportSourceOptions = {}): ReportSource {
  const batchRows = options.batchRows ?? 1000;

  const pack = options.packRows === true;
  /** A table's select list; packed rows carry their keyset time beside the array (unpacked rows have it among their columns). */
  const rowColumns = <R>(alias: string, map: ColumnMap<R>, time: string, withoutRaw: boolean | undefined): string => {
    const nulls = withoutRaw ? ['raw'] : [];
    return pack ? `${packedSelect(alias, map, nulls)}, ${instantText(`${alias}.${time}`)} AS ${time}` : selectList(alias, map, nulls);
  };
  const decoder =
    <R>(map: ColumnMap<R>) =>
    (record: Record<string, unknown> & { packed?: string }): R =>
      pack ? decodePackedRow<R>(map, record.packed as string) : decodeRow<R>(map, record);

  const paymentsSql = (after: boolean, query: PaymentQuery): string => `SELECT ${rowColumns('p', PAYMENT_COLUMNS, 'created_at', query.withoutRaw)}, p.payment_id AS key_id
    FROM ${schema.table('payments')} p
    WHERE p.organization_id = $1 AND p.wallet_id = $2 AND p.created_at >= $3::timestamptz AND p.created_at < $4::timestamptz
    ${query.openOnly ? "AND p.status_class IN ('open', 'unknown')" : ''}
    ${after ? 'AND (p.created_at, p.payment_id) > ($6::timestamptz, $7::text)' : ''}
    ORDER BY p.created_at, p.payment_id LIMIT $5`;

  const ledgerSql = (after: boolean, options: LedgerQuery): string => `SELECT ${rowColumns('l', LEDGER_COLUMNS, 'effective_time', options.withoutRaw)}, l.entry_type AS key_type, l.entry_id AS key_id
    FROM ${schema.table('ledger_entries')} l
    WHERE l.organization_id = $1 AND l.wallet_id = $2
    ${after ? 'AND (l.effective_time, l.entry_type, l.entry_id) > ($4::timestamptz, $5::text, $6::text)' : ''}
    ORDER BY l.effective_time, l.entry_type, l.entry_id LIMIT $3`;

  return {
    async wallets(organizationId: string, walletIds?: readonly string[]): Promise<WalletRow[]> {
      const params = [escapeText(organizationId), walletIds === undefined ? null : walletIds.map(escapeText)];
      const { rows: walletRecords } = await db.query(
        `SELECT ${selectList('w', WALLET_COLUMNS)} FROM ${schema.table('wallets')} w
         WHERE w.organization_id = $1 AND ($2::text[] IS NULL OR w.wallet_id = ANY($2::text[])) ORDER BY w.wallet_id`,
        params,
      );
      const { rows: balanceRecords } = await db.query(
        `SELECT ${selectList('b', STORED_BALANCE_COLUMNS)} FROM ${schema.table('wallet_balances')} b
         WHERE b.organization_id = $1 AND ($2::text[] IS NULL OR b.wallet_id = ANY($2::text[])) ORDER BY b.wallet_id, b.position`,
        params,
      );
      const balances = new Map<string, WalletBalanceRow[]>();
      for (const record of balanceRecords) {
        const { organization_id: _org, wallet_id, position: _position, ...balance } = decodeRow<StoredBalance>(STORED_BALANCE_COLUMNS, record);
        const list = balances.get(wallet_id) ?? [];
        list.push(balance);
        balances.set(wallet_id, list);
      }
      return walletRecords.map((record) => {
        const wallet = decodeRow<StoredWallet>(WALLET_COLUMNS, record);
        return { ...wallet, balances: balances.get(wallet.wallet_id) ?? [] };
      });
    },

    async assets(): Promise<AssetRow[]> {
      const { rows } = await db.query(`SELECT ${selectList('a', ASSET_COLUMNS)} FROM ${schema.table('assets')} a ORDER BY a.currency`);
      return rows.map((record) => decodeRow<AssetRow>(ASSET_COLUMNS, record));
    },

    async summaries(organizationId: string, window: Window): Promise<SummaryBucketRow[]> {
      const { rows } = await db.query(
        `WITH pulled AS (
           SELECT s.*, ${summarySourceSql('s')} AS source, r.started_at AS run_started_at
           FROM ${schema.table('summary_buckets')} s JOIN ${schema.table('runs')} r USING (run_id)
           WHERE r.organization_id = $1 AND r.window_from = $2::timestamptz AND r.window_to = $3::timestamptz
         ),
         newest AS (
           SELECT DISTINCT ON (environment_id, source) environment_id, source, run_id FROM pulled ORDER BY environment_id, source, run_started_at DESC, run_id DESC
         )
         SELECT ${selectList('p', SUMMARY_BUCKET_COLUMNS)} FROM pulled p JOIN newest n USING (environment_id, source, run_id)
         ORDER BY p.environment_id, p.summary_id`,
        [escapeText(organizationId), window.from, window.to],
      );
      return rows.map((record) => decodeRow<SummaryBucketRow>(SUMMARY_BUCKET_COLUMNS, record));
    },

    payments(query: PaymentQuery): AsyncIterable<PaymentRow[]> {
      const base = [escapeText(query.organization_id), escapeText(query.wallet_id), query.window.from, query.window.to, batchRows];
      return keysetBatches<PaymentRecord, PaymentRow>(
        batchRows,
        async (after) => (await db.query<PaymentRecord>(paymentsSql(after !== null, query), after === null ? base : [...base, ...after])).rows,
        (last) => [last.created_at, last.key_id],
        decoder<PaymentRow>(PAYMENT_COLUMNS),
      );
    },

    ledger(organizationId: string, walletId: string, options: LedgerQuery = {}): AsyncIterable<LedgerRow[]> {
      const base = [escapeText(organizationId), escapeText(walletId), batchRows];
      return keysetBatches<LedgerRecord, LedgerRow>(
        batchRows,
        async (after) => (await db.query<LedgerRecord>(ledgerSql(after !== null, options), after === null ? base : [...base, ...after])).rows,
        (last) => [last.effective_time, last.key_type, last.key_id],
        decoder<LedgerRow>(LEDGER_COLUMNS),
      );
    },

    async bills(organizationId: string, window: Window): Promise<BillRecord[]> {
      const { rows: billRecords } = await db.query(
        `SELECT ${selectList('b', BILL_COLUMNS)} FROM ${schema.table('bills')} b
         WHERE b.organization_id = $1 AND b.start_time < $3::timestamptz AND b.end_time > $2::timestamptz
         ORDER BY b.line_of_credit_id, b.start_time, b.bill_id`,
        [escapeText(organizationId), window.from, window.to],
      );
      const bills = billRecords.map((record) => decodeRow<BillRow>(BILL_COLUMNS, record));
      if (bills.length === 0) return [];
      const { rows: itemRecords } = await db.query(
        `SELECT ${selectList('i', BILL_LINE_ITEM_COLUMNS)} FROM ${schema.table('bill_line_items')} i
         WHERE i.organization_id = $1 AND i.bill_id = ANY($2::text[]) ORDER BY i.bill_id, i.position`,
        [escapeText(organizationId), bills.map((b) => escapeText(b.bill_id))],
      );
      const items = new Map<string, BillLineItemRow[]>();
      for (const record of itemRecords) {
        const item = decodeRow<BillLineItemRow>(BILL_LINE_ITEM_COLUMNS, record);
        items.set(item.bill_id, [...(items.get(item.bill_id) ?? []), item]);
      }
      return bills.map((bill) => ({ bill, line_items: items.get(bill.bill_id) ?? [] }));
    },

    async billSummaries(organizationId: string, window: Window): Promise<BillSummaryRow[]> {
      const { rows } = await db.query(
        `SELECT DISTINCT ON (s.line_of_credit_id) ${selectList('s', BILL_SUMMARY_COLUMNS)}
         FROM ${schema.table('bill_summaries')} s JOIN ${schema.table('runs')} r USING (run_id)
         WHERE r.organization_id = $1 AND s.organization_id = $1 AND r.window_from = $2::timestamptz AND r.window_to = $3::timestamptz
         ORDER BY s.line_of_credit_id, r.started_at DESC, s.run_id DESC`,
        [escapeText(organizationId), window.from, window.to],
      );
      return rows.map((record) => decodeRow<BillSummaryRow>(BILL_SUMMARY_COLUMNS, record));
    },

    async knownPaymentIds(organizationId: string, paymentIds: readonly string[]): Promise<Set<string>> {
      const known = new Set<string>();
      const wanted = new Map(paymentIds.map((id) => [escapeText(id), id]));
      const escaped = [...wanted.keys()];
      for (let start = 0; start < escaped.length; start += ID_CHUNK) {
        const { rows } = await db.query<{ payment_id: string }>(
          `SELECT payment_id FROM ${schema.table('payments')} WHERE organization_id = $1 AND payment_id = ANY($2::text[])`,
          [escapeText(organizationId), escaped.slice(start, start + ID_CHUNK)],
        );
        for (const row of rows) known.add(wanted.get(row.payment_id) ?? row.payment_id);
      }
      return known;
    },
  };
}

/**
 * Keyset pagination with one batch of read-ahead: the query for the next batch is sent before
 * this one is handed out, so the database works while the caller renders.
 */
async function* keysetBatches<Record_, Row>(
  batchRows: number,
  fetch: (after: string[] | null) => Promise<Record_[]>,
  keyOf: (last: Record_) => string[],
  decode: (record: Record_) => Row,
): AsyncGenerator<Row[]> {
  let pending: Promise<Record_[]> | null = fetch(null);
  try {
    while (pending !== null) {
      const rows: Record_[] = await pending;
      const last = rows.at(-1);
      pending = last !== undefined && rows.length >= batchRows ? fetch(keyOf(last)) : null;
      if (rows.length > 0) yield rows.map(decode);
    }
  } finally {
    // a caller that stops early leaves the read-ahead running: its failure is nobody's to handle
    pending?.catch(() => undefined);
  }
}
