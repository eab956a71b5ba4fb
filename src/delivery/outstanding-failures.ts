/**
 * Deliveries still failed: for each destination and report folder, the latest outcome recorded is
 * `failed` (no later success or unchanged). Read from the snapshot's deliveries table, or the
 * `--no-db` spool's deliveries.jsonl. For `doctor` ("the delivery of month-end/2026-10 to
 * accountant-sftp failed: …; run payexport deliver …") and for anyone scripting a check.
 */
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import type { LoadedConfig } from '../config/load.js';
import { openDatabaseSnapshot } from '../store/database-snapshot.js';
import type { DeliveryRow } from '../store/sql/deliveries.js';
import { failedDeliveries } from '../store/sql/failed-deliveries.js';
import { noDbDeliveriesPath } from './record-deliveries.js';

export async function outstandingDeliveryFailures(loaded: LoadedConfig, cwd: string): Promise<DeliveryRow[]> {
  const { config, secrets } = loaded;
  if (!config.db) {
    let text: string;
    try {
      text = await readFile(noDbDeliveriesPath(loaded, cwd), 'utf8');
    } catch {
      return [];
    }
    // the file is in time order: the last line per destination and folder is the latest
    const latest = new Map<string, DeliveryRow>();
    for (const line of text.split('\n')) {
      if (line.trim() === '') continue;
      const row = JSON.parse(line) as DeliveryRow;
      latest.set(`${row.destination}\u0000${row.report}`, row);
    }
    return [...latest.values()].filter((r) => r.outcome === 'failed');
  }
  const dataDir = resolve(cwd, config.dataDir);
  if (secrets.databaseUrl === undefined && !existsSync(dataDir)) return [];
  const snapshot = await openDatabaseSnapshot({ schema: config.dbSchema, ...(secrets.databaseUrl ? { databaseUrl: secrets.databaseUrl } : { dataDir }) });
  try {
    return await failedDeliveries(snapshot.db, snapshot.schema);
  } finally {
    await snapshot.close();
  }
}
