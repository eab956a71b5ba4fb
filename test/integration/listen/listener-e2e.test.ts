import { randomUUID } from 'node:crypto';
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openPostgres } from '../../../src/store/db/pg-db.js';
import type { Db } from '../../../src/store/db/db.js';
import { startSimulator, type SimHandle } from '../../../src/sim/index.js';
import { signPayload } from '../../../src/util/webhook-signature.js';
import { call, envPath } from '../../support/sim/sim-client.js';
import { dropSchema, probePostgres, uniqueSchemaName } from '../../support/store/engines.js';
import { freePort, makePayments, registerWebhook, snapshotOf, startListenerFor, type ListenerRun } from '../../support/listen/harness.js';

/**
 * The listener end to end: the simulator delivers signed webhooks for payments written through
 * its API, the listener stores them in its Postgres inbox and upserts the snapshot; a sweep into
 * a second schema is the reference ("what a full read of the API says").
 */
const pg = await probePostgres();

describe.skipIf(pg.url === null)(`listen against the simulator and Postgres${pg.skipReason ? ` (skipped: ${pg.skipReason})` : ''}`, () => {
  let sim: SimHandle;
  let db: Db;
  const schemas: string[] = [];
  const newSchema = (label: string): string => {
    const name = uniqueSchemaName(label);
    schemas.push(name);
    return name;
  };

  beforeAll(async () => {
    sim = await startSimulator({ seed: 19, scale: 300, wallets: 4, timing: { stepMs: 60_000 }, webhooks: { retryDelayMs: 20 } });
    db = await openPostgres({ url: pg.url as string });
  });

  afterAll(async () => {
    for (const name of schemas) await dropSchema(db, name);
    await db?.close();
    await sim?.close();
  });

  /** A second listener with no deliveries: one sweep of the API into its own schema. */
  async function reference(ids: readonly string[]): Promise<Record<string, string>> {
    const schema = newSchema('ref');
    const run = await startListenerFor({ sim, databaseUrl: pg.url as string, schema, port: 0, secrets: { [randomUUID()]: ['unused-secret-value'] } });
    try {
      await run.listener.sweepNow();
    } finally {
      await run.close();
    }
    return snapshotOf(db, schema, ids);
  }

  async function listenerWithWebhook(label: string): Promise<{ run: ListenerRun; schema: string; webhook: { id: string; secret: string } }> {
    const schema = newSchema(label);
    const port = await freePort();
    const webhook = await registerWebhook(sim, `http://127.0.0.1:${port}/webhooks/voltage`);
    const run = await startListenerFor({ sim, databaseUrl: pg.url as string, schema, port, secrets: { [webhook.id]: [webhook.secret] } });
    return { run, schema, webhook };
  }

  it('deliveries for a stream of payment changes leave the snapshot equal to a full sweep', async () => {
    const { run, schema, webhook } = await listenerWithWebhook('stream');
    try {
      const ids = await makePayments(sim, 24);
      // transitions run only when settled (stepMs 60 s): first steps (sends settle, receives issue their invoice), then the rest
      await sim.settle(24);
      await run.listener.drained();
      await sim.settle();
      await run.listener.drained();
      const delivered = sim.webhooks.recordsOf(webhook.id);
      expect(delivered.length).toBeGreaterThanOrEqual(24);
      expect(delivered.every((d) => d.status === 'succeeded')).toBe(true);
      const mine = await snapshotOf(db, schema, ids);
      expect(Object.keys(mine)).toHaveLength(24);
      expect(mine).toEqual(await reference(ids));
      // status history kept: a receive was first seen as receiving, then completed or expired
      const { rows } = await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM "${schema}".payment_history WHERE payment_id = ANY($1::text[]) AND change = 'changed'`, [ids]);
      expect(rows[0]?.n).toBeGreaterThan(0);
      expect(run.listener.metrics.deliveries.get('accepted')).toBeGreaterThanOrEqual(24);
    } finally {
      await run.close();
      sim.webhooks.setFaults(null);
    }
  });

  it('with 20 % of deliveries dropped, duplicated or reordered, the sweep heals the snapshot to the same state', async () => {
    const { run, schema, webhook } = await listenerWithWebhook('faults');
    try {
      sim.webhooks.setFaults('drop=0.2,dup=0.2,reorder=0.2,reorder-ms=40,seed=7');
      const ids = await makePayments(sim, 40);
      await sim.settle();
      await run.listener.drained();
      const records = sim.webhooks.recordsOf(webhook.id);
      expect(records.filter((r) => r.status === 'failed').length).toBeGreaterThan(0);
      const beforeSweep = await snapshotOf(db, schema, ids);
      const truth = await reference(ids);
      // dropped final events left some payments behind (or missing) until the sweep
      expect(beforeSweep).not.toEqual(truth);
      await run.listener.sweepNow();
      expect(await snapshotOf(db, schema, ids)).toEqual(truth);
      expect(run.listener.metrics.deliveries.get('duplicate') ?? 0).toBeGreaterThan(0);
    } finally {
      sim.webhooks.setFaults(null);
      await run.close();
    }
  });

  it('refuses forged, replayed, tampered, unknown, oversized and non-JSON deliveries, and they change nothing', async () => {
    const { run, schema, webhook } = await listenerWithWebhook('refuse');
    try {
      const [id] = await makePayments(sim, 1);
      await sim.settle();
      await run.listener.drained();
      const before = await snapshotOf(db, schema, [id as string]);
      const inboxBefore = (await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM "${schema}".webhook_inbox`)).rows[0]?.n;
      const payment = (await call(sim, `${envPath(sim)}/payments/${id}`)).json as Record<string, unknown>;
      const body = JSON.stringify({ type: 'send', detail: { event: 'failed', data: { ...payment, status: 'failed', updated_at: '2099-01-01T00:00:00.000000Z' } } });
      const now = Math.floor(Date.now() / 1000);
      // The listener's default window is ±300 s, read by its own clock when the request arrives.
      // Stale and future timestamps sit 2 minutes past the edge, not 1 s: on a loaded machine the
      // receiver's "now" can be seconds after ours, which would carry now + 301 back inside.
      // The edge itself (±300 in, ±301 out) is test/unit/listen/verify-delivery.test.ts.
      const outside = 300 + 120;
      const url = `http://127.0.0.1:${run.listener.port}/webhooks/voltage`;
      const post = async (text: string, headers: Record<string, string>): Promise<number> =>
        (await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: text })).status;
      const signed = (secret: string, text: string, ts: number, hook = webhook.id): Record<string, string> => ({
        'x-voltage-webhook-id': hook,
        'x-voltage-timestamp': String(ts),
        'x-voltage-signature': signPayload(secret, text, ts),
      });
      const cases: Array<[string, Promise<number>, number]> = [
        ['forged (wrong secret)', post(body, signed('not-the-secret', body, now)), 401],
        ['replayed (outside the window)', post(body, signed(webhook.secret, body, now - outside)), 401],
        ['from the future', post(body, signed(webhook.secret, body, now + outside)), 401],
        ['tampered body', post(body.replace('failed', 'completed'), signed(webhook.secret, body, now)), 401],
        ['unknown registration', post(body, signed(webhook.secret, body, now, randomUUID())), 401],
        ['no signature', post(body, { 'x-voltage-webhook-id': webhook.id, 'x-voltage-timestamp': String(now) }), 401],
        ['non-canonical signature', post(body, { ...signed(webhook.secret, body, now), 'x-voltage-signature': signPayload(webhook.secret, body, now).replace('=', '') }), 401],
        ['non-JSON (signed)', post('not json', signed(webhook.secret, 'not json', now)), 400],
        ['oversized', post('x'.repeat(300 * 1024), signed(webhook.secret, 'x', now)), 413],
      ];
      for (const [what, status, expected] of cases) expect([what, await status]).toEqual([what, expected]);
      await run.listener.drained();
      expect(await snapshotOf(db, schema, [id as string])).toEqual(before);
      expect((await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM "${schema}".webhook_inbox`)).rows[0]?.n).toBe(inboxBefore);
      for (const reason of ['bad_signature', 'stale_timestamp', 'future_timestamp', 'unknown_webhook', 'missing_headers', 'not_json', 'too_large']) {
        expect(run.listener.metrics.deliveries.get(reason)).toBeGreaterThan(0);
      }
      const logs = run.logLines().join('\n');
      expect(logs).toContain('webhook delivery refused');
      expect(logs).not.toContain(webhook.secret);
      expect(logs).not.toContain('2099-01-01');
      // the refusal says nothing
      const reply = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', ...signed('x', body, now) }, body });
      expect([reply.status, await reply.text()]).toEqual([401, '']);
      // a client that goes away mid-body is counted and forgotten; the listener stays ready
      await new Promise<void>((resolve) => {
        const socket = connect(run.listener.port, '127.0.0.1', () => {
          socket.write(`POST /webhooks/voltage HTTP/1.1\r\nhost: x\r\ncontent-type: application/json\r\ncontent-length: 1000\r\n\r\n{"type":`);
          setTimeout(() => socket.destroy(), 50);
        });
        socket.on('close', () => resolve());
      });
      await new Promise((resolve) => setTimeout(resolve, 100));
      expect(run.listener.metrics.deliveries.get('client_gone')).toBe(1);
      expect((await fetch(`http://127.0.0.1:${run.listener.port}/readyz`)).status).toBe(200);
    } finally {
      await run.close();
    }
  });

  it('re-reads a partial payload by id, keeps a newer state against an older late delivery, and ignores test events', async () => {
    const { run, schema, webhook } = await listenerWithWebhook('partial');
    try {
      const [sent, received] = await makePayments(sim, 2);
      await sim.settle();
      const truth = await reference([sent as string, received as string]);
      const url = `http://127.0.0.1:${run.listener.port}/webhooks/voltage`;
      const deliver = async (payload: unknown): Promise<number> => {
        const body = JSON.stringify(payload);
        const ts = Math.floor(Date.now() / 1000);
        const headers = { 'content-type': 'application/json', 'x-voltage-webhook-id': webhook.id, 'x-voltage-timestamp': String(ts), 'x-voltage-signature': signPayload(webhook.secret, body, ts) };
        return (await fetch(url, { method: 'POST', headers, body })).status;
      };
      await run.listener.drained();
      // the simulator's own deliveries stored both; forget the send so only the partial delivery can bring it back
      await db.query(`DELETE FROM "${schema}".payments WHERE payment_id = $1`, [sent as string]);
      const environmentId = sim.environments[0]!.id;
      expect(await deliver({ type: 'send', detail: { event: 'succeeded', data: { id: sent, environment_id: environmentId } } })).toBe(204);
      await run.listener.drained();
      expect(await snapshotOf(db, schema, [sent as string])).toEqual({ [sent as string]: truth[sent as string] });

      // an older state of the receive, delivered after its final state: stored as stale, changes nothing
      const final = (await call(sim, `${envPath(sim)}/payments/${received}`)).json as Record<string, unknown>;
      const older = { ...final, status: 'receiving', updated_at: '2026-01-01T00:00:00.000000Z' };
      expect(await deliver({ type: 'receive', detail: { event: 'generated', data: older } })).toBe(204);
      expect(await deliver({ type: 'test', detail: { event: 'test', data: null } })).toBe(204);
      await run.listener.drained();
      expect(await snapshotOf(db, schema, [received as string])).toEqual({ [received as string]: truth[received as string] });
      const outcome = async (where: string, params: string[]): Promise<string[]> =>
        (await db.query<{ outcome: string }>(`SELECT outcome FROM "${schema}".webhook_inbox WHERE ${where}`, params)).rows.map((r) => r.outcome);
      expect(await outcome(`payment_id = $1 AND dedupe_key LIKE '%:2026-01-01T00:00:00.000000Z'`, [received as string])).toEqual(['stale']);
      expect(await outcome(`kind = 'test'`, [])).toEqual(['ignored']);
      expect(await outcome(`payment_id = $1 AND dedupe_key = $2`, [sent as string, `payment:${sent}:send:succeeded::`])).toEqual(['applied']);
    } finally {
      await run.close();
    }
  });
});
