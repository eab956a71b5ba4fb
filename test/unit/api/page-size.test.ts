/**
 * The page size negotiation's rules alone (api/page-size.ts): what counts as a refusal, how far it
 * falls back, and that a size only goes down. The request log side is
 * test/integration/extract/page-size.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { ApiRequestError, ApiServerError } from '../../../src/api/errors.js';
import { negotiatedRequest, PageSize } from '../../../src/api/page-size.js';

const answer = (status: number, type: string): ApiRequestError =>
  new (status >= 500 ? ApiServerError : ApiRequestError)(
    { method: 'GET', path: '/x', status, type, detail: 'no', context: undefined, code: undefined, retryAfterMs: undefined, attempts: 1 },
    'unavailable',
  );

describe('PageSize', () => {
  it('takes an echoed limit below the one asked as the cap, and never goes back up', () => {
    const size = new PageSize(1000);
    size.answered(1000, 1000);
    expect(size.ask).toBe(1000);
    size.answered(1000, 500);
    expect(size.ask).toBe(500);
    size.answered(1000, 800);
    expect(size.ask).toBe(500);
    size.answered(500, undefined);
    expect(size.ask).toBe(500);
  });

  it.each([
    [400, 'invalid_parameter', 500],
    [422, 'invalid_data', 500],
    [400, 'invalid_cursor', null],
    [400, 'missing_credentials', null],
    [404, 'instance_not_found', null],
    [503, 'read_temporarily_unavailable', null],
  ])('a %i %s to a page of 1000 falls back to %s', (status, type, next) => {
    expect(new PageSize(1000).refused(1000, answer(status, type))).toBe(next);
  });

  it('halves down to the service default (100), and a refusal there stands', () => {
    const size = new PageSize(1000);
    const refusal = answer(400, 'invalid_parameter');
    expect([size.refused(1000, refusal), size.refused(500, refusal), size.refused(250, refusal), size.refused(125, refusal), size.refused(100, refusal)]).toEqual([500, 250, 125, 100, null]);
    // a small size asked on purpose is its own floor
    expect(new PageSize(10).refused(10, refusal)).toBeNull();
  });

  it('negotiatedRequest asks again after a refusal and reports the size that applied', async () => {
    const size = new PageSize(1000);
    const asked: number[] = [];
    const page = await negotiatedRequest(size, async (limit) => {
      asked.push(limit);
      if (limit > 300) throw answer(400, 'invalid_parameter');
      return { items: [], limit: undefined };
    });
    expect(asked).toEqual([1000, 500, 250]);
    expect(page.limit).toBe(250);
    expect(size.ask).toBe(250);
  });
});
