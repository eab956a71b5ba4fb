import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LedgerRow, PaymentRow, SummaryBucketRow } from '../../../src/model/rows.js';
import type { Db, Queryable, SqlParam } from '../../../src/store/db/db.js';
import { loadMigrations, migrate } from '../../../src/store/db/migrate.js';
import type { Checkpoint, RunInfo } from '../../../src/model/ports.js';
import type { Window } from '../../../src/model/window.js';
import { windowContains } from '../../../src/model/window.js';
import { databaseSnapshot, type DatabaseSnapshot } from '../../../src/store/database-snapshot.js';
import { createReportSource } from '../../../src/store/report-source.js';
import type { Column } from '../../../src/model/columns.js';
import { FINDING_COLUMNS } from '../../../src/model/results.js';
import { ASSET_COLUMNS, BILL_COLUMNS, BILL_LINE_ITEM_COLUMNS, BILL_SUMMARY_COLUMNS, LEDGER_COLUMNS, PAYMENT_COLUMNS, SUMMARY_BUCKET_COLUMNS, WALLET_COLUMNS } from '../../../src/model/rows.js';
import { BILL_HISTORY_COLUMNS } from '../../../src/store/sql/bill-tables.js';
import { SQL_TYPE } from '../../../src/store/encoding/columns.js';
import { PAYMENT_HISTORY_COLUMNS, STORED_BALANCE_COLUMNS } from '../../../src/store/sql/tables.js';
import { unescapeText } from '../../../src/store/encoding/text-escape.js';
import { AppError } from '../../../src/util/errors.js';
import {
  ASSET,
  BEYOND_INT64,
  BTC_SUPPLY_MSATS,
  ENV,
  HOSTILE_STRINGS,
  ORG,
  TWO_53_PLUS_1,
  WALLET,
  finding,
  hostilePayment,
  ledgerRow,
  paymentRow,
  summaryRows,
  walletRow,
} from '../../support/store/rows.js';
import { awkwardString, rawJson } from '../../support/store/arbitraries.js';
import { dropSchema, uniqueSchemaName, withoutCopy } from '../../support/store/engines.js';

/**
 * The snapshot's behaviour, run against each engine (real server, embedded, and the no-COPY
 * fallback path). `connect` is called once per suite; the suite owns a schema of its own and
 * drops it afterwards.
 */
export interface SuiteEngine {
  label: string;
  /** returns an open Db; `release` is called after the suite (close it, or leave a shared one open) */
  connect(): Promise<{ db: Db; release(): Promise<void> }>;
}

const WINDOW: Window = { from: '2026-10-01T00:00:00.000000Z', to: '2026-11-01T00:00:00.000000Z', tz: 'UTC' };

/** How format_type() spells the SQL types the encoders name. */
const FORMAT_TYPE: Record<string, string> = { timestamptz: 'timestamp with time zone' };

let runCounter = 0;
function runInfo(runKey = 'export:test', window: Window | null = WINDOW): RunInfo {
  runCounter += 1;
  return {
    run_id: `run-${runCounter}-${Date.now()}`,
    run_key: runKey,
    command: 'export',
    organization_id: ORG,
    window,
    parameters: { window, note: "it's \u0000 data", big: BEYOND_INT64 },
    // strictly increasing, so "the newest run" is well defined
    started_at: `2026-11-01T${String(Math.floor(runCounter / 60)).padStart(2, '0')}:${String(runCounter % 60).padStart(2, '0')}:00.000001Z`,
  };
}

function checkpoint(stream: string, pages: number, done = false): Checkpoint {
  return { run_key: 'export:test', stream, position: JSON.stringify({ cursor: `c${pages}`, odd: 'nul\u0000' }), pages, rows: pages * 10, done };
}

function sortPayments(rows: readonly PaymentRow[]): PaymentRow[] {
  return [...rows].sort((a, b) => (a.created_at < b.created_at ? -1 : a.created_at > b.created_at ? 1 : a.payment_id < b.payment_id ? -1 : a.payment_id > b.payment_id ? 1 : 0));
}

async function collect<T>(batches: AsyncIterable<T[]>): Promise<{ rows: T[]; sizes: number[] }> {
  const rows: T[] = [];
  const sizes: number[] = [];
  for await (const batch of batches) {
    sizes.push(batch.length);
    rows.push(...batch);
  }
  return { rows, sizes };
}

