import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSimulator, type SimHandle } from '../../../src/sim/start-simulator.js';
import { OpenApiValidator } from '../../support/sim/openapi.js';
import { call, envPath, orgPath, type CallOptions, type Json, type TestReply } from '../../support/sim/sim-client.js';

/**
 * Conformance: a broad sample of simulator responses — every endpoint, every payment variant
 * (send/receive × kind), every ledger event type, the error statuses — validates against the
 * response schema the OpenAPI document declares for that operation and status.
 *
 * Allowed deviations (docs/simulator.md "Conformance"): legacy-only records, which the real
 * service still returns for old payments — deprecated amount fields only, uppercase `BTC`, ledger
 * events with `amount_msats` + `currency` — and, behind the `unknownFields` flag, unknown enum
 * values (status `settling_v2`). Everything else must validate.
 */

let sim: SimHandle;
let validator: OpenApiValidator;
const checked = new Map<string, number>();
const failures: string[] = [];

function record(operation: string, status: number): void {
  const key = `${operation} ${status}`;
  checked.set(key, (checked.get(key) ?? 0) + 1);
}

/** Call the simulator and validate the reply against the declared schema; legacy-only items may deviate. */
async function conform(path: string, options: CallOptions = {}): Promise<TestReply> {
  const reply = await call(sim, path, options);
  const body = reply.text === '' ? undefined : (JSON.parse(reply.text) as unknown);
  const method = options.method ?? (options.body !== undefined || options.rawBody !== undefined ? 'POST' : 'GET');
  const stripped = stripAllowedDeviations(body);
  const result = validator.validateResponse(method, path, reply.status, stripped);
  record(result.operation, reply.status);
  if (result.errors) failures.push(`${method} ${path} → ${reply.status}: ${result.errors}`);
  return reply;
}

const isLegacyPayment = (p: Json): boolean => p['currency'] === 'BTC';
const isLegacyEvent = (e: Json): boolean => e['amount_msats'] !== undefined || e['currency'] === 'BTC';

/** Legacy-only records are validated separately (they must be exactly the documented legacy shape). */
function stripAllowedDeviations(body: unknown): unknown {
  if (Array.isArray(body)) return body;
  if (body === null || typeof body !== 'object') return body;
  const o = body as Json;
  if (Array.isArray(o['items'])) return { ...o, items: (o['items'] as Json[]).filter((x) => !isLegacyPayment(x) && !isLegacyEvent(x)) };
  return o;
}

const bearer = (): CallOptions => ({ key: null, headers: { authorization: `Bearer ${sim.bearerToken}` } });

beforeAll(async () => {
  validator = new OpenApiValidator();
  sim = await startSimulator({ seed: 17, scale: 2500, limits: { maxBodyBytes: 4096 }, timing: { stepMs: 60_000, readableAfterMs: 0 } });
});

afterAll(async () => {
  await sim.close();
});

