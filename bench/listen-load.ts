/**
 * The listener under load on loopback (bounded: a fixed number of deliveries, nothing timed in a
 * test): N signed deliveries of realistic payment bodies POSTed by C concurrent keep-alive
 * clients to `payexport listen` (in process, real Postgres), measuring deliveries per second
 * answered, the latency to the 2xx (p50/p99/max), and how long the worker takes to drain the
 * inbox into the snapshot. Reused by test/integration/listen/listener-load.test.ts (which checks
 * every delivery landed) and runnable alone:
 *
 *   node --import tsx bench/listen-load.ts --deliveries 2000 --concurrency 16
 */
import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { Pool } from 'undici';
import { loadConfig } from '../src/config/load.js';
import { runListen } from '../src/listen/run-listen.js';
import { startSimulator } from '../src/sim/index.js';
import { openPostgres } from '../src/store/db/pg-db.js';
import { quoteIdent } from '../src/store/db/schema.js';
import { silentLogger } from '../src/util/log.js';
import { SecretScrubber } from '../src/util/secret-scrubber.js';
import { signPayload } from '../src/util/webhook-signature.js';

export interface ListenLoadOptions {
  databaseUrl: string;
  schema: string;
  deliveries: number;
  concurrency: number;
}

export interface ListenLoadResult {
  deliveries: number;
  concurrency: number;
  bodyBytes: number;
  sendSeconds: number;
  deliveriesPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  maxMs: number;
  statuses: Record<string, number>;
  /** from the first delivery sent to the inbox empty */
  drainSeconds: number;
  appliedPerSecond: number;
  paymentsStored: number;
  inboxProcessed: number;
}

function percentile(sorted: readonly number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? 0;
}

export async function runListenLoad(options: ListenLoadOptions): Promise<ListenLoadResult> {
  const sim = await startSimulator({ seed: 5, scale: 500, wallets: 4 });
  const db = await openPostgres({ url: options.databaseUrl });
  const webhookId = randomUUID();
  const secret = `vltg_whsec_${randomUUID()}`;
  const env = { PAYEXPORT_BEARER_TOKEN: sim.bearerToken, DATABASE_URL: options.databaseUrl, PAYEXPORT_WEBHOOK_SECRETS: JSON.stringify({ [webhookId]: [secret] }) };
  const loaded = loadConfig({ flags: { baseUrl: sim.baseUrl, organization: sim.organizationId, dbSchema: options.schema }, env, cwd: process.cwd() });
  const running = await runListen({ loaded, overrides: { host: '127.0.0.1', port: 0, sweepMinutes: 0 }, env, log: silentLogger(), scrubber: new SecretScrubber() });
  try {
    // Realistic bodies: the simulator's own payments, each delivered under a fresh id.
    const environmentId = sim.environments[0]!.id;
    const page = (await (await fetch(`${sim.baseUrl}/organizations/${sim.organizationId}/environments/${environmentId}/payments?limit=100`, { headers: { authorization: `Bearer ${sim.bearerToken}` } })).json()) as { items: Array<Record<string, unknown>> };
    const bodies = Array.from({ length: options.deliveries }, (_, i) => {
      const payment = page.items[i % page.items.length] as Record<string, unknown>;
      return JSON.stringify({ type: payment['direction'] === 'send' ? 'send' : 'receive', detail: { event: 'completed', data: { ...payment, id: randomUUID() } } });
    });
    const bodyBytes = bodies.reduce((sum, b) => sum + Buffer.byteLength(b), 0);
    const pool = new Pool(`http://127.0.0.1:${running.listener.port}`, { connections: options.concurrency, pipelining: 1 });
    const latencies: number[] = [];
    const statuses: Record<string, number> = {};
    let next = 0;
    const started = performance.now();
    const client = async (): Promise<void> => {
      while (next < bodies.length) {
        const body = bodies[next++] as string;
        const ts = Math.floor(Date.now() / 1000);
        const t0 = performance.now();
        const response = await pool.request({
          method: 'POST',
          path: '/webhooks/voltage',
          headers: { 'content-type': 'application/json', 'x-voltage-webhook-id': webhookId, 'x-voltage-timestamp': String(ts), 'x-voltage-signature': signPayload(secret, body, ts) },
          body,
        });
        await response.body.dump();
        latencies.push(performance.now() - t0);
        statuses[response.statusCode] = (statuses[response.statusCode] ?? 0) + 1;
      }
    };
    await Promise.all(Array.from({ length: options.concurrency }, client));
    const sendSeconds = (performance.now() - started) / 1000;
    await running.listener.drained();
    const drainSeconds = (performance.now() - started) / 1000;
    await pool.close();
    const table = (name: string): string => `${quoteIdent(options.schema)}.${quoteIdent(name)}`;
    const stored = await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${table('payments')} WHERE last_run_id IS NOT NULL`);
    const processed = await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${table('webhook_inbox')} WHERE outcome = 'applied'`);
    latencies.sort((a, b) => a - b);
    const round = (x: number): number => Math.round(x * 100) / 100;
    return {
      deliveries: options.deliveries,
      concurrency: options.concurrency,
      bodyBytes: Math.round(bodyBytes / options.deliveries),
      sendSeconds: round(sendSeconds),
      deliveriesPerSecond: Math.round(options.deliveries / sendSeconds),
      p50Ms: round(percentile(latencies, 50)),
      p99Ms: round(percentile(latencies, 99)),
      maxMs: round(latencies.at(-1) ?? 0),
      statuses,
      drainSeconds: round(drainSeconds),
      appliedPerSecond: Math.round(options.deliveries / drainSeconds),
      paymentsStored: stored.rows[0]?.n ?? 0,
      inboxProcessed: processed.rows[0]?.n ?? 0,
    };
  } finally {
    await running.close();
    await db.close();
    await sim.close();
  }
}

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { deliveries: { type: 'string', default: '2000' }, concurrency: { type: 'string', default: '16' } } });
  const databaseUrl = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
  const schema = `payexport_bench_listen_${process.pid}`;
  try {
    console.log(JSON.stringify(await runListenLoad({ databaseUrl, schema, deliveries: Number(values.deliveries), concurrency: Number(values.concurrency) }), null, 2));
  } finally {
    const db = await openPostgres({ url: databaseUrl });
    await db.query(`DROP SCHEMA IF EXISTS ${quoteIdent(schema)} CASCADE`);
    await db.close();
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) await main();
