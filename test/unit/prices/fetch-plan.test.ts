import { describe, expect, it } from 'vitest';
import { describeRuns, planFetch } from '../../../src/prices/fetch-plan.js';

const H = 3600;
const base = { fromSec: 100 * H, toSec: 110 * H, interval: '1h' as const, nowSec: 1000 * H, closedThroughSec: null, historyStartSec: null, cached: new Map<number, string>(), maxBuckets: 4 };

describe('planFetch', () => {
  it('wants a close at every boundary of [from, to], the bucket before `from` included', () => {
    const plan = planFetch(base);
    expect(plan.wanted).toEqual(Array.from({ length: 11 }, (_, i) => (99 + i) * H));
    expect(plan.chunks.map((c) => [c.startSec / H, c.endSec / H])).toEqual([[99, 103], [103, 107], [107, 110]]);
  });

  it('leaves out unfinished buckets, cached ones, closed ones and those beyond the history, and says how many', () => {
    const plan = planFetch({ ...base, nowSec: 108 * H + 5, closedThroughSec: 101 * H, historyStartSec: 102 * H, cached: new Map([[104 * H, '1']]) });
    expect(plan.unfinished).toBe(2);
    expect(plan.cached).toBe(1);
    expect(plan.closed).toEqual([99 * H, 100 * H]);
    expect(plan.beyondHistory).toEqual([101 * H]);
    expect(plan.chunks.flatMap((c) => c.buckets)).toEqual([102, 103, 105, 106, 107].map((h) => h * H));
  });

  it('aligns daily buckets to UTC days, whatever the bounds', () => {
    const d = 86_400;
    const plan = planFetch({ ...base, interval: '1d', fromSec: 10 * d + 5 * H, toSec: 13 * d + 1, maxBuckets: 365 });
    expect(plan.wanted).toEqual([10 * d, 11 * d, 12 * d]);
  });
});

describe('describeRuns', () => {
  it('lists runs of missing closes in UTC, limited', () => {
    expect(describeRuns([0, H, 2 * H, 5 * H], '1h')).toBe('1970-01-01T00:00:00Z..1970-01-01T03:00:00Z (3 × 1h), 1970-01-01T05:00:00Z..1970-01-01T06:00:00Z (1 × 1h)');
    expect(describeRuns([0, 2 * H, 4 * H], '1h', 1)).toMatch(/and 2 more run\(s\)$/);
  });
});
