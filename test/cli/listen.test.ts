import { chmodSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSimulator, type SimHandle } from '../../src/sim/index.js';
import type { Db } from '../../src/store/db/db.js';
import { openPostgres } from '../../src/store/db/pg-db.js';
import { call, envPath } from '../support/sim/sim-client.js';
import { dropSchema, probePostgres, uniqueSchemaName } from '../support/store/engines.js';
import { freePort, makePayments } from '../support/listen/harness.js';
import { assertBuilt, ROOT, runCli, startCli, type RunningCli } from '../support/cli/cli.js';
import { workspace } from '../support/cli/workspace.js';

/**
 * `payexport webhooks register|rotate` and `payexport listen` as subprocesses: the secret only in
 * a 0600 file, a SIGKILL between the inbox commit and the snapshot upsert losing nothing after a
 * restart, a rotated secret accepted by the running listener, SIGTERM ending with exit 0, and the
 * embedded engine refused with exit 78.
 */
const pg = await probePostgres();
assertBuilt();

describe('payexport listen without a Postgres server', () => {
  it('exits 78 and says why', async () => {
    const ws = workspace('listen-78');
    try {
      const result = await runCli(['listen', '--organization', '00000000-0000-4000-8000-000000000000'], { cwd: ws.fresh('run'), env: { PAYEXPORT_API_KEY: 'vltg_test_key_000000', PAYEXPORT_WEBHOOK_SECRETS: '{}' } });
      expect(result.code).toBe(78);
      expect(result.stderr).toMatch(/^payexport: listen needs a Postgres server/m);
    } finally {
      ws.remove();
    }
  });
});

