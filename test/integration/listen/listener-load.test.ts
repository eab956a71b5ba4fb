import { afterAll, describe, expect, it } from 'vitest';
import { runListenLoad } from '../../../bench/listen-load.js';
import { openPostgres } from '../../../src/store/db/pg-db.js';
import { dropSchema, probePostgres, uniqueSchemaName } from '../../support/store/engines.js';

/**
 * A bounded load on loopback: 2,000 signed deliveries from 16 keep-alive clients. Asserts that
 * every one was answered 2xx and landed in the snapshot exactly once; the rates and latencies are
 * printed (and recorded in docs/benchmarks.md), never asserted — speed belongs in bench/.
 */
const pg = await probePostgres();
const schema = uniqueSchemaName('listen_load');

describe.skipIf(pg.url === null)(`listener load on loopback${pg.skipReason ? ` (skipped: ${pg.skipReason})` : ''}`, () => {
  afterAll(async () => {
    const db = await openPostgres({ url: pg.url as string });
    await dropSchema(db, schema);
    await db.close();
  });

  it('answers 2,000 deliveries 2xx and applies each once', async () => {
    const result = await runListenLoad({ databaseUrl: pg.url as string, schema, deliveries: 2_000, concurrency: 16 });
    console.log(`listener load: ${JSON.stringify(result)}`);
    expect(result.statuses).toEqual({ 204: 2_000 });
    expect(result.inboxProcessed).toBe(2_000);
    expect(result.paymentsStored).toBe(2_000);
  }, 120_000);
});
