/**
 * From a loaded configuration to a running listener: the checks (organization, a Postgres
 * server, credentials, webhook secrets — all before the port opens), the database migrated, the
 * API readers for re-reads and sweeps.
 *
 * Why a Postgres server and not the embedded engine: the embedded engine is one process's
 * database in a folder. A listener runs for weeks and would hold that folder, so the nightly job —
 * another process — could not open the snapshot beside it; and its inbox would be durable only as
 * far as that single process flushes it. Exit 78 with that reason instead.
 */
import type { LoadedConfig } from '../config/load.js';
import { listenSchema, type ListenConfig } from '../config/listen-schema.js';
import { createApiSet } from '../jobs/api-clients.js';
import { newRunId } from '../jobs/run-key.js';
import { openPostgres } from '../store/db/pg-db.js';
import { databaseSnapshot } from '../store/database-snapshot.js';
import { configError } from '../util/errors.js';
import type { Logger } from '../util/log.js';
import type { SecretScrubber } from '../util/secret-scrubber.js';
import { startListener, type Listener } from './listener.js';
import { loadWebhookSecrets } from './webhook-secrets.js';

export interface RunListenOptions {
  loaded: LoadedConfig;
  /** listen settings given as flags, over the config file's `listen` section */
  overrides?: Partial<ListenConfig>;
  env: Readonly<Record<string, string | undefined>>;
  log: Logger;
  scrubber: SecretScrubber;
  pollMs?: number;
}

export interface RunningListener {
  listener: Listener;
  /** stops the listener, then closes the API clients and the database */
  close(): Promise<void>;
}

export async function runListen(options: RunListenOptions): Promise<RunningListener> {
  const { config, secrets } = options.loaded;
  const organizationId = config.organization;
  if (!organizationId) throw configError('missing_organization', 'no organization: set --organization or PAYEXPORT_ORGANIZATION_ID');
  if (!secrets.databaseUrl) {
    throw configError(
      'listen_needs_postgres',
      'listen needs a Postgres server (DATABASE_URL or --database-url): the embedded database belongs to one process, so a long-running listener would lock the nightly job out of the snapshot',
    );
  }
  const listenConfig = listenSchema.parse({ ...config.listen, ...options.overrides });
  const webhookSecrets = loadWebhookSecrets({ env: options.env, file: listenConfig.secretsFile, onSecret: (s) => options.scrubber.add(s) });
  const apis = createApiSet({ loaded: options.loaded, scrubber: options.scrubber, log: options.log });
  let db;
  try {
    // Enough connections for concurrent deliveries beside the worker and the sweep; a statement that
    // hangs is cut well inside the service's 10 s, so the delivery gets a 503 and is retried.
    db = await openPostgres({ url: secrets.databaseUrl, poolSize: 12, statementTimeoutMs: 8_000, lockTimeoutMs: 5_000 });
  } catch (error) {
    await apis.close();
    throw error;
  }
  try {
    const snapshot = databaseSnapshot(db, { schema: config.dbSchema });
    await snapshot.migrate();
    const runId = newRunId(new Date());
    const listener = await startListener({
      db,
      schema: snapshot.schema,
      organizationId,
      environmentIds: config.environments.map((e) => e.id.toLowerCase()),
      apiFor: (environmentId) => (environmentId === undefined ? (apis.readers[0]?.api ?? apis.apiFor('')) : apis.apiFor(environmentId)),
      pageSize: config.pageSize,
      config: listenConfig,
      secrets: webhookSecrets,
      log: options.log.child({ listener: runId }),
      runId,
      newRunId: () => newRunId(new Date()),
      ...(options.pollMs === undefined ? {} : { pollMs: options.pollMs }),
    });
    return {
      listener,
      async close() {
        try {
          await listener.stop();
        } finally {
          await apis.close();
          await db.close();
        }
      },
    };
  } catch (error) {
    await apis.close();
    await db.close();
    throw error;
  }
}