async function count(db: Queryable, sql: string, params: SqlParam[] = []): Promise<number> {
  const { rows } = await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${sql}`, params);
  return rows[0]?.n ?? -1;
}

export function defineSnapshotSuite(engine: SuiteEngine): void {
  describe(`snapshot store on ${engine.label}`, () => {
    let db: Db;
    let release: () => Promise<void>;
    let store: DatabaseSnapshot;
    const schemaName = uniqueSchemaName(engine.label.replace(/\W+/g, '_').toLowerCase());
    const t = (table: string): string => store.schema.table(table);

    beforeAll(async () => {
      ({ db, release } = await engine.connect());
      store = databaseSnapshot(db, { schema: schemaName, batchRows: 7 });
      await store.migrate();
    });

    afterAll(async () => {
      if (db) {
        await dropSchema(db, schemaName);
        await release();
      }
    });

    it('applies migrations once; a second run applies nothing', async () => {
      const again = await migrate(db, store.schema);
      expect(again.applied).toEqual([]);
      expect(again.current).toBe(loadMigrations().length);
      expect(await count(db, `${t('schema_migrations')}`)).toBe(loadMigrations().length);
    });

    it('refuses a schema whose applied migration differs from the code', async () => {
      const [first, ...rest] = loadMigrations();
      if (!first) throw new Error('no migrations');
      const tampered = [{ ...first, checksum: 'f'.repeat(64) }, ...rest];
      await expect(migrate(db, store.schema, tampered)).rejects.toMatchObject({ type: 'migration_checksum_mismatch', exit: 'config' });
    });

    it('declares every row field as a column of the type the encoders write and the nullability the row declares', async () => {
      const { rows } = await db.query<{ table_name: string; column_name: string; type: string; is_nullable: string }>(
        `SELECT c.table_name::text AS table_name, c.column_name::text AS column_name, format_type(a.atttypid, a.atttypmod) AS type, c.is_nullable::text AS is_nullable
         FROM information_schema.columns c
         JOIN pg_attribute a ON a.attrelid = format('%I.%I', c.table_schema, c.table_name)::regclass AND a.attname = c.column_name
         WHERE c.table_schema = $1`,
        [schemaName],
      );
      const actual = new Map(rows.map((row) => [`${row.table_name}.${row.column_name}`, `${row.type} ${row.is_nullable === 'YES' ? 'null' : 'not null'}`]));
      // Every table rows are written to, with the columns the code writes (history tables: after organization_id).
      const expected: [string, Record<string, Column>][] = [
        ['payments', PAYMENT_COLUMNS],
        ['payment_history', { organization_id: PAYMENT_COLUMNS.organization_id, ...PAYMENT_HISTORY_COLUMNS }],
        ['ledger_entries', LEDGER_COLUMNS],
        ['wallets', WALLET_COLUMNS],
        ['wallet_balances', STORED_BALANCE_COLUMNS],
        ['assets', ASSET_COLUMNS],
        ['summary_buckets', SUMMARY_BUCKET_COLUMNS],
        ['findings', FINDING_COLUMNS],
        ['bills', BILL_COLUMNS],
        ['bill_history', { organization_id: BILL_COLUMNS.organization_id, ...BILL_HISTORY_COLUMNS }],
        ['bill_line_items', BILL_LINE_ITEM_COLUMNS],
        ['bill_summaries', BILL_SUMMARY_COLUMNS],
      ];
      for (const [table, columns] of expected) {
        for (const [name, column] of Object.entries(columns)) {
          const type = FORMAT_TYPE[SQL_TYPE[column.kind]] ?? SQL_TYPE[column.kind];
          expect([`${table}.${name}`, actual.get(`${table}.${name}`)]).toEqual([`${table}.${name}`, `${type} ${column.nullable ? 'null' : 'not null'}`]);
        }
      }
    });

    it('round-trips payments deep-equal: big integers, instants, arrays, hostile metadata, raw', async () => {
      const writer = store.writer();
      expect(await writer.beginRun(runInfo('roundtrip'))).toEqual([]);
      const written = [paymentRow(1), paymentRow(2), hostilePayment(3), paymentRow(4, { wallet_id: 'other-wallet' })];
      const stats = await writer.writePaymentsPage(written, { ...checkpoint('payments:wallet:x', 1), run_key: 'roundtrip' });
      expect(stats).toEqual({ inserted: 4, updated: 0, unchanged: 0, history: 4 });

      const wide: Window = { from: '1999-01-01T00:00:00.000000Z', to: '2027-01-01T00:00:00.000000Z', tz: 'UTC' };
      const { rows } = await collect(store.source.payments({ organization_id: ORG, wallet_id: WALLET, window: wide }));
      expect(rows).toEqual(sortPayments(written.filter((row) => row.wallet_id === WALLET)));

      // Stored exactly, as SQL sees it: numeric digits, the metadata value under a hostile key, and
      // the raw object (stored as JSON text) as jsonb through the payment_raw view, its integer exact.
      const { rows: [sql] } = await db.query<{ principal: string; net: string; fee: string; total: string; meta: string; raw_big: string; raw_big_type: string; created: string }>(
        `SELECT p.principal_base::text AS principal, p.network_fee_base::text AS net, p.processing_fee_base::text AS fee, p.total_base::text AS total,
                p.metadata ->> $2 AS meta, r.raw ->> 'big' AS raw_big, jsonb_typeof(r.raw -> 'big') AS raw_big_type, to_char(p.created_at AT TIME ZONE 'UTC', 'US') AS created
         FROM ${t('payments')} p JOIN ${t('payment_raw')} r USING (organization_id, payment_id) WHERE p.payment_id = $1`,
        [hostilePayment(3).payment_id, "'; DROP TABLE payments; --"],
      );
      expect(sql).toEqual({
        principal: BTC_SUPPLY_MSATS.toString(),
        net: TWO_53_PLUS_1.toString(),
        fee: (-BEYOND_INT64).toString(),
        total: BEYOND_INT64.toString(),
        meta: 'NULL',
        raw_big: BTC_SUPPLY_MSATS.toString(),
        raw_big_type: 'number',
        created: '999999',
      });
      expect(await count(db, `information_schema.tables WHERE table_schema = $1 AND table_name = 'payments'`, [schemaName])).toBe(1);
    });

    it('upgrades payments written before migration 008 (raw as jsonb) in place: same rows back, re-reads unchanged', async () => {
      const oldName = uniqueSchemaName(`${engine.label.replace(/\W+/g, '_').toLowerCase()}_pre008`);
      const old = databaseSnapshot(db, { schema: oldName });
      try {
        await migrate(db, old.schema, loadMigrations().filter((migration) => migration.version < 8));
        const writer = old.writer();
        await writer.beginRun({ ...runInfo('pre008'), run_key: 'pre008' });
        const page = [paymentRow(700), hostilePayment(701), paymentRow(702, { raw: null })];
        // New rows go by COPY straight into the table, whose raw column is still jsonb here.
        expect(await writer.writePaymentsPage(page, { ...checkpoint('payments:pre008', 1), run_key: 'pre008' })).toMatchObject({ inserted: 3 });
        const { rows: [before] } = await db.query<{ type: string }>(`SELECT pg_typeof(raw)::text AS type FROM ${old.schema.table('payments')} LIMIT 1`);
        expect(before?.type).toBe('jsonb');

        await migrate(db, old.schema);
        const { rows: [after] } = await db.query<{ type: string }>(`SELECT pg_typeof(raw)::text AS type FROM ${old.schema.table('payments')} LIMIT 1`);
        expect(after?.type).toBe('text');
        const wide: Window = { from: '1999-01-01T00:00:00.000000Z', to: '2027-01-01T00:00:00.000000Z', tz: 'UTC' };
        const { rows } = await collect(old.source.payments({ organization_id: ORG, wallet_id: WALLET, window: wide }));
        expect(rows).toEqual(sortPayments(page.filter((row) => row.wallet_id === WALLET)));
        const { rows: [raw] } = await db.query<{ big: string }>(`SELECT raw ->> 'big' AS big FROM ${old.schema.table('payment_raw')} WHERE payment_id = $1`, [hostilePayment(701).payment_id]);
        expect(raw?.big).toBe(BTC_SUPPLY_MSATS.toString());

        // The stored row hashes still describe the rows: a re-read writes nothing, a change is merged once.
        const again = old.writer();
        await again.beginRun({ ...runInfo('post008'), run_key: 'pre008' });
        expect(await again.writePaymentsPage(page, { ...checkpoint('payments:pre008', 1), run_key: 'pre008' })).toEqual({ inserted: 0, updated: 0, unchanged: 3, history: 0 });
        const changed = page.map((row) => ({ ...row, status: 'failed', status_class: 'failed' as const, updated_at: '2026-11-20T00:00:00.000000Z' }));
        expect(await again.writePaymentsPage(changed, { ...checkpoint('payments:pre008', 2), run_key: 'pre008' })).toEqual({ inserted: 0, updated: 3, unchanged: 0, history: 3 });
        const { rows: reread } = await collect(old.source.payments({ organization_id: ORG, wallet_id: WALLET, window: wide }));
        expect(reread).toEqual(sortPayments(changed.filter((row) => row.wallet_id === WALLET)));
      } finally {
        await dropSchema(db, oldName);
      }
    });

    it('re-loading the same page changes nothing and adds no history', async () => {
      const writer = store.writer();
      await writer.beginRun(runInfo('idempotent'));
      const page = Array.from({ length: 30 }, (_, index) => paymentRow(100 + index));
      page.push(hostilePayment(130));
      const first = await writer.writePaymentsPage(page, checkpoint('payments:idem', 1));
      expect(first).toMatchObject({ inserted: 31, updated: 0, unchanged: 0 });
      const historyBefore = await count(db, t('payment_history'));
      const { rows: before } = await db.query<{ payment_id: string; version: string }>(`SELECT payment_id, xmin::text AS version FROM ${t('payments')} ORDER BY payment_id`);

      const second = await writer.writePaymentsPage(page, checkpoint('payments:idem', 1));
      expect(second).toEqual({ inserted: 0, updated: 0, unchanged: 31, history: 0 });
      expect(await count(db, t('payment_history'))).toBe(historyBefore);
      const { rows: after } = await db.query<{ payment_id: string; version: string }>(`SELECT payment_id, xmin::text AS version FROM ${t('payments')} ORDER BY payment_id`);
      expect(after).toEqual(before); // not even rewritten with equal values

      const ledger = Array.from({ length: 12 }, (_, index) => ledgerRow(index));
      expect(await writer.writeLedgerPage(ledger, checkpoint('ledger:idem', 1))).toEqual({ inserted: 12, updated: 0, unchanged: 0 });
      expect(await writer.writeLedgerPage(ledger, checkpoint('ledger:idem', 1))).toEqual({ inserted: 0, updated: 0, unchanged: 12 });
      const wallets = [walletRow(0), walletRow(1)];
      expect(await writer.upsertWallets(wallets)).toEqual({ inserted: 2, updated: 0, unchanged: 0 });
      expect(await writer.upsertWallets(wallets)).toEqual({ inserted: 0, updated: 0, unchanged: 2 });
    });

    it('writes history rows only when status, amounts or fees change', async () => {
      const writer = store.writer();
      const run = runInfo('history');
      await writer.beginRun(run);
      const base = [paymentRow(200, { status: 'sending', status_class: 'open' }), paymentRow(201), paymentRow(202)];
      await writer.writePaymentsPage(base, checkpoint('payments:hist', 1));
      const [a, b, c] = base as [PaymentRow, PaymentRow, PaymentRow];
      const later = '2026-10-03T00:00:00.000000Z';
      const next = [
        { ...a, status: 'completed', status_class: 'completed' as const, updated_at: later },
        { ...b, processing_fee_base: 301n, total_base: (b.total_base ?? 0n) + 1n, updated_at: later },
        { ...c, swap_steps: ['target_paid'], raw: { changed: true }, updated_at: later },
      ];
      const stats = await writer.writePaymentsPage(next, checkpoint('payments:hist', 2));
      expect(stats).toEqual({ inserted: 0, updated: 3, unchanged: 0, history: 2 });

      const historyA = await store.paymentHistory({ organization_id: ORG, payment_id: a.payment_id });
      expect(historyA.map((row) => [row.change, row.previous_status, row.status, row.changed_fields, row.run_id])).toEqual([
        ['first_seen', null, 'sending', [], run.run_id],
        ['changed', 'sending', 'completed', ['status', 'status_class'], run.run_id],
      ]);
      const historyB = await store.paymentHistory({ organization_id: ORG, payment_id: b.payment_id });
      expect(historyB.at(-1)).toMatchObject({ change: 'changed', changed_fields: ['processing_fee_base', 'total_base'], processing_fee_base: 301n, updated_at: later });
      expect(await store.paymentHistory({ organization_id: ORG, payment_id: c.payment_id })).toHaveLength(1);

      // A stale re-read (older updated_at) never overwrites the newer row.
      const stale = await writer.writePaymentsPage([{ ...a, status: 'failed', status_class: 'failed' }], checkpoint('payments:hist', 3));
      expect(stale).toEqual({ inserted: 0, updated: 0, unchanged: 1, history: 0 });
      const wide: Window = { from: '2026-10-01T00:00:00.000000Z', to: '2026-10-02T00:00:00.000000Z', tz: 'UTC' };
      const { rows } = await collect(store.source.payments({ organization_id: ORG, wallet_id: WALLET, window: wide }));
      expect(rows.find((row) => row.payment_id === a.payment_id)?.status).toBe('completed');
    });

    it('keeps one row per key when a page repeats a payment (the newest wins)', async () => {
      const writer = store.writer();
      await writer.beginRun(runInfo('dupes'));
      const older = paymentRow(300, { status: 'sending', status_class: 'open' });
      const newer = { ...older, status: 'completed', status_class: 'completed' as const, updated_at: '2026-10-05T00:00:00.000000Z' };
      const stats = await writer.writePaymentsPage([newer, older], checkpoint('payments:dupes', 1));
      expect(stats).toEqual({ inserted: 1, updated: 0, unchanged: 1, history: 1 });
      expect(await store.source.knownPaymentIds(ORG, [older.payment_id])).toEqual(new Set([older.payment_id]));
      const { rows } = await db.query<{ status: string }>(`SELECT status FROM ${t('payments')} WHERE payment_id = $1`, [older.payment_id]);
      expect(rows).toEqual([{ status: 'completed' }]);
    });

    it('rolls back a page that fails mid-batch and keeps the checkpoint before it', async () => {
      const writer = store.writer();
      await writer.beginRun(runInfo('rollback'));
      const stream = 'payments:rollback';
      await writer.writePaymentsPage([paymentRow(400), paymentRow(401)], checkpoint(stream, 1));
      // Row 3 of the page holds an amount wider than numeric(39,0): the server rejects the batch.
      const bad = [paymentRow(402), paymentRow(403), paymentRow(404, { principal_base: 10n ** 40n }), paymentRow(405)];
      await expect(writer.writePaymentsPage(bad, checkpoint(stream, 2))).rejects.toThrow();
      const known = await store.source.knownPaymentIds(ORG, [400, 401, 402, 403, 404, 405].map((index) => paymentRow(index).payment_id));
      expect([...known].sort()).toEqual([paymentRow(400).payment_id, paymentRow(401).payment_id]);
      const saved = (await store.loadCheckpoints('export:test')).find((row) => row.stream === stream);
      expect(saved?.pages).toBe(1);
      expect(await count(db, `${t('payment_history')} WHERE payment_id = $1`, [paymentRow(402).payment_id])).toBe(0);
    });

    it('rolls back the rows when the checkpoint write fails after them', async () => {
      const failing: Db = {
        ...db,
        transaction: (fn) =>
          db.transaction((tx) =>
            fn({
              ...tx,
              query: (sql, params) => (sql.includes('checkpoints') ? Promise.reject(new Error('injected: checkpoint write failed')) : tx.query(sql, params)),
              execScript: (sql) => tx.execScript(sql),
            }),
          ),
      };
      const writer = databaseSnapshot(failing, { schema: schemaName }).writer();
      await writer.beginRun(runInfo('rollback2'));
      await expect(writer.writePaymentsPage([paymentRow(410)], checkpoint('payments:rollback2', 1))).rejects.toThrow('injected');
      expect(await store.source.knownPaymentIds(ORG, [paymentRow(410).payment_id])).toEqual(new Set());
    });

    it('retries a page through staging when a new key was inserted meanwhile (unique violation on the fast path)', async () => {
      const target = t('payments');
      let fastCopies = 0;
      const racing: Db = {
        ...db,
        transaction: (fn) =>
          db.transaction((tx) =>
            fn({
              query: (sql, params) => tx.query(sql, params),
              execScript: (sql) => tx.execScript(sql),
              copyFrom: async (table, columns, chunks) => {
                if (table === target) {
                  fastCopies += 1;
                  // Another writer got there first: the same payment now exists.
                  await tx.query(`INSERT INTO ${target} SELECT * FROM ${target} WHERE payment_id = $1`, [paymentRow(420).payment_id]).catch(() => undefined);
                  await tx.query(
                    `INSERT INTO ${target} (payment_id, organization_id, environment_id, wallet_id, direction, kind, category, status, status_class, created_at, updated_at, currency, unit,
                       processing_fee_source, ledger_ids, tx_ids, payment_hashes, swap_steps, offset_payment_ids, flags, row_hash)
                     VALUES ($1, $2, 'e', 'w', 'send', 'bolt11', 'standard', 'sending', 'open', now(), '2000-01-01T00:00:00Z', 'btc', 'msats', 'none', '{}', '{}', '{}', '{}', '{}', '{}', 'x')`,
                    [paymentRow(421).payment_id, ORG],
                  );
                }
                if (!tx.copyFrom) throw new Error('engine without COPY');
                return tx.copyFrom(table, columns, chunks);
              },
            }),
          ),
      };
      const writer = databaseSnapshot(racing, { schema: schemaName }).writer();
      await writer.beginRun(runInfo('race'));
      const stats = await writer.writePaymentsPage([paymentRow(420), paymentRow(421)], checkpoint('payments:race', 1));
      expect(fastCopies).toBe(1);
      expect(stats).toEqual({ inserted: 2, updated: 0, unchanged: 0, history: 2 });
      const { rows } = await collect(store.source.payments({ organization_id: ORG, wallet_id: WALLET, window: WINDOW }));
      expect(rows.filter((row) => row.payment_id === paymentRow(421).payment_id)).toEqual([paymentRow(421)]);
    });

    it('COPies a page after an all-new page without looking up stored hashes; a stored key in it sends the page the usual way', async () => {
      let lookups = 0;
      let copies = false;
      const counting: Db = {
        ...db,
        transaction: (fn, options) =>
          db.transaction((tx) => {
            copies = tx.copyFrom !== undefined;
            return fn({
              query: (sql, params, queryOptions) => {
                if (sql.includes('WITH ORDINALITY')) lookups += 1;
                return tx.query(sql, params, queryOptions);
              },
              execScript: (sql) => tx.execScript(sql),
              ...(tx.copyFrom ? { copyFrom: tx.copyFrom } : {}),
            });
          }, options),
      };
      const writer = databaseSnapshot(counting, { schema: schemaName }).writer();
      const run = runInfo('fresh-pages');
      await writer.beginRun(run);
      const stream = 'payments:fresh';
      expect(await writer.writePaymentsPage([paymentRow(430), paymentRow(431)], checkpoint(stream, 1))).toEqual({ inserted: 2, updated: 0, unchanged: 0, history: 2 });
      const afterFirst = lookups;
      expect(await writer.writePaymentsPage([paymentRow(432), paymentRow(433)], checkpoint(stream, 2))).toEqual({ inserted: 2, updated: 0, unchanged: 0, history: 2 });
      // the second page of new rows went straight to COPY (engines without COPY stage every page)
      expect(lookups).toBe(afterFirst);
      const changed = { ...paymentRow(430), status: 'failed', status_class: 'failed' as const, updated_at: '2026-10-04T00:00:00.000000Z' };
      expect(await writer.writePaymentsPage([paymentRow(434), changed], checkpoint(stream, 3))).toEqual({ inserted: 1, updated: 1, unchanged: 0, history: 2 });
      expect(lookups).toBe(afterFirst + (copies ? 1 : 0));
      // that page was not all new: the next one is looked up again
      expect(await writer.writePaymentsPage([paymentRow(435)], checkpoint(stream, 4))).toEqual({ inserted: 1, updated: 0, unchanged: 0, history: 1 });
      expect(lookups).toBe(afterFirst + (copies ? 2 : 0));
      // another stream of the table starts as the table's last page went: all new, so no lookup
      expect(await writer.writePaymentsPage([paymentRow(436)], checkpoint('payments:fresh-2', 1))).toEqual({ inserted: 1, updated: 0, unchanged: 0, history: 1 });
      expect(lookups).toBe(afterFirst + (copies ? 2 : 0));
      const history = await store.paymentHistory({ organization_id: ORG, payment_id: changed.payment_id });
      expect(history.map((row) => [row.change, row.status, row.run_id])).toEqual([
        ['first_seen', paymentRow(430).status, run.run_id],
        ['changed', 'failed', run.run_id],
      ]);
      const ids = [430, 431, 432, 433, 434, 435, 436].map((index) => paymentRow(index).payment_id);
      expect(await count(db, `${t('payments')} WHERE payment_id = ANY($1)`, [ids])).toBe(7);
      expect(await count(db, `${t('payment_history')} WHERE payment_id = ANY($1)`, [ids])).toBe(8);
      expect((await store.loadCheckpoints('export:test')).find((row) => row.stream === stream)?.pages).toBe(4);
    });

    // An engine without COPY stages a page expected to be new, so a stored key does not fail it:
    // one transaction fewer when a group falls back.
    it.each([
      { path: 'COPY', first: 460, prefix: 'g', fallbackTransactions: 5 },
      { path: 'no COPY', first: 2400, prefix: 'n', fallbackTransactions: 4 },
    ])('writes pages expected to be new that wait together in one transaction; a stored key or a key in two pages sends each page alone ($path)', async ({ path, first, prefix, fallbackTransactions }) => {
      let transactions = 0;
      const base = path === 'COPY' ? db : withoutCopy(db);
      const counting: Db = { ...base, transaction: (fn, options) => ((transactions += 1), base.transaction(fn, options)) };
      const writer = databaseSnapshot(counting, { schema: schemaName }).writer({ groupPages: true });
      const run = runInfo(`grouped-pages-${prefix}`);
      await writer.beginRun(run);
      /** payments by offset from `first` */
      const page = (offsets: number[]) => offsets.map((offset) => paymentRow(first + offset));
      /** new rows, and rows already stored (or repeated), of one page's counts */
      const counts = (inserted: number, unchanged = 0) => ({ inserted, updated: 0, unchanged, history: inserted });
      /** pages handed in at once, each its stream's `pages`-th; the number of transactions they took */
      const atOnce = async (pages: Array<[number[], string, number?]>) => {
        transactions = 0;
        const stats = await Promise.all(pages.map(([offsets, stream, n]) => writer.writePaymentsPage(page(offsets), checkpoint(`payments:${prefix}${stream}`, n ?? 1))));
        return { stats, transactions };
      };
      // a writer's first page is not expected to be new: alone, with the lookup
      expect(await writer.writePaymentsPage(page([0, 1]), checkpoint(`payments:${prefix}a`, 1))).toEqual(counts(2));
      // the first goes at once; the two that arrive while it is written go together (one transaction)
      expect(await atOnce([[[2, 3], 'a', 2], [[4], 'b'], [[5, 6], 'c']])).toEqual({ stats: [counts(2), counts(1), counts(2)], transactions: 2 });
      // +8 in two pages of one group: the group rolls back, each page is written alone:
      // d; the group (rolled back); e alone; f alone as new (fails on a stored key where COPY is used), then looked up
      expect(await atOnce([[[7], 'd'], [[8, 9], 'e'], [[8, 10], 'f']])).toEqual({ stats: [counts(1), counts(2), counts(1, 1)], transactions: fallbackTransactions });
      // f was not all new, so the next page is looked up; once a page is all new again, pages group again
      expect(await writer.writePaymentsPage(page([11]), checkpoint(`payments:${prefix}g`, 1))).toEqual(counts(1));
      // +0 is stored: the group fails, its pages go alone, the stored row is found unchanged
      expect(await atOnce([[[12], 'h'], [[13], 'i'], [[0, 14], 'j']])).toEqual({ stats: [counts(1), counts(1), counts(1, 1)], transactions: fallbackTransactions });

      const ids = page(Array.from({ length: 15 }, (_, offset) => offset)).map((row) => row.payment_id);
      expect(await count(db, `${t('payments')} WHERE payment_id = ANY($1)`, [ids])).toBe(15);
      // one first_seen row per payment, none doubled by a group that rolled back
      expect(await count(db, `${t('payment_history')} WHERE payment_id = ANY($1) AND change = 'first_seen' AND run_id = $2`, [ids, run.run_id])).toBe(15);
      expect(await count(db, `${t('payment_history')} WHERE payment_id = ANY($1)`, [ids])).toBe(15);
      const checkpoints = new Map((await store.loadCheckpoints('export:test')).map((row) => [row.stream, row.pages]));
      expect([...'abcdefghij'].map((s) => checkpoints.get(`payments:${prefix}${s}`))).toEqual([2, 1, 1, 1, 1, 1, 1, 1, 1, 1]);
      const { rows } = await collect(store.source.payments({ organization_id: ORG, wallet_id: WALLET, window: WINDOW }));
      expect(sortPayments(rows.filter((row) => ids.includes(row.payment_id)))).toEqual(sortPayments(page(Array.from({ length: 15 }, (_, offset) => offset))));
    });

    it('streams one wallet\'s window in keyset batches, in (created_at, payment_id) order, half-open', async () => {
      const writer = store.writer();
      await writer.beginRun(runInfo('batches'));
      const wallet = 'wallet-batches';
      const tie = '2026-10-10T10:10:10.101010Z';
      const rows = [
        ...Array.from({ length: 20 }, (_, index) => paymentRow(500 + index, { wallet_id: wallet })),
        ...[3, 1, 2].map((n) => paymentRow(600 + n, { wallet_id: wallet, created_at: tie })),
        paymentRow(700, { wallet_id: wallet, created_at: '2026-11-01T00:00:00.000000Z' }), // == window.to: excluded
        paymentRow(701, { wallet_id: wallet, created_at: '2026-10-01T00:00:00.000000Z' }), // == window.from: included
        paymentRow(702, { wallet_id: wallet, created_at: '2026-09-30T23:59:59.999999Z' }),
      ];
      await writer.writePaymentsPage(rows, checkpoint('payments:batches', 1));
      const { rows: read, sizes } = await collect(store.source.payments({ organization_id: ORG, wallet_id: wallet, window: WINDOW }));
      const expected = sortPayments(rows.filter((row) => windowContains(WINDOW, row.created_at)));
      expect(read).toEqual(expected);
      expect(sizes).toEqual([7, 7, 7, 3]);

      const ledger = Array.from({ length: 16 }, (_, index) => ledgerRow(index, { wallet_id: wallet, effective_time: index < 4 ? tie : ledgerRow(index).effective_time }));
      await writer.writeLedgerPage(ledger, checkpoint('ledger:batches', 1));
      const { rows: entries, sizes: ledgerSizes } = await collect(store.source.ledger(ORG, wallet));
      const byOrder = [...ledger].sort((x, y) => (x.effective_time !== y.effective_time ? (x.effective_time < y.effective_time ? -1 : 1) : x.entry_type !== y.entry_type ? (x.entry_type < y.entry_type ? -1 : 1) : x.entry_id < y.entry_id ? -1 : 1));
      expect(entries).toEqual(byOrder);
      expect(ledgerSizes).toEqual([7, 7, 2]);
    });

    it("reads what the report asks for: open payments only, without raw, and a reader that stops early leaves nothing pending", async () => {
      const writer = store.writer();
      await writer.beginRun(runInfo('report-reads'));
      const wallet = 'wallet-report-reads';
      const rows = Array.from({ length: 20 }, (_, index) =>
        paymentRow(800 + index, { wallet_id: wallet, ...(index % 3 === 0 ? { status: 'sending', status_class: 'open' as const } : index % 5 === 0 ? { status: 'settling_v2', status_class: 'unknown' as const } : {}) }),
      );
      await writer.writePaymentsPage(rows, checkpoint('payments:report-reads', 1));
      const open = sortPayments(rows.filter((row) => row.status_class === 'open' || row.status_class === 'unknown'));
      expect(open.length).toBeGreaterThan(7); // more than one batch of 7

      const { rows: openRead } = await collect(store.source.payments({ organization_id: ORG, wallet_id: wallet, window: WINDOW, openOnly: true }));
      expect(openRead).toEqual(open);
      const { rows: lean } = await collect(store.source.payments({ organization_id: ORG, wallet_id: wallet, window: WINDOW, openOnly: true, withoutRaw: true }));
      expect(lean).toEqual(open.map((row) => ({ ...row, raw: null })));

      const ledger = Array.from({ length: 9 }, (_, index) => ledgerRow(900 + index, { wallet_id: wallet }));
      await writer.writeLedgerPage(ledger, checkpoint('ledger:report-reads', 1));
      const { rows: entries } = await collect(store.source.ledger(ORG, wallet, { withoutRaw: true }));
      expect(entries.every((entry) => entry.raw === null)).toBe(true);
      expect(entries.map((entry) => entry.entry_id).sort()).toEqual(ledger.map((entry) => entry.entry_id).sort());

      // the read-ahead of the second batch is in flight when the reader stops after the first
      for await (const batch of store.source.payments({ organization_id: ORG, wallet_id: wallet, window: WINDOW })) {
        expect(batch).toHaveLength(7);
        break;
      }
      expect(await store.source.knownPaymentIds(ORG, [rows[0]!.payment_id])).toEqual(new Set([rows[0]!.payment_id]));
    });

    it('round-trips wallets (with balances in order), assets, summaries and findings', async () => {
      const writer = store.writer();
      const run = runInfo('others');
      await writer.beginRun(run);
      const wallets = [walletRow(11), walletRow(10, { balances: [] })];
      await writer.upsertWallets(wallets);
      expect(await store.source.wallets(ORG, wallets.map((wallet) => wallet.wallet_id))).toEqual([...wallets].sort((x, y) => (x.wallet_id < y.wallet_id ? -1 : 1)));
      // A currency that disappears from a wallet's balances disappears from the table.
      const shrunk = { ...walletRow(11), updated_at: '2026-10-02T00:00:00.000000Z', balances: walletRow(11).balances.slice(1) };
      expect(await writer.upsertWallets([shrunk])).toEqual({ inserted: 0, updated: 1, unchanged: 0 });
      expect((await store.source.wallets(ORG, [shrunk.wallet_id]))[0]?.balances).toEqual(shrunk.balances);

      await writer.upsertAssets([ASSET]);
      expect(await store.source.assets()).toEqual([ASSET]);

      const otherEnv = 'env-2';
      await writer.writeSummaries(run.run_id, summaryRows(ENV, 5n), checkpoint('summary:env:1', 1, true));
      await writer.writeSummaries(run.run_id, summaryRows(otherEnv, 7n), checkpoint('summary:env:2', 1, true));
      // A newer run of the same window that only re-pulled ENV: ENV comes from it, env-2 from the first.
      const newer = runInfo('others-2');
      await writer.beginRun(newer);
      await writer.writeSummaries(newer.run_id, summaryRows(ENV, 6n), checkpoint('summary:env:1', 1, true));
      const summaries = await store.source.summaries(ORG, WINDOW);
      expect(summaries).toEqual([...summaryRows(ENV, 6n), ...summaryRows(otherEnv, 7n)].sort((x, y) => (x.environment_id < y.environment_id ? -1 : 1)));
      expect(await store.source.summaries(ORG, { ...WINDOW, to: '2026-10-31T00:00:00.000000Z' })).toEqual([]);

      // One run writes the environment's and each wallet's summaries as separate streams: all are kept.
      // Sharded pulls of the same window each bring some wallets: the newest per scope, whichever run.
      const walletSummary = (walletId: string, count: bigint) => ({ ...summaryRows(ENV, count)[1]!, scope_id: walletId, api_count: count });
      const shardA = runInfo('shard-a');
      const shardB = runInfo('shard-b');
      await writer.beginRun(shardA);
      await writer.beginRun(shardB);
      await writer.writeSummaries(shardA.run_id, [summaryRows(ENV, 8n)[0]!], checkpoint('summary:env:1', 1, true));
      await writer.writeSummaries(shardA.run_id, [walletSummary('w-a', 1n)], checkpoint('summary:wallet:a', 1, true));
      await writer.writeSummaries(shardB.run_id, [walletSummary('w-b', 2n)], checkpoint('summary:wallet:b', 1, true));
      await writer.writeSummaries(shardA.run_id, [walletSummary('w-c', 3n)], checkpoint('summary:wallet:c', 1, true));
      // a retried stream replaces its own buckets only
      await writer.writeSummaries(shardA.run_id, [walletSummary('w-c', 4n)], checkpoint('summary:wallet:c', 1, true));
      // order within an environment is the store's business; the set is what counts
      expect((await store.source.summaries(ORG, WINDOW)).map((s) => `${s.environment_id}/${s.scope}/${s.scope_id}=${s.api_count}`).sort()).toEqual([
        `${ENV}/environment/${ENV}=8`,
        `${ENV}/wallet/${WALLET}=${BEYOND_INT64}`,
        `${ENV}/wallet/w-a=1`,
        `${ENV}/wallet/w-b=2`,
        `${ENV}/wallet/w-c=4`,
        `${otherEnv}/environment/${otherEnv}=7`,
        `${otherEnv}/wallet/${WALLET}=${BEYOND_INT64}`,
      ].sort());

      const findings = Array.from({ length: 5 }, (_, index) => finding(index));
      await writer.writeFindings(run.run_id, findings);
      const { rows } = await db.query<{ message: string; expected: string }>(`SELECT message, expected FROM ${t('findings')} WHERE run_id = $1 ORDER BY finding_id`, [run.run_id]);
      expect(rows.map((row) => row.expected)).toEqual(findings.map((row) => row.expected));
      expect(rows.map((row) => unescapeText(row.message))).toEqual(findings.map((row) => row.message));
    });

    it('keeps every wallet summary of an environment, across streams, retries, resumed runs and shards', async () => {
      const window: Window = { ...WINDOW, from: '2026-09-01T00:00:00.000000Z' };
      const env = 'env-summaries';
      const total = (scope: 'environment' | 'wallet', id: string, n: bigint): SummaryBucketRow => ({
        scope, scope_id: id, environment_id: env, direction: null, status: null, currency: null, kind: null, api_count: n, oldest_created_at: null, newest_created_at: null, flags: [],
      });
      const writer = store.writer();
      const first = runInfo('summaries', window);
      await writer.beginRun(first);
      await writer.writeSummaries(first.run_id, [total('environment', env, 9n)], checkpoint(`summary:env:${env}`, 1, true));
      for (const [id, n] of [['w-a', 1n], ['w-b', 2n], ['w-c', 3n]] as const) {
        await writer.writeSummaries(first.run_id, [total('wallet', id, n)], checkpoint(`summary:wallet:${id}`, 1, true));
      }
      // A retried stream replaces its own summary only.
      await writer.writeSummaries(first.run_id, [total('wallet', 'w-b', 20n)], checkpoint('summary:wallet:w-b', 1, true));
      // A later run (a resumed run, or another shard) that pulled one wallet's summary of the same environment.
      const second = runInfo('summaries-shard-1', window);
      await store.writer().beginRun(second);
      await store.writer().writeSummaries(second.run_id, [total('wallet', 'w-c', 30n)], checkpoint('summary:wallet:w-c', 1, true));
      const byScope = (await store.source.summaries(ORG, window)).map((row) => `${row.scope}:${row.scope_id}=${row.api_count}`).sort();
      expect(byScope).toEqual(['environment:env-summaries=9', 'wallet:w-a=1', 'wallet:w-b=20', 'wallet:w-c=30']);
    });

    it('keeps checkpoints for an unfinished run and clears them when the run succeeds', async () => {
      const runKey = 'nightly:resume';
      const writer = store.writer();
      const first = { ...runInfo(runKey), command: 'nightly' };
      await writer.beginRun(first);
      await writer.writePaymentsPage([paymentRow(800)], { ...checkpoint('payments:a', 1), run_key: runKey });
      await writer.writeLedgerPage([ledgerRow(800)], { ...checkpoint('ledger:a', 2, true), run_key: runKey });
      await writer.finishRun(first.run_id, 'failed', { payments: 1 });

      const resumed = store.writer();
      const second = { ...runInfo(runKey), command: 'nightly' };
      const left = await resumed.beginRun(second);
      expect(left).toEqual([
        { ...checkpoint('ledger:a', 2, true), run_key: runKey },
        { ...checkpoint('payments:a', 1), run_key: runKey },
      ]);
      await resumed.finishRun(second.run_id, 'succeeded', { payments: 1 });
      expect(await store.loadCheckpoints(runKey)).toEqual([]);
      const { rows } = await db.query<{ status: string; counts: string; params: string }>(`SELECT status, counts::text AS counts, parameters ->> 'note' AS params FROM ${t('runs')} WHERE run_id = $1`, [second.run_id]);
      expect(rows).toEqual([{ status: 'succeeded', counts: '{"payments": 1}', params: "it's \u24000 data" }]);
    });

    it('lists open payments for nightly re-reads', async () => {
      const writer = store.writer();
      await writer.beginRun(runInfo('open'));
      const org = 'org-open';
      await writer.writePaymentsPage(
        [
          paymentRow(900, { organization_id: org, status: 'sending', status_class: 'open' }),
          paymentRow(901, { organization_id: org }),
          paymentRow(902, { organization_id: org, status: 'teleporting', status_class: 'unknown', wallet_id: 'w-0' }),
        ],
        checkpoint('payments:open', 1),
      );
      const open = await store.openPayments(org);
      expect(open.map((row) => [row.payment_id, row.status])).toEqual([
        [paymentRow(900).payment_id, 'sending'],
        [paymentRow(902).payment_id, 'teleporting'],
      ]);
      expect(await store.openPayments(org, { wallet_ids: [WALLET] })).toHaveLength(1);
    });

    it('reads the same payments and ledger entries packed into one JSON array per row as column by column', async () => {
      const everything: Window = { from: '1900-01-01T00:00:00.000000Z', to: '2100-01-01T00:00:00.000000Z', tz: 'UTC' };
      const read = async (packRows: boolean, withoutRaw: boolean): Promise<[PaymentRow[], LedgerRow[]]> => {
        const source = createReportSource(db, store.schema, { packRows, batchRows: 7 });
        const { rows: payments } = await collect(source.payments({ organization_id: ORG, wallet_id: WALLET, window: everything, withoutRaw }));
        const { rows: ledger } = await collect(source.ledger(ORG, WALLET, { withoutRaw }));
        return [payments, ledger];
      };
      for (const withoutRaw of [false, true]) {
        const [payments, ledger] = await read(false, withoutRaw);
        // what the earlier tests wrote: hostile strings (one payment of 1999), big integers, arrays, raw JSON
        expect(payments.length).toBeGreaterThan(20);
        expect(ledger.length).toBeGreaterThan(10);
        expect(await read(true, withoutRaw)).toEqual([payments, ledger]);
      }
    });

    it('closes a period once and reports it closed', async () => {
      expect(await store.isPeriodClosed(ORG, '2026-10')).toBe(false);
      expect(await store.closePeriod({ organizationId: ORG, period: '2026-10', window: WINDOW, runId: 'run-x', note: 'closed by test' })).toBe(true);
      expect(await store.closePeriod({ organizationId: ORG, period: '2026-10', window: WINDOW, runId: 'run-y' })).toBe(false);
      expect(await store.isPeriodClosed(ORG, '2026-10')).toBe(true);
      expect(await store.getClosedPeriod(ORG, '2026-10')).toMatchObject({ run_id: 'run-x', window: { from: WINDOW.from, to: WINDOW.to }, tz: 'UTC', note: 'closed by test' });
    });

    it('writes through the unnest fallback (no COPY) with the same results', async () => {
      const fallback = databaseSnapshot(withoutCopy(db), { schema: schemaName, batchRows: 1000 });
      const writer = fallback.writer();
      await writer.beginRun(runInfo('fallback'));
      const wallet = 'wallet-fallback';
      const page = [hostilePayment(1000), ...Array.from({ length: 1200 }, (_, index) => paymentRow(1001 + index, { wallet_id: wallet }))].map((row) => ({ ...row, wallet_id: wallet }));
      expect(await writer.writePaymentsPage(page, checkpoint('payments:fallback', 1))).toMatchObject({ inserted: 1201, updated: 0, history: 1201 });
      expect(await writer.writePaymentsPage(page, checkpoint('payments:fallback', 1))).toEqual({ inserted: 0, updated: 0, unchanged: 1201, history: 0 });
      const wide: Window = { from: '1999-01-01T00:00:00.000000Z', to: '2027-01-01T00:00:00.000000Z', tz: 'UTC' };
      const { rows } = await collect(fallback.source.payments({ organization_id: ORG, wallet_id: wallet, window: wide }));
      expect(rows).toEqual(sortPayments(page));
      await writer.upsertWallets([walletRow(20)]);
      expect(await fallback.source.wallets(ORG, [walletRow(20).wallet_id])).toEqual([walletRow(20)]);
    });

    it('reports every hostile string back exactly', async () => {
      const writer = store.writer();
      await writer.beginRun(runInfo('hostile'));
      const wallet = 'wallet-hostile';
      const rows = HOSTILE_STRINGS.map((text, index) => paymentRow(1300 + index, { wallet_id: wallet, description: text, metadata: { [text]: text }, flags: [text] }));
      await writer.writePaymentsPage(rows, checkpoint('payments:hostile', 1));
      const { rows: read } = await collect(store.source.payments({ organization_id: ORG, wallet_id: wallet, window: WINDOW }));
      expect(read).toEqual(sortPayments(rows));
    });

    it('round-trips generated raw JSON, metadata, text and arrays exactly (property, one page)', async () => {
      const writer = store.writer();
      await writer.beginRun(runInfo('property'));
      const wallet = 'wallet-property';
      const samples = fc.sample(
        fc.record({ raw: rawJson, description: awkwardString, metadata: fc.dictionary(awkwardString, awkwardString, { maxKeys: 5 }), tx_ids: fc.array(awkwardString, { maxLength: 4 }), total_base: fc.bigInt({ min: -(10n ** 38n), max: 10n ** 38n }) }),
        { numRuns: 150, seed: 20261122 },
      );
      const rows = samples.map((sample, index) => paymentRow(2000 + index, { ...sample, wallet_id: wallet }));
      await writer.writePaymentsPage(rows, checkpoint('payments:property', 1));
      const { rows: read } = await collect(store.source.payments({ organization_id: ORG, wallet_id: wallet, window: WINDOW }));
      expect(read).toEqual(sortPayments(rows));
      expect(await writer.writePaymentsPage(rows, checkpoint('payments:property', 1))).toMatchObject({ inserted: 0, updated: 0 });
    });

    it('refuses pages before beginRun (history rows need their run)', async () => {
      const writer = store.writer();
      await expect(writer.writePaymentsPage([], checkpoint('x', 1))).rejects.toBeInstanceOf(AppError);
    });
  });
}
