import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSimulator, type SimHandle } from '../../../src/sim/start-simulator.js';
import { call, envPath, orgPath } from '../../support/sim/sim-client.js';

/** Authentication, environment scoping and the error envelope (docs/service-facts.md#authentication and #errors). */

let sim: SimHandle;

beforeAll(async () => {
  sim = await startSimulator({ seed: 4, scale: 400, limits: { maxBodyBytes: 2048 } });
});

afterAll(async () => {
  await sim.close();
});

const walletOf = (environment: number): string => sim.wallets.find((w) => w.environmentId === sim.environments[environment]?.id)?.id as string;

describe('credentials', () => {
  it('accepts the key in x-api-key or as a bearer token, and the organization bearer token', async () => {
    const key = sim.environments[0]?.apiKey as string;
    expect((await call(sim, `${envPath(sim)}/payments`, { key })).status).toBe(200);
    expect((await call(sim, `${envPath(sim)}/payments`, { key: null, headers: { authorization: `Bearer ${key}` } })).status).toBe(200);
    expect((await call(sim, `${envPath(sim, 1)}/payments`, { key: null, headers: { authorization: `Bearer ${sim.bearerToken}` } })).status).toBe(200);
    expect(key).toMatch(/^vltg_[A-Za-z0-9_-]{20,}$/);
  });

  it('answers 400 missing_credentials, 401 wrong_credentials', async () => {
    const missing = await call(sim, `${envPath(sim)}/payments`, { key: null });
    expect([missing.status, missing.json.error.type]).toEqual([400, 'missing_credentials']);
    const wrong = await call(sim, `${envPath(sim)}/payments`, { key: 'vltg_not-a-real-key' });
    expect([wrong.status, wrong.json.error.type]).toEqual([401, 'wrong_credentials']);
    const badScheme = await call(sim, `${envPath(sim)}/payments`, { key: null, headers: { authorization: 'Basic abc' } });
    expect(badScheme.status).toBe(401);
  });

  it('scopes a key to ONE environment: other environments, their wallets and other organizations are 403 access_rights', async () => {
    const key = sim.environments[0]?.apiKey as string;
    for (const path of [`${envPath(sim, 1)}/payments`, `${envPath(sim, 1)}/payments/summary`, `${orgPath(sim)}/wallets/${walletOf(1)}`, `${orgPath(sim)}/wallets/${walletOf(1)}/ledger`, `/organizations/00000000-0000-4000-8000-000000000000/wallets`]) {
      const r = await call(sim, path, { key });
      expect([r.status, r.json.error.type], path).toEqual([403, 'access_rights']);
    }
    const scoped = await call(sim, `${orgPath(sim)}/wallets`, { key, query: { environment_id: sim.environments[1]?.id as string } });
    expect(scoped.status).toBe(403);
  });

  it('lists only the key environment wallets; the bearer token sees all; inactive only on request', async () => {
    const mine = await call(sim, `${orgPath(sim)}/wallets`);
    expect(Array.isArray(mine.json)).toBe(true);
    expect(mine.json.every((w: { environment_id: string }) => w.environment_id === sim.environments[0]?.id)).toBe(true);
    const everyone = await call(sim, `${orgPath(sim)}/wallets`, { key: null, headers: { authorization: `Bearer ${sim.bearerToken}` }, query: { inactive: true } });
    expect(everyone.json).toHaveLength(sim.wallets.length);
    const activeOnly = await call(sim, `${orgPath(sim)}/wallets`, { key: null, headers: { authorization: `Bearer ${sim.bearerToken}` } });
    expect(activeOnly.json).toHaveLength(sim.wallets.filter((w) => w.active).length);
  });

  it('refuses writes with a read-only key', async () => {
    const r = await call(sim, `${envPath(sim)}/payments`, { key: sim.environments[0]?.readOnlyApiKey as string, body: { id: crypto.randomUUID(), wallet_id: walletOf(0), payment_kind: 'bolt11', amount: { currency: 'btc', amount: 1000 } } });
    expect([r.status, r.json.error.type]).toEqual([403, 'access_rights']);
  });
});

