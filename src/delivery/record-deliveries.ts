/**
 * Keeps each delivery's fate: in the snapshot database (table `deliveries`, migration 009, either
 * engine) beside the run's own row, or — with `--no-db` — as one JSON line per outcome in
 * `<out>/.state/deliveries.jsonl`, the spool's state folder. The run's snapshot is closed by then,
 * so this opens it once more; a store that cannot be reached costs a warning, never the run.
 * Rows hold no credential: remotes are URLs without one, details have passed the scrubber.
 */
import { existsSync } from 'node:fs';
import { appendFile, mkdir } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import type { LoadedConfig } from '../config/load.js';
import { openDatabaseSnapshot } from '../store/database-snapshot.js';
import { insertDeliveries, type DeliveryRow } from '../store/sql/deliveries.js';
import type { Logger } from '../util/log.js';
import type { DeliveryRecord } from './delivery-record.js';

export const NO_DB_DELIVERIES_FILE = 'deliveries.jsonl';

/** Where `--no-db` keeps the rows: beside the spool's closed periods and locks. */
export function noDbDeliveriesPath(loaded: LoadedConfig, cwd: string): string {
  return join(resolve(cwd, loaded.config.out), '.state', NO_DB_DELIVERIES_FILE);
}

export async function recordDeliveries(loaded: LoadedConfig, cwd: string, runId: string, records: readonly DeliveryRecord[], log: Logger): Promise<'database' | 'spool' | null> {
  const { config, secrets } = loaded;
  if (records.length === 0) return null;
  const rows: DeliveryRow[] = records.map((r) => ({ run_id: runId, ...r }));
  try {
    if (!config.db) {
      const file = noDbDeliveriesPath(loaded, cwd);
      await mkdir(join(file, '..'), { recursive: true });
      await appendFile(file, rows.map((r) => `${JSON.stringify({ ...r, recorded_at: new Date().toISOString() })}\n`).join(''));
      return 'spool';
    }
    const dataDir = resolve(cwd, config.dataDir);
    if (secrets.databaseUrl === undefined && !existsSync(dataDir)) return null;
    const snapshot = await openDatabaseSnapshot({ schema: config.dbSchema, ...(secrets.databaseUrl ? { databaseUrl: secrets.databaseUrl } : { dataDir }) });
    try {
      await insertDeliveries(snapshot.db, snapshot.schema, rows);
      return 'database';
    } finally {
      await snapshot.close();
    }
  } catch (error) {
    log.warn({ err: error instanceof Error ? error.message : String(error) }, 'could not record the deliveries');
    return null;
  }
}
