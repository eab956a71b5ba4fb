import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../../src/config/load.js';
import type { DeliveryResult } from '../../../src/notify/delivery-result.js';
import { recordNotifications } from '../../../src/notify/record-notifications.js';
import { openDatabaseSnapshot } from '../../../src/store/database-snapshot.js';
import { createMemoryLogger } from '../../../src/util/log.js';

/**
 * The notifications table in the embedded database (migration 003 on PGlite; the Postgres server
 * case runs in test/cli/notify.test.ts): rows written and read back, a repeat overwrites, and a
 * run whose embedded database does not exist yet does not create one just for these rows.
 */

const root = mkdtempSync(join(tmpdir(), 'payexport-notify-record-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const results: DeliveryResult[] = [
  { destination: 'cron-monitor', kind: 'ping', event: 'start', outcome: 'delivered', attempts: 1, detail: 'delivered', duration_ms: 12 },
  { destination: 'finance-slack', kind: 'slack', event: 'run', outcome: 'failed', attempts: 3, detail: 'HTTP 500 from hooks.example.com: down', duration_ms: 2400 },
];

describe('recordNotifications, embedded database', () => {
  it('writes one row per destination and event; a repeat overwrites', async () => {
    const cwd = join(root, 'with-data');
    mkdirSync(join(cwd, 'data'), { recursive: true });
    const loaded = loadConfig({ flags: {}, env: {}, cwd });
    const log = createMemoryLogger();
    expect(await recordNotifications(loaded, cwd, 'run-1', results, log.log)).toBe(true);
    expect(await recordNotifications(loaded, cwd, 'run-1', [{ ...results[1]!, attempts: 2 }], log.log)).toBe(true);
    expect(log.records().filter((r) => r.level === 'warn' || r.level === 40)).toEqual([]);
    const store = await openDatabaseSnapshot({ schema: loaded.config.dbSchema, dataDir: join(cwd, 'data') });
    try {
      const { rows } = await store.db.query<{ destination: string; event: string; outcome: string; attempts: number; detail: string }>(
        `SELECT destination, event, outcome, attempts, detail FROM ${store.schema.table('notifications')} WHERE run_id = $1 ORDER BY destination`,
        ['run-1'],
      );
      expect(rows).toEqual([
        { destination: 'cron-monitor', event: 'start', outcome: 'delivered', attempts: 1, detail: 'delivered' },
        { destination: 'finance-slack', event: 'run', outcome: 'failed', attempts: 2, detail: 'HTTP 500 from hooks.example.com: down' },
      ]);
    } finally {
      await store.close();
    }
  });

  it('no embedded database yet, or --no-db: nothing is created, nothing recorded', async () => {
    const cwd = join(root, 'without-data');
    mkdirSync(cwd);
    const log = createMemoryLogger();
    expect(await recordNotifications(loadConfig({ flags: {}, env: {}, cwd }), cwd, 'run-2', results, log.log)).toBe(false);
    expect(existsSync(join(cwd, 'data'))).toBe(false);
    expect(await recordNotifications(loadConfig({ flags: { db: false }, env: {}, cwd }), cwd, 'run-2', results, log.log)).toBe(false);
  });
});
