import { describe, expect, it } from 'vitest';
import { REDACTED, SecretScrubber } from '../../../src/util/secret-scrubber.js';

const KEY = 'vltg_CANARY_scrub+/=key 42';

describe('SecretScrubber', () => {
  const scrubber = new SecretScrubber([KEY, undefined, '', 'abc']);

  it.each([
    ['raw', `key=${KEY}!`],
    ['URL-encoded', `url?k=${encodeURIComponent(KEY)}&x`],
    ['form-encoded', `k=${encodeURIComponent(KEY).replace(/%20/g, '+')}`],
    ['JSON-escaped', JSON.stringify({ k: KEY })],
    ['base64', Buffer.from(KEY).toString('base64')],
    ['base64url', Buffer.from(KEY).toString('base64url')],
    ['base64 inside a larger blob (offset 1)', Buffer.from(`x${KEY}yy`).toString('base64')],
    ['base64 inside a larger blob (offset 2)', Buffer.from(`Basic:${KEY}`).toString('base64')],
    ['base64 of Bearer header', Buffer.from(`Bearer ${KEY}`).toString('base64')],
  ])('masks the %s form', (_name, text) => {
    expect(scrubber.leaks(text)).toBe(true);
    const out = scrubber.scrub(text);
    expect(out).toContain(REDACTED);
    expect(scrubber.leaks(out)).toBe(false);
    expect(out).not.toContain(KEY);
  });

  it('ignores empty and very short values (they would mask ordinary words)', () => {
    expect(scrubber.scrub('abc def')).toBe('abc def');
  });

  it('masks URL passwords even when not registered, without breaking a JSON line', () => {
    const line = JSON.stringify({ url: 'postgres://app:s3cret@db:5432/x', other: 'http://host:8080', at: 'a@b' });
    const out = scrubber.scrub(line);
    expect(out).not.toContain('s3cret');
    expect(JSON.parse(out)).toEqual({ url: `postgres://app:${REDACTED}@db:5432/x`, other: 'http://host:8080', at: 'a@b' });
  });

  it('covers secrets added later', () => {
    const later = new SecretScrubber();
    expect(later.scrub('tok_later_123456')).toBe('tok_later_123456');
    later.add('tok_later_123456');
    expect(later.scrub('tok_later_123456')).toBe(REDACTED);
  });

  it('scrubError returns a detached copy with the cause chain scrubbed and no extra properties', () => {
    const inner = Object.assign(new Error(`inner ${KEY}`), { code: 'ECONNRESET', headers: { 'x-api-key': KEY } });
    const outer = new Error(`outer ${encodeURIComponent(KEY)}`, { cause: inner });
    const copy = scrubber.scrubError(outer);
    expect(copy).not.toBe(outer);
    expect(copy.message).toBe(`outer ${REDACTED}`);
    const cause = copy.cause as Error & { code?: string; headers?: unknown };
    expect(cause.message).toBe(`inner ${REDACTED}`);
    expect(cause.code).toBe('ECONNRESET');
    expect(cause.headers).toBeUndefined();
    expect(scrubber.leaks(`${copy.stack} ${cause.stack}`)).toBe(false);
    expect(scrubber.scrubError(`thrown string ${KEY}`).message).toBe(`thrown string ${REDACTED}`);
  });
});