describe.skipIf(pg.url === null)(`payexport listen as a subprocess${pg.skipReason ? ` (skipped: ${pg.skipReason})` : ''}`, () => {
  let sim: SimHandle;
  let db: Db;
  const ws = workspace('listen');
  const schema = uniqueSchemaName('listen_cli');
  let running: RunningCli | null = null;

  beforeAll(async () => {
    // retries long enough (0.2 + 0.4 + 0.8 + 1.6 s) for a listener to notice a rotated secrets file
    sim = await startSimulator({ seed: 23, scale: 200, wallets: 4, timing: { stepMs: 5 }, webhooks: { maxAttempts: 6, retryDelayMs: 200 } });
    db = await openPostgres({ url: pg.url as string });
  });

  afterAll(async () => {
    running?.child.kill('SIGKILL');
    if (db) await dropSchema(db, schema);
    await db?.close();
    await sim?.close();
    ws.remove();
  });

  const env = (): Record<string, string> => ({ DATABASE_URL: pg.url as string, PAYEXPORT_API_KEY: sim.environments[0]!.apiKey });
  // webhooks takes the API's options only (it reads no database and writes no log): listen adds its own
  const api = (): string[] => ['--base-url', sim.baseUrl, '--organization', sim.organizationId, '--environment', sim.environments[0]!.id];
  const common = (): string[] => [...api(), '--schema', schema, '--log-format', 'json'];

  async function until<T>(what: string, probe: () => Promise<T | null>): Promise<T> {
    for (let i = 0; i < 200; i++) {
      const value = await probe();
      if (value !== null) return value;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    throw new Error(`never happened: ${what}`);
  }

  const storedStatus = async (id: string): Promise<string | null> =>
    (await db.query<{ status: string }>(`SELECT status FROM "${schema}".payments WHERE payment_id = $1`, [id]).catch(() => ({ rows: [] as Array<{ status: string }> }))).rows[0]?.status ?? null;

  it('registers, survives a SIGKILL between inbox and upsert, accepts a rotated secret, and stops on SIGTERM with exit 0', async () => {
    const cwd = ws.fresh('listen');
    const port = await freePort();
    const secretsFile = join(cwd, 'webhook-secrets.json');

    const registered = await runCli(['webhooks', 'register', ...api(), '--url', `http://127.0.0.1:${port}/webhooks/voltage`, '--secrets-file', secretsFile], { cwd, env: env() });
    expect(registered.code, registered.stderr).toBe(0);
    const webhookId = /webhook ([0-9a-f-]{36}) registered/.exec(registered.stdout)?.[1] as string;
    const secret = sim.webhooks.get(webhookId)?.sharedSecret as string;
    expect(statSync(secretsFile).mode & 0o777).toBe(0o600);
    expect(JSON.parse(readFileSync(secretsFile, 'utf8'))).toEqual({ [webhookId]: [secret] });
    expect(registered.stdout + registered.stderr).not.toContain(secret);

    const listenArgs = ['listen', ...common(), '--host', '127.0.0.1', '--port', String(port), '--secrets-file', secretsFile, '--sweep-minutes', '0'];
    // 1. killed inside the worker's first transaction: the delivery was committed and answered 2xx
    running = startCli(listenArgs, { cwd, env: { ...env(), PAYEXPORT_FAULT_AT: 'listen:apply:batches=1' } });
    await running.waitForStderr(/listening for webhook deliveries/);
    const [first] = await makePayments(sim, 1);
    await sim.settle();
    const killed = await running.result;
    expect(killed.signal).toBe('SIGKILL');
    const pending = await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM "${schema}".webhook_inbox WHERE payment_id = $1 AND processed_at IS NULL`, [first as string]);
    expect(pending.rows[0]?.n).toBe(1);
    expect(await storedStatus(first as string)).toBeNull();

    // 2. restarted: the inbox is drained, nothing lost
    running = startCli(listenArgs, { cwd, env: env() });
    await running.waitForStderr(/listening for webhook deliveries/);
    const truth = ((await call(sim, `${envPath(sim)}/payments/${first}`)).json as { status: string }).status;
    expect(await until('the killed delivery is applied', () => storedStatus(first as string))).toBe(truth);

    // 3. rotation: the new secret is added as a candidate; the running listener verifies with it
    const rotated = await runCli(['webhooks', 'rotate', ...api(), '--webhook-id', webhookId, '--secrets-file', secretsFile], { cwd, env: env() });
    expect(rotated.code, rotated.stderr).toBe(0);
    const candidates = (JSON.parse(readFileSync(secretsFile, 'utf8')) as Record<string, string[]>)[webhookId];
    expect(candidates).toEqual([secret, sim.webhooks.get(webhookId)?.sharedSecret]);
    const [second] = await makePayments(sim, 1);
    await sim.settle();
    const truthAfter = ((await call(sim, `${envPath(sim)}/payments/${second}`)).json as { status: string }).status;
    expect(await until('the delivery signed with the rotated secret is applied', () => storedStatus(second as string))).toBe(truthAfter);

    // 4. SIGTERM: finish the work in hand, exit 0
    running.child.kill('SIGTERM');
    const stopped = await running.result;
    running = null;
    expect(stopped.code, stopped.stderr).toBe(0);
    expect(stopped.stderr).toContain('listener stopped');
    for (const s of candidates ?? []) expect(stopped.stderr).not.toContain(s);
  });

  /** The recipe's command line with its fixed port swapped for a free one (the only change). */
  function withPort(args: readonly string[], port: number): string[] {
    const out = [...args];
    out[out.indexOf('--port') + 1] = String(port);
    return out;
  }

  function secretFile(dir: string, name: string, text: string): string {
    const path = join(dir, name);
    writeFileSync(path, text);
    chmodSync(path, 0o600);
    return path;
  }

  async function runRecipe(label: string, args: string[], recipeEnv: Record<string, string>): Promise<void> {
    const cwd = ws.fresh(label);
    const port = await freePort();
    // the test's own schema, not the recipe's default one
    const child = startCli([...withPort(args, port), '--schema', schema], { cwd, env: { PAYEXPORT_BASE_URL: sim.baseUrl, PAYEXPORT_ORGANIZATION_ID: sim.organizationId, DATABASE_URL: pg.url as string, PAYEXPORT_LOG_FORMAT: 'json', ...recipeEnv } });
    running = child;
    try {
      await child.waitForStderr(/listening for webhook deliveries/);
      expect((await fetch(`http://127.0.0.1:${port}/readyz`)).status).toBe(200);
      expect((await fetch(`http://127.0.0.1:${port}/healthz`)).status).toBe(200);
      expect(await (await fetch(`http://127.0.0.1:${port}/metrics`)).text()).toContain('payexport_sweep_lag_seconds');
    } finally {
      child.child.kill('SIGTERM');
    }
    const result = await child.result;
    running = null;
    expect(result.code, result.stderr).toBe(0);
  }

  const readRecipe = (path: string): string => readFileSync(join(ROOT, 'deploy', path), 'utf8');
  const secretsJson = JSON.stringify({ '5b0f1c3e-2d4a-4c6b-9e8f-0a1b2c3d4e5f': ['recipe-secret-value'] });

  it('deploy/systemd/payexport-listen.service runs as written: ready, healthy, metrics, SIGTERM → 0', async () => {
    const unit = readRecipe('systemd/payexport-listen.service');
    const exec = (/^ExecStart=(.*)$/m.exec(unit)?.[1] ?? '').split(/\s+/);
    const args = exec.slice(exec.findIndex((w) => w.endsWith('/dist/cli/main.js')) + 1);
    expect(args[0]).toBe('listen');
    expect(unit).toMatch(/^Environment=PAYEXPORT_API_KEY_FILE=%d\/api-key$/m);
    expect(unit).toMatch(/^Environment=PAYEXPORT_WEBHOOK_SECRETS_FILE=/m);
    const dir = ws.fresh('credentials');
    await runRecipe('systemd', args, {
      PAYEXPORT_API_KEY_FILE: secretFile(dir, 'api-key', `${sim.environments[0]!.apiKey}\n`),
      PAYEXPORT_WEBHOOK_SECRETS_FILE: secretFile(dir, 'webhook-secrets.json', secretsJson),
    });
  });

  it('deploy/kubernetes/listener.yaml runs as the container gets it', async () => {
    const manifest = readRecipe('kubernetes/listener.yaml');
    const args = JSON.parse(/^\s+args: (\[.*\])$/m.exec(manifest)![1]!) as string[];
    expect(args[0]).toBe('listen');
    expect(manifest).toContain('path: /readyz');
    expect(manifest).toContain('path: /healthz');
    await runRecipe('k8s', args, { PAYEXPORT_API_KEY: sim.environments[0]!.apiKey, PAYEXPORT_WEBHOOK_SECRETS: secretsJson });
  });
});
