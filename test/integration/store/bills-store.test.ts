/**
 * Bills in the snapshot: written page by page with their checkpoint, read back equal (amounts beyond
 * 2^53 digit for digit) for the windows their periods overlap, a line item the bill no longer lists
 * removed, and — on Postgres — one history row per observed change of a bill's status or amounts,
 * none for a re-read that changed nothing. The spool (--no-db) keeps the same contract.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { normalizeBill, normalizeBillSummary } from '../../../src/normalize/bill.js';
import type { BillRecord } from '../../../src/model/rows.js';
import { openPostgres } from '../../../src/store/db/pg-db.js';
import type { Checkpoint, ReportSource, RunInfo, SnapshotWriter } from '../../../src/model/ports.js';
import type { Window } from '../../../src/model/window.js';
import { SpoolStore } from '../../../src/store/spool/spool-store.js';
import { databaseSnapshot } from '../../../src/store/database-snapshot.js';
import { btc } from '../../support/wire/examples.js';
import { dropSchema, probePostgres, uniqueSchemaName } from '../../support/store/engines.js';

const ORG = 'b0684ab8-1130-46af-8f70-71519442f108';
const LOC = '5f1c1e4e-3b7a-4c55-9d1e-0f2a3b4c5d6e';
const OCTOBER: Window = { from: '2026-10-01T00:00:00.000000Z', to: '2026-11-01T00:00:00.000000Z', tz: 'UTC' };
const HUGE = 12_345_678_901_234_567n;

function wire(id: string, start: string, end: string, status: string, wallets: string[]): Record<string, unknown> {
  return {
    id, organization_id: ORG, line_of_credit_id: LOC, start_time: start, end_time: end, period_length: 'weekly', status, settlement_type: 'Payout', wallet_ids: wallets,
    invoice: {
      line_of_credit_id: LOC, created_at: end, due_date: end, service_fee: btc(25_000_000),
      line_items: wallets.map((w) => ({
        wallet_id: w, currency: 'btc', starting_balance: btc(5, true), amount_total: btc(HUGE), settlement_type: 'Payout', total_transactions_sent: 0, amount_sent: btc(0),
        total_transactions_received: 3, amount_received: btc(HUGE), processing_fees: { total: btc(7), send: btc(0), receive: btc(7) }, volume_fee: btc(12_345_678_901_234), interest_fee: btc(0),
      })),
    },
    amt_due: btc(HUGE), created_at: end, updated_at: status === 'paid' ? '2026-10-20T00:00:00Z' : end,
  };
}

const W1 = '7a68a525-9d11-4c1e-a3dd-1c2bf1378ba2';
const W2 = '8b79b636-ae22-4d2f-b4ee-2d3cf2489cb3';
const inside = (status: string, wallets = [W1, W2]): BillRecord => normalizeBill(wire('11111111-1111-4111-8111-111111111111', '2026-10-05T00:00:00Z', '2026-10-12T00:00:00Z', status, wallets));
const september = normalizeBill(wire('22222222-2222-4222-8222-222222222222', '2026-09-21T00:00:00Z', '2026-09-28T00:00:00Z', 'paid', [W1]));

let runs = 0;
const run = (): RunInfo => ({ run_id: `bills-run-${++runs}`, run_key: 'month-end:bills', command: 'month-end', organization_id: ORG, window: OCTOBER, parameters: {}, started_at: `2026-11-01T00:00:0${runs}.000000Z` });
const checkpoint = (stream: string, pages: number): Checkpoint => ({ run_key: 'month-end:bills', stream, position: '{"next":null,"listed":2}', pages, rows: pages, done: true });

async function exercise(writer: SnapshotWriter, source: ReportSource, runId: string): Promise<void> {
  await writer.writeBillsPage([inside('payment_due'), september], checkpoint(`bills:loc:${LOC}`, 1));
  await writer.writeBillSummary(runId, normalizeBillSummary({ organization_id: ORG, bill_total_count: 2, inflight_total_count: 0, amount_units: {}, by_currency: { btc: { bill_total_count: 2, inflight_total_count: 0, total_due_base_units: HUGE, oldest_created_at: '2026-09-28T00:00:00Z', newest_created_at: '2026-10-12T00:00:00Z', by_status: {} } }, by_status: {} }, LOC, 2), checkpoint(`bills-summary:loc:${LOC}`, 1));
  const read = await source.bills(ORG, OCTOBER);
  expect(read).toEqual([inside('payment_due')]);
  expect(read[0]?.line_items[0]?.amount_received_base).toBe(HUGE);
  expect(read[0]?.line_items[0]?.starting_balance_base).toBe(-5n);
  expect(await source.billSummaries(ORG, OCTOBER)).toMatchObject([{ line_of_credit_id: LOC, bill_total_count: 2n, listed_count: 2, total_due_base: { btc: HUGE.toString() } }]);
  // the bill is paid and lists one wallet fewer: the stored state follows, the dropped line item goes
  await writer.writeBillsPage([inside('paid', [W1])], checkpoint(`bills:loc:${LOC}`, 2));
  expect(await source.bills(ORG, OCTOBER)).toEqual([inside('paid', [W1])]);
}

describe('bills on the spool (--no-db)', () => {
  it('round-trip, latest copy wins, periods filtered by overlap', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'payexport-bills-'));
    try {
      const spool = new SpoolStore(dir);
      const info = run();
      await spool.beginRun(info);
      await exercise(spool, spool, info.run_id);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

const pg = await probePostgres();
const schemas: string[] = [];
afterAll(async () => {
  if (pg.url === null) return;
  const db = await openPostgres({ url: pg.url });
  try {
    for (const s of schemas) await dropSchema(db, s);
  } finally {
    await db.close();
  }
});

describe.skipIf(pg.url === null)(`bills on PostgreSQL${pg.skipReason === null ? '' : ` (skipped: ${pg.skipReason})`}`, () => {
  it('round-trip, line items replaced, and one history row per observed change', async () => {
    const db = await openPostgres({ url: pg.url as string });
    const schema = uniqueSchemaName('bills_store');
    schemas.push(schema);
    try {
      const store = databaseSnapshot(db, { schema });
      await store.migrate();
      const writer = store.writer();
      const info = run();
      await writer.beginRun(info);
      await exercise(writer, store.source, info.run_id);
      // a re-read that changed nothing adds no history
      await writer.writeBillsPage([inside('paid', [W1])], checkpoint(`bills:loc:${LOC}`, 3));
      const { rows } = await db.query<{ bill_id: string; change: string; status: string; previous_status: string | null; changed_fields: string[] }>(
        `SELECT bill_id, change, status, previous_status, changed_fields FROM ${store.schema.table('bill_history')} ORDER BY history_id`,
      );
      expect(rows.map((r) => [r.bill_id.slice(0, 2), r.change, r.previous_status, r.status])).toEqual([
        ['11', 'first_seen', null, 'payment_due'],
        ['22', 'first_seen', null, 'paid'],
        ['11', 'changed', 'payment_due', 'paid'],
      ]);
    } finally {
      await db.close();
    }
  });
});