describe('not found', () => {
  it('answers 404 instance_not_found with context wallet_id for an unknown wallet', async () => {
    const id = '5d1b1c6e-0000-4000-8000-000000000001';
    for (const suffix of ['', '/ledger', '/payments/summary']) {
      const r = await call(sim, `${orgPath(sim)}/wallets/${id}${suffix}`);
      expect(r.status).toBe(404);
      expect(r.json.error).toMatchObject({ type: 'instance_not_found', context: { wallet_id: id } });
    }
  });

  it('answers 404 payment_not_found for an unknown payment and for one of another environment', async () => {
    const other = sim.dataset.paymentIds({ environmentId: sim.environments[1]?.id as string })[0] as string;
    for (const id of ['5d1b1c6e-0000-4000-8000-000000000002', other]) {
      const r = await call(sim, `${envPath(sim)}/payments/${id}`);
      expect(r.status).toBe(404);
      expect(r.json.error).toMatchObject({ type: 'payment_not_found', context: { payment_id: id } });
    }
  });

  it('answers 404 wallet_policies_not_found for a wallet without policies', async () => {
    const bare = sim.dataset.wallets.find((w) => !w.hasPolicies && w.environmentIndex === 0) ?? sim.dataset.wallets.find((w) => !w.hasPolicies);
    if (!bare) throw new Error('the default dataset has a wallet without policies');
    const r = await call(sim, `${orgPath(sim)}/wallets/${bare.id}/policies`, { key: null, headers: { authorization: `Bearer ${sim.bearerToken}` } });
    expect(r.json.error).toMatchObject({ type: 'wallet_policies_not_found', context: { wallet_id: bare.id } });
  });

  it('answers unknown paths 404 and a malformed path id 400', async () => {
    expect((await call(sim, `${orgPath(sim)}/nothing-here`)).status).toBe(404);
    expect((await call(sim, `/organizations/not-a-uuid/wallets`)).status).toBe(400);
    expect((await call(sim, `/organizations/%E0%A4%A/wallets`)).status).toBe(400);
  });
});

describe('request bodies', () => {
  const path = (): string => `${envPath(sim)}/payments`;
  it('415 missing_content_type without a JSON content type', async () => {
    const r = await call(sim, path(), { method: 'POST', rawBody: '{}', headers: { 'content-type': 'text/plain' } });
    expect([r.status, r.json.error.type]).toEqual([415, 'missing_content_type']);
  });
  it('413 payload_too_large above the body limit', async () => {
    const r = await call(sim, path(), { method: 'POST', rawBody: JSON.stringify({ pad: 'x'.repeat(4096) }), headers: { 'content-type': 'application/json' } });
    expect([r.status, r.json.error.type]).toEqual([413, 'payload_too_large']);
  });
  it('400 invalid_syntax for malformed JSON, 422 invalid_data for a body of the wrong shape', async () => {
    const syntax = await call(sim, path(), { method: 'POST', rawBody: '{"id":', headers: { 'content-type': 'application/json' } });
    expect([syntax.status, syntax.json.error.type]).toEqual([400, 'invalid_syntax']);
    const shape = await call(sim, path(), { body: { id: 'x', payment_kind: 'bolt11' } });
    expect([shape.status, shape.json.error.type]).toEqual([422, 'invalid_data']);
  });
});

describe('request log', () => {
  it('records method, path, query, status and in-flight count, never a credential', async () => {
    sim.requestLog.clear();
    await Promise.all(Array.from({ length: 6 }, () => call(sim, `${envPath(sim)}/payments`, { query: { limit: 50, 'metadata[tenant_id]': 'tenant-1' } })));
    await call(sim, `${envPath(sim)}/payments`, { key: 'vltg_wrong' });
    const entries = sim.requestLog.entries();
    expect(entries).toHaveLength(7);
    expect(entries[0]).toMatchObject({ method: 'GET', path: `/v1${envPath(sim)}/payments`, status: 200 });
    expect(entries[0]?.query).toContain('limit=50');
    expect(entries.some((e) => e.status === 401)).toBe(true);
    expect(sim.requestLog.maxInFlight()).toBeGreaterThanOrEqual(1);
    const text = JSON.stringify(entries);
    for (const e of sim.environments) expect(text).not.toContain(e.apiKey);
    expect(text).not.toContain('vltg_');
  });
});