describe('OpenAPI conformance of simulator responses', () => {
  const payments: Json[] = [];
  const events: Json[] = [];

  it('read endpoints: assets, wallets, policies, ledgers, summaries, payments', async () => {
    await conform(`${orgPath(sim)}/assets`);
    await conform(`${orgPath(sim)}/assets`, { query: { network: 'mutinynet' } });
    const wallets = (await conform(`${orgPath(sim)}/wallets`, { ...bearer(), query: { inactive: true } })).json as Json[];
    expect(wallets.length).toBe(sim.wallets.length);
    for (const w of wallets) {
      const auth = bearer();
      await conform(`${orgPath(sim)}/wallets/${w['id']}`, auth);
      await conform(`${orgPath(sim)}/wallets/${w['id']}/policies`, auth);
      await conform(`${orgPath(sim)}/wallets/${w['id']}/payments/summary`, { ...auth, query: { include_inactive: true } });
      await conform(`${orgPath(sim)}/wallets/${w['id']}/payments/summary`, { ...auth, query: { 'statuses[]': ['sending'], kind: 'usdbatch' } });
      for (let offset = 0; ; offset += 1000) {
        const page = await conform(`${orgPath(sim)}/wallets/${w['id']}/ledger`, { ...auth, query: { offset, limit: 1000 } });
        events.push(...(page.json['items'] as Json[]));
        if (offset + 1000 >= page.json['total']) break;
      }
    }
    for (let e = 0; e < sim.environments.length; e++) {
      const key = sim.environments[e]?.apiKey ?? null;
      await conform(`${envPath(sim, e)}/payments/summary`, { key });
      await conform(`${envPath(sim, e)}/payments/summary`, { key, query: { include_inactive: true, direction: 'send' } });
      await conform(`${envPath(sim, e)}/payments/summary`, { key, query: { 'metadata[nobody]': 'x' } });
      for (let offset = 0; ; offset += 1000) {
        const page = await conform(`${envPath(sim, e)}/payments`, { key, query: { offset, limit: 1000 } });
        payments.push(...(page.json['items'] as Json[]));
        if (!page.json['has_more']) break;
      }
      const cursorPage = await conform(`${envPath(sim, e)}/payments`, { key, query: { pagination: 'cursor', limit: 20, sort_key: 'updated_at' } });
      await conform(`${envPath(sim, e)}/payments`, { key, query: { cursor: cursorPage.json['next_cursor'], limit: 20, sort_key: 'updated_at' } });
    }
    for (const p of payments.filter((x, i) => i % 50 === 0 && !isLegacyPayment(x))) await conform(`${envPath(sim, sim.environments.findIndex((x) => x.id === p['environment_id']))}/payments/${p['id']}`, bearer());
    expect(failures).toEqual([]);
  });

  it('covers every payment variant and every ledger event type', () => {
    const variants = new Set(payments.filter((p) => !isLegacyPayment(p)).map((p) => `${p['direction']}:${p['type']}`));
    for (const d of ['send', 'receive']) for (const k of ['bolt11', 'onchain', 'bip21', 'taprootasset', 'usdbatch']) expect(variants).toContain(`${d}:${k}`);
    expect(new Set(events.filter((e) => !isLegacyEvent(e)).map((e) => e['type']))).toEqual(new Set(['credited', 'captured', 'held', 'released', 'deposited', 'withdrawn']));
    expect(payments.some((p) => p['route'] === 'swap')).toBe(true);
    expect(payments.some((p) => p['exchanges']?.length > 0)).toBe(true);
  });

  it('legacy-only records deviate exactly as documented, and in no other way', () => {
    const legacy = payments.filter(isLegacyPayment);
    expect(legacy.length).toBeGreaterThan(0);
    const send = validator.schema('SendPayment');
    const receive = validator.schema('ReceivePayment');
    for (const p of legacy) {
      // the documented deviations: uppercase currency, Amount objects absent from `data`
      const patched: Json = { ...p, currency: 'btc', data: { ...p['data'], amount: { currency: 'btc', amount: 0 }, ...(p['direction'] === 'send' ? { max_fee: { currency: 'btc', amount: 0 } } : {}) } };
      const ok = p['direction'] === 'send' ? send(patched) : receive(patched);
      expect(ok, `${p['id']}: ${JSON.stringify((p['direction'] === 'send' ? send : receive).errors)}`).toBe(true);
    }
    const legacyEvents = events.filter(isLegacyEvent);
    expect(legacyEvents.length).toBeGreaterThan(0);
    const ledgerEvent = validator.schema('LedgerEvent');
    for (const e of legacyEvents) {
      const { amount_msats: msats, ...rest } = e;
      const patched = e['type'] === 'released' ? { ...rest, currency: 'btc' } : { ...rest, currency: undefined, amount: { currency: 'btc', amount: Number(msats) } };
      expect(ledgerEvent(JSON.parse(JSON.stringify(patched))), JSON.stringify(ledgerEvent.errors)).toBe(true);
    }
  });

  it('write endpoints and their error statuses', async () => {
    const wallet = sim.dataset.wallets.find((w) => w.environmentIndex === 0 && w.currencyKind === 'btc' && w.deactivatedUs === null) as { id: string };
    const usd = sim.dataset.wallets.find((w) => w.environmentIndex === 0 && w.currencyKind === 'usd') as { id: string; lineOfCreditIndex: number };
    const loc = sim.dataset.linesOfCredit[usd.lineOfCreditIndex]?.id as string;
    const payments = `${envPath(sim)}/payments`;
    const send = { id: randomUUID(), wallet_id: wallet.id, currency: 'btc', type: 'bolt11', data: { payment_request: 'lnbc2u1p' } };
    await conform(payments, { body: send });
    await conform(payments, { body: send });
    await conform(payments, { body: { ...send, id: randomUUID(), data: { payment_request: 'lnbc1p' } } });
    await conform(payments, { body: { id: 'nope' } });
    await conform(payments, { method: 'POST', rawBody: '{', headers: { 'content-type': 'application/json' } });
    await conform(payments, { method: 'POST', rawBody: '{}', headers: { 'content-type': 'text/plain' } });
    await conform(payments, { method: 'POST', rawBody: JSON.stringify({ pad: 'x'.repeat(5000) }), headers: { 'content-type': 'application/json' } });
    await conform(`${envPath(sim)}/payments/check`, { body: { ...send, id: randomUUID() } });
    await conform(`${envPath(sim)}/treasury_movements`, { body: { id: randomUUID(), wallet_id: wallet.id, payment_kind: 'bolt11', amount: { currency: 'btc', amount: 5000 } } });
    await conform(`${envPath(sim)}/treasury_movements`, { body: { id: randomUUID(), wallet_id: randomUUID(), payment_kind: 'bolt11', amount: { currency: 'btc', amount: 5000 } } });
    const quoteId = randomUUID();
    await conform(`${envPath(sim)}/quotes`, { body: { id: quoteId, line_of_credit_id: loc, network: 'mainnet', amount: { currency: 'usd', amount: 5_000 }, to: 'btc' } });
    await conform(`${envPath(sim)}/quotes`, { body: { id: quoteId, line_of_credit_id: loc, network: 'mainnet', amount: { currency: 'usd', amount: 5_000 }, to: 'btc' } });
    await conform(`${envPath(sim)}/quotes/${quoteId}`);
    await conform(`${envPath(sim)}/quotes/${randomUUID()}`);
    await conform(`${envPath(sim)}/quotes`);
    await conform(`${envPath(sim)}/webhooks`, { body: { id: randomUUID(), url: 'http://127.0.0.1:9/hook', name: 'n', events: [{ send: 'succeeded' }] } });
    await conform(`${orgPath(sim)}/wallets`, { body: { id: randomUUID(), environment_id: sim.environments[0]?.id, line_of_credit_id: loc, name: 'conformance', network: 'mainnet', limit: 1000 } });
    await conform(`${orgPath(sim)}/wallets/${wallet.id}`, { method: 'PATCH', body: { name: 'renamed' } });
    await conform(`${orgPath(sim)}/wallets/${wallet.id}/policies`, { method: 'PATCH', body: {} });
    await conform(`${orgPath(sim)}/wallets/${wallet.id}/policies`, { method: 'PATCH', body: { ofac_compliant: true } });
    await sim.settle();
    await conform(`${payments}/${send.id}`);
    expect(failures).toEqual([]);
  });

  it('error envelopes: 400, 401, 403, 404, 500 and 503', async () => {
    await conform(`${envPath(sim)}/payments`, { key: null });
    await conform(`${envPath(sim)}/payments`, { key: 'vltg_wrong' });
    await conform(`${envPath(sim, 1)}/payments`);
    await conform(`${orgPath(sim)}/wallets/${randomUUID()}`);
    await conform(`${orgPath(sim)}/wallets/${randomUUID()}/ledger`);
    await conform(`${envPath(sim)}/payments/${randomUUID()}`);
    await conform(`${envPath(sim)}/payments`, { query: { cursor: 'garbage' } });
    await conform(`${envPath(sim)}/payments`, { query: { kind: 'lightning' } });
    const bare = sim.dataset.wallets.find((w) => !w.hasPolicies) as { id: string };
    await conform(`${orgPath(sim)}/wallets/${bare.id}/policies`, bearer());
    sim.setFaults({ schedule: [{ fault: '503', first: 2 }, { fault: '500', nth: 3 }] });
    await conform(`${envPath(sim)}/payments`);
    await conform(`${envPath(sim)}/payments/summary`);
    await conform(`${envPath(sim)}/payments`);
    sim.setFaults(null);
    expect(failures).toEqual([]);
    for (const status of [400, 401, 403, 404, 409, 413, 415, 422, 500, 503]) expect([...checked.keys()].some((k) => k.endsWith(` ${status}`)), `status ${status}`).toBe(true);
  });

  it('with unknownFields, the only schema deviations are the unknown enum values', async () => {
    const flagged = await startSimulator({ seed: 17, scale: 3000, unknownFields: true, legacyRecords: false });
    try {
      const validate = validator.schema('Payment');
      const unknown: Json[] = [];
      for (const e of flagged.environments) {
        const page = await call(flagged, `${envPath(flagged, flagged.environments.indexOf(e))}/payments`, { key: e.apiKey, query: { limit: 1000 } });
        for (const plain of (JSON.parse(page.text) as Json)['items'] as Json[]) {
          if (validate(plain)) continue;
          unknown.push(plain);
        }
      }
      expect(unknown.length).toBeGreaterThan(0);
      for (const p of unknown) {
        expect(p['status']).toBe('settling_v2');
        expect(validate({ ...p, status: 'sending' }), JSON.stringify(validate.errors)).toBe(true);
      }
    } finally {
      await flagged.close();
    }
  });
});
