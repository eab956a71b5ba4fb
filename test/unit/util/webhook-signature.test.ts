import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { signPayload, verifySignature } from '../../../src/util/webhook-signature.js';
import { signWebhook } from '../../../src/sim/writes/webhooks.js';

describe('webhook signature', () => {
  const body = Buffer.from('{"type":"send","detail":{"event":"succeeded","data":{"id":"x"}}}', 'utf8');

  it('equals an HMAC computed independently over body + "." + timestamp with the literal secret', () => {
    const expected = createHmac('sha256', 'vltg_literal-secret').update(`${body.toString('utf8')}.1700000000`).digest('base64');
    expect(signPayload('vltg_literal-secret', body, 1_700_000_000)).toBe(expected);
  });

  it("agrees with the simulator's signer", () => {
    expect(signPayload('s3cret', body, 1_700_000_001)).toBe(signWebhook('s3cret', body.toString('utf8'), 1_700_000_001));
  });

  it('accepts any candidate secret during a rotation and refuses a tampered body, timestamp or secret', () => {
    const sig = signPayload('new', body, 1_700_000_002);
    expect(verifySignature(['old', 'new'], body, '1700000002', sig)).toBe(true);
    expect(verifySignature(['old'], body, '1700000002', sig)).toBe(false);
    expect(verifySignature(['new'], Buffer.concat([body, Buffer.from(' ')]), '1700000002', sig)).toBe(false);
    expect(verifySignature(['new'], body, '1700000003', sig)).toBe(false);
  });

  it('refuses non-canonical base64 and wrong lengths', () => {
    const sig = signPayload('k', body, 1);
    expect(verifySignature(['k'], body, '1', sig.replace(/=$/, ''))).toBe(false);
    expect(verifySignature(['k'], body, '1', `${sig} `)).toBe(false);
    expect(verifySignature(['k'], body, '1', Buffer.alloc(31).toString('base64'))).toBe(false);
  });
});
