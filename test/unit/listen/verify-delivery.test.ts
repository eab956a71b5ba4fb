import { describe, expect, it } from 'vitest';
import { verifyDelivery, type VerifyInput } from '../../../src/listen/verify-delivery.js';
import { signPayload } from '../../../src/util/webhook-signature.js';

const HOOK = '5b0f1c3e-2d4a-4c6b-9e8f-0a1b2c3d4e5f';
const SECRET = 'vltg_whsec_current';
const OLD = 'vltg_whsec_previous';
const NOW = 1_800_000_000;
const BODY = Buffer.from('{"type":"send","detail":{"event":"succeeded","data":{"id":"p1"}}}');

function input(overrides: Partial<VerifyInput> & { ts?: number; secret?: string; body?: Buffer; signature?: string } = {}): VerifyInput {
  const ts = overrides.ts ?? NOW;
  const body = overrides.body ?? BODY;
  return {
    headers: { webhookId: HOOK, timestamp: String(ts), signature: overrides.signature ?? signPayload(overrides.secret ?? SECRET, body, ts), ...overrides.headers },
    rawBody: body,
    nowSeconds: NOW,
    toleranceSeconds: 300,
    secretsFor: (id) => (id === HOOK ? [OLD, SECRET] : undefined),
    ...(overrides.rawBody ? { rawBody: overrides.rawBody } : {}),
  };
}

describe('verifyDelivery', () => {
  it('accepts a delivery signed with any candidate secret, and only then parses it', () => {
    const current = verifyDelivery(input());
    expect(current).toMatchObject({ ok: true, delivery: { webhookId: HOOK, signedAt: NOW, payload: { type: 'send' } } });
    expect(verifyDelivery(input({ secret: OLD })).ok).toBe(true);
  });

  it('takes the window in both directions, inclusive of the tolerance', () => {
    expect(verifyDelivery(input({ ts: NOW - 300 })).ok).toBe(true);
    expect(verifyDelivery(input({ ts: NOW + 300 })).ok).toBe(true);
    expect(verifyDelivery(input({ ts: NOW - 301 }))).toMatchObject({ ok: false, reason: 'stale_timestamp', skewSeconds: 301 });
    expect(verifyDelivery(input({ ts: NOW + 301 }))).toMatchObject({ ok: false, reason: 'future_timestamp', skewSeconds: -301 });
  });

  it.each([
    ['no webhook id', { headers: { webhookId: undefined, timestamp: String(NOW), signature: 'x' } }, 'missing_headers'],
    ['a timestamp that is not digits', { headers: { webhookId: HOOK, timestamp: '1.8e9', signature: 'x' } }, 'bad_timestamp'],
    ['an unknown registration', { headers: { webhookId: 'ffffffff-2d4a-4c6b-9e8f-0a1b2c3d4e5f', timestamp: String(NOW), signature: signPayload(SECRET, BODY, NOW) } }, 'unknown_webhook'],
    ['a wrong secret', { secret: 'vltg_whsec_guess' }, 'bad_signature'],
    ['unpadded base64', { signature: signPayload(SECRET, BODY, NOW).slice(0, -1) }, 'bad_signature'],
  ] as const)('refuses %s', (_what, overrides, reason) => {
    expect(verifyDelivery(input(overrides as Partial<VerifyInput>))).toMatchObject({ ok: false, reason });
  });

  it('refuses a tampered body: the signature covers the raw bytes', () => {
    const signature = signPayload(SECRET, BODY, NOW);
    const tampered = Buffer.from(BODY.toString().replace('succeeded', 'failed'));
    expect(verifyDelivery({ ...input({ signature }), rawBody: tampered })).toMatchObject({ ok: false, reason: 'bad_signature' });
  });

  it('refuses authentic bodies that are not a JSON object or not UTF-8 (after the signature, never before)', () => {
    for (const [text, reason] of [
      [Buffer.from('[1,2]'), 'not_json'],
      [Buffer.from('not json'), 'not_json'],
      [Buffer.from([0x7b, 0xff, 0x7d]), 'not_utf8'],
    ] as const) {
      expect(verifyDelivery(input({ body: text }))).toMatchObject({ ok: false, reason });
    }
    // the same bytes unsigned are refused for the signature, without being parsed
    expect(verifyDelivery({ ...input({ secret: 'other' }), rawBody: Buffer.from('not json') })).toMatchObject({ reason: 'bad_signature' });
  });
});
