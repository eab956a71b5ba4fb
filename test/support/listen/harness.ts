/**
 * The listener's end-to-end harness: a simulator, a webhook registered through its API, payments
 * written through its API, and `runListen` started from a real loaded configuration against the
 * real Postgres (a schema of its own per listener).
 */
import { randomUUID } from 'node:crypto';
import { createServer } from 'node:net';
import { loadConfig } from '../../../src/config/load.js';
import type { ListenConfig } from '../../../src/config/listen-schema.js';
import { runListen, type RunningListener } from '../../../src/listen/run-listen.js';
import type { SimHandle } from '../../../src/sim/index.js';
import type { Db } from '../../../src/store/db/db.js';
import { createMemoryLogger } from '../../../src/util/log.js';
import { SecretScrubber } from '../../../src/util/secret-scrubber.js';
import { call, envPath } from '../sim/sim-client.js';

export const ALL_EVENTS = [{ send: 'succeeded' }, { send: 'failed' }, { receive: 'generated' }, { receive: 'completed' }, { receive: 'expired' }, { receive: 'failed' }];

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

export async function registerWebhook(sim: SimHandle, url: string): Promise<{ id: string; secret: string }> {
  const id = randomUUID();
  const reply = await call(sim, `${envPath(sim)}/webhooks`, { body: { id, url, name: 'payexport listen', events: ALL_EVENTS } });
  if (reply.status !== 202) throw new Error(`webhook registration failed: ${reply.status} ${reply.text}`);
  return { id, secret: reply.json['shared_secret'] as string };
}

export function btcWallet(sim: SimHandle): string {
  const wallet = sim.dataset.wallets.find((w) => w.environmentIndex === 0 && w.currencyKind === 'btc' && w.deactivatedUs === null);
  if (!wallet) throw new Error('the dataset has an active BTC wallet in environment 0');
  return wallet.id;
}

/** `n` payments through the API: sends (some failing) and receives (some expiring), ids returned. */
export async function makePayments(sim: SimHandle, n: number, walletId = btcWallet(sim)): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < n; i++) {
    const id = randomUUID();
    ids.push(id);
    const body =
      i % 2 === 0
        ? { id, wallet_id: walletId, currency: 'btc', type: 'bolt11', data: { payment_request: i % 6 === 0 ? `lnbc${i + 1}u1pfail` : `lnbc${i + 1}u1plisten` } }
        : { id, wallet_id: walletId, payment_kind: 'bolt11', amount: { currency: 'btc', amount: 1_000_000 + i * 1000 }, ...(i % 5 === 0 ? { metadata: { simulate: 'expire' } } : {}) };
    const reply = await call(sim, `${envPath(sim)}/payments`, { body });
    if (reply.status !== 202) throw new Error(`payment ${i} refused: ${reply.status} ${reply.text}`);
  }
  return ids;
}

export interface ListenerRun extends RunningListener {
  scrubber: SecretScrubber;
  logLines(): string[];
}

export async function startListenerFor(options: {
  sim: SimHandle;
  databaseUrl: string;
  schema: string;
  port: number;
  secrets: Record<string, string[]>;
  listen?: Partial<ListenConfig>;
}): Promise<ListenerRun> {
  const scrubber = new SecretScrubber([options.sim.bearerToken]);
  const env = { PAYEXPORT_BEARER_TOKEN: options.sim.bearerToken, DATABASE_URL: options.databaseUrl, PAYEXPORT_WEBHOOK_SECRETS: JSON.stringify(options.secrets) };
  const loaded = loadConfig({ flags: { baseUrl: options.sim.baseUrl, organization: options.sim.organizationId, dbSchema: options.schema }, env, cwd: process.cwd() });
  const memory = createMemoryLogger({ scrubber, level: 'info' });
  const running = await runListen({
    loaded,
    overrides: { host: '127.0.0.1', port: options.port, sweepMinutes: 0, ...options.listen },
    env,
    log: memory.log,
    scrubber,
    pollMs: 100,
  });
  return { ...running, scrubber, logLines: () => memory.lines };
}

/** The stored state of some payments: id → row_hash (a digest of every stored column) + status + updated_at. */
export async function snapshotOf(db: Db, schema: string, ids: readonly string[]): Promise<Record<string, string>> {
  const { rows } = await db.query<{ payment_id: string; state: string }>(
    `SELECT payment_id, row_hash || ' ' || status || ' ' || to_char(updated_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US') AS state FROM "${schema}".payments WHERE payment_id = ANY($1::text[]) ORDER BY payment_id`,
    [ids],
  );
  return Object.fromEntries(rows.map((r) => [r.payment_id, r.state]));
}
