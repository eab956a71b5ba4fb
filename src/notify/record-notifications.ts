/**
 * Keeps each delivery's fate in the snapshot database (table `notifications`, migration 003),
 * beside the run's own row. The run's snapshot is closed by then, so this opens it once more; a
 * database that cannot be reached costs a warning, never the run. `--no-db` has no table: the log
 * lines are the record. The embedded database is not created just to hold these rows.
 */
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import type { LoadedConfig } from '../config/load.js';
import { insertNotifications } from '../store/sql/notifications.js';
import { openDatabaseSnapshot } from '../store/database-snapshot.js';
import type { Logger } from '../util/log.js';
import type { DeliveryResult } from './delivery-result.js';

export async function recordNotifications(loaded: LoadedConfig, cwd: string, runId: string, results: readonly DeliveryResult[], log: Logger): Promise<boolean> {
  const { config, secrets } = loaded;
  if (results.length === 0 || !config.db) return false;
  const dataDir = resolve(cwd, config.dataDir);
  if (secrets.databaseUrl === undefined && !existsSync(dataDir)) return false;
  try {
    const snapshot = await openDatabaseSnapshot({ schema: config.dbSchema, ...(secrets.databaseUrl ? { databaseUrl: secrets.databaseUrl } : { dataDir }) });
    try {
      await insertNotifications(
        snapshot.db,
        snapshot.schema,
        results.map((r) => ({ run_id: runId, destination: r.destination, kind: r.kind, event: r.event, outcome: r.outcome, attempts: r.attempts, detail: r.detail, duration_ms: r.duration_ms })),
      );
      return true;
    } finally {
      await snapshot.close();
    }
  } catch (error) {
    log.warn({ err: error instanceof Error ? error.message : String(error) }, 'could not record the notifications in the database');
    return false;
  }
}
