import { LEDGER_COLUMNS, PAYMENT_COLUMNS, type LedgerRow, type PaymentRow } from '../model/rows.js';
import type { LedgerQuery, PaymentQuery } from '../model/ports.js';
import type { Queryable } from './db/db.js';
import type { StoreSchema } from './db/schema.js';
import { decodePackedRow, decodeRow, instantText, packedSelect, selectList, type ColumnMap } from './encoding/columns.js';
import { escapeText } from './encoding/text-escape.js';

/**
 * A wallet's payments and ledger entries in the report order, in batches by keyset pagination on
 * that order, so memory stays flat however many rows a wallet has, and no transaction is held open
 * between batches (works alike on both engines).
 */
export interface BatchReading {
  /** rows per batch */
  readonly batchRows: number;
  /** rows come back as one JSON array each (report-source.ts `packRows`) */
  readonly pack: boolean;
}

type PaymentRecord = Record<string, unknown> & { created_at: string; key_id: string; packed?: string };
type LedgerRecord = Record<string, unknown> & { effective_time: string; key_type: string; key_id: string; packed?: string };

export function paymentBatches(db: Queryable, schema: StoreSchema, reading: BatchReading, query: PaymentQuery): AsyncIterable<PaymentRow[]> {
  const sql = (after: boolean): string => `SELECT ${rowColumns(reading, 'p', PAYMENT_COLUMNS, 'created_at', query.withoutRaw)}, p.payment_id AS key_id
    FROM ${schema.table('payments')} p
    WHERE p.organization_id = $1 AND p.wallet_id = $2 AND p.created_at >= $3::timestamptz AND p.created_at < $4::timestamptz
    ${query.openOnly ? "AND p.status_class IN ('open', 'unknown')" : ''}
    ${after ? 'AND (p.created_at, p.payment_id) > ($6::timestamptz, $7::text)' : ''}
    ORDER BY p.created_at, p.payment_id LIMIT $5`;
  const base = [escapeText(query.organization_id), escapeText(query.wallet_id), query.window.from, query.window.to, reading.batchRows];
  return keysetBatches<PaymentRecord, PaymentRow>(
    reading.batchRows,
    async (after) => (await db.query<PaymentRecord>(sql(after !== null), after === null ? base : [...base, ...after])).rows,
    (last) => [last.created_at, last.key_id],
    decoder<PaymentRow>(reading, PAYMENT_COLUMNS),
  );
}

export function ledgerBatches(db: Queryable, schema: StoreSchema, reading: BatchReading, organizationId: string, walletId: string, options: LedgerQuery): AsyncIterable<LedgerRow[]> {
  const sql = (after: boolean): string => `SELECT ${rowColumns(reading, 'l', LEDGER_COLUMNS, 'effective_time', options.withoutRaw)}, l.entry_type AS key_type, l.entry_id AS key_id
    FROM ${schema.table('ledger_entries')} l
    WHERE l.organization_id = $1 AND l.wallet_id = $2
    ${after ? 'AND (l.effective_time, l.entry_type, l.entry_id) > ($4::timestamptz, $5::text, $6::text)' : ''}
    ORDER BY l.effective_time, l.entry_type, l.entry_id LIMIT $3`;
  const base = [escapeText(organizationId), escapeText(walletId), reading.batchRows];
  return keysetBatches<LedgerRecord, LedgerRow>(
    reading.batchRows,
    async (after) => (await db.query<LedgerRecord>(sql(after !== null), after === null ? base : [...base, ...after])).rows,
    (last) => [last.effective_time, last.key_type, last.key_id],
    decoder<LedgerRow>(reading, LEDGER_COLUMNS),
  );
}

/** A table's select list; packed rows carry their keyset time beside the array (unpacked rows have it among their columns). */
function rowColumns<R>(reading: BatchReading, alias: string, map: ColumnMap<R>, time: string, withoutRaw: boolean | undefined): string {
  const nulls = withoutRaw ? ['raw'] : [];
  return reading.pack ? `${packedSelect(alias, map, nulls)}, ${instantText(`${alias}.${time}`)} AS ${time}` : selectList(alias, map, nulls);
}

function decoder<R>(reading: BatchReading, map: ColumnMap<R>): (record: Record<string, unknown> & { packed?: string }) => R {
  const pack = reading.pack;
  return (record) => (pack ? decodePackedRow<R>(map, record.packed as string) : decodeRow<R>(map, record));
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
