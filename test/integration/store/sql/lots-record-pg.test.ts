/**
 * The lots record's 1 January 2025 allocation (lot_period_allocations, migration 015) on a
 * PostgreSQL server: staged with the period, confirmed with it, and read back by period() and
 * latestEndingBy() as it was staged — rows in order, unknown cost and opening balances (no ref) as
 * null, the statement's file and the close's check; a period staged without one (as before the
 * migration) reads back without one, and a re-close replaces the rows.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LotPeriodRecord, LotsRecord, RecordedAllocation } from '../../../../src/model/lots-record.js';
import type { Db } from '../../../../src/store/db/db.js';
import { openPostgres } from '../../../../src/store/db/pg-db.js';
import { databaseSnapshot } from '../../../../src/store/database-snapshot.js';
import { dropSchema, probePostgres, uniqueSchemaName } from '../../../support/store/engines.js';

const pg = await probePostgres();
const ORG = "org-'alloc'\u0000";
const WALLET = '086d41a7-d600-4778-91bb-6e19c5d461d0';

const allocation: RecordedAllocation = {
  file: 'opening lots, 2025.csv',
  lots: [
    { walletId: WALLET, currency: 'btc', acquiredAt: '2024-03-15T12:00:00.000000Z', units: 854_000_000_000n, cost: 55_510_000n, ref: 'deposited:6b1cc87a' },
    // beyond 2^63: numeric(39,0), not bigint
    { walletId: WALLET, currency: 'asset:0a1b', acquiredAt: '2024-12-31T23:00:00.000000Z', units: 99_999_999_999_999_999_999n, cost: null, ref: null },
  ],
  check: { warning: "the opening-lots file 'x'.csv no longer gives the allocation (section 4.02(6))" },
};

function record(period: string, from: string, to: string, with_: RecordedAllocation | undefined): LotPeriodRecord {
  return {
    period,
    windowFrom: from,
    windowTo: to,
    figures: [],
    lots: [{ lotId: 'lot-1', walletId: WALLET, currency: 'btc', acquiredAt: '2024-03-15T12:00:00.000000Z', origin: 'deposit', units: 1_000n, cost: 10n }],
    reliefs: [],
    notes: [],
    ...(with_ === undefined ? {} : { allocation: with_ }),
  };
}

describe.skipIf(pg.url === null)(`the lots record's allocation on a PostgreSQL server${pg.skipReason === null ? '' : ` (skipped: ${pg.skipReason})`}`, () => {
  let db: Db;
  let lots: LotsRecord;
  const schemaName = uniqueSchemaName('lotalloc');

  beforeAll(async () => {
    db = await openPostgres({ url: pg.url ?? '' });
    const store = databaseSnapshot(db, { schema: schemaName });
    await store.migrate();
    lots = store.lotsRecord;
  });

  afterAll(async () => {
    if (db) {
      await dropSchema(db, schemaName);
      await db.close();
    }
  });

  it('stages the allocation with the period and reads it back, by period() and latestEndingBy(), once confirmed', async () => {
    await lots.stage(ORG, 'run-oct', record('2026-10', '2026-10-01T04:00:00.000000Z', '2026-11-01T04:00:00.000000Z', allocation));
    // pending: not yet the record
    expect(await lots.period(ORG, '2026-10')).toBeNull();
    expect(await lots.confirm('run-oct')).toBe(1);
    expect((await lots.period(ORG, '2026-10'))?.allocation).toEqual(allocation);
    expect((await lots.latestEndingBy(ORG, '2026-11-01T04:00:00.000000Z'))?.allocation).toEqual(allocation);
  });

  it('keeps an empty allocation, one without a file and one whose check did not run apart from none at all', async () => {
    const empty: RecordedAllocation = { file: null, lots: [], check: null };
    await lots.stage(ORG, 'run-nov', record('2026-11', '2026-11-01T04:00:00.000000Z', '2026-12-01T05:00:00.000000Z', empty));
    await lots.stage(ORG, 'run-dec', record('2026-12', '2026-12-01T05:00:00.000000Z', '2027-01-01T05:00:00.000000Z', undefined));
    await lots.confirm('run-nov');
    await lots.confirm('run-dec');
    expect((await lots.period(ORG, '2026-11'))?.allocation).toEqual(empty);
    // a period recorded without it (as before migration 015): the run falls back to the file
    const december = await lots.period(ORG, '2026-12');
    expect(december).not.toBeNull();
    expect(december?.allocation).toBeUndefined();
    expect(await lots.latestEndingBy(ORG, '2027-01-01T05:00:00.000000Z')).not.toHaveProperty('allocation');
  });

  it("a re-close replaces the period's allocation rows (nothing of the earlier record left)", async () => {
    const again: RecordedAllocation = { file: 'opening-lots.csv', lots: [{ ...(allocation.lots[0] as RecordedAllocation['lots'][number]), cost: 1n }], check: { warning: null } };
    await lots.stage(ORG, 'run-oct-2', record('2026-10', '2026-10-01T04:00:00.000000Z', '2026-11-01T04:00:00.000000Z', again));
    await lots.confirm('run-oct-2');
    expect((await lots.period(ORG, '2026-10'))?.allocation).toEqual(again);
    const { rows } = await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${databaseSnapshot(db, { schema: schemaName }).schema.table('lot_period_allocations')} WHERE period = '2026-10'`);
    expect(rows[0]?.n).toBe(1);
  });
});
