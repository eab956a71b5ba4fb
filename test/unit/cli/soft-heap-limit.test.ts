import { describe, expect, it } from 'vitest';
import { HEAP_GROWING_PERCENT } from '../../../src/cli/heap-growth.js';
import { startSoftHeapLimit, TIGHT_HEAP_GROWING_PERCENT } from '../../../src/cli/soft-heap-limit.js';

const MB = 1024 * 1024;

/** A soft limit driven by hand: the heap sizes it reads, the flags it sets, its check called at will. */
function driven(heapMb: number[]): { flags: string[]; check: () => void; stopped: () => boolean } {
  const flags: string[] = [];
  let check: () => void = () => undefined;
  let stopped = false;
  const stop = startSoftHeapLimit([], {
    limitBytes: 100 * MB,
    heapBytes: () => (heapMb.shift() ?? 0) * MB,
    setFlag: (flag) => flags.push(flag),
    every: (_ms, fn) => {
      check = fn;
      return () => {
        stopped = true;
      };
    },
  });
  return { flags, check: () => check(), stopped: () => (stop?.(), stopped) };
}

describe('startSoftHeapLimit', () => {
  it('tightens the growth factor once the heap passes the limit, and relaxes it only well below', () => {
    const run = driven([90, 101, 120, 95, 86, 84, 99, 101]);
    const after: string[][] = [];
    for (let i = 0; i < 8; i++) {
      run.check();
      after.push([...run.flags]);
    }
    const tight = `--heap-growing-percent=${TIGHT_HEAP_GROWING_PERCENT}`;
    const usual = `--heap-growing-percent=${HEAP_GROWING_PERCENT}`;
    expect(after[0]).toEqual([]); // 90: below, nothing to do
    expect(after[1]).toEqual([tight]); // 101: past the limit
    expect(after[2]).toEqual([tight]); // 120: already tight, not set again
    expect(after[3]).toEqual([tight]); // 95: below the limit but within 15 % of it, stays tight
    expect(after[4]).toEqual([tight]); // 86: still within
    expect(after[5]).toEqual([tight, usual]); // 84: well below, the usual factor is back
    expect(after[6]).toEqual([tight, usual]); // 99: below the limit, stays relaxed
    expect(after[7]).toEqual([tight, usual, tight]); // 101: past it again
    expect(run.stopped()).toBe(true);
  });

  it('is not started when the user chose a growth factor in their node flags', () => {
    const started: number[] = [];
    const options = { every: (ms: number) => (started.push(ms), () => undefined) };
    expect(startSoftHeapLimit(['--heap-growing-percent=30'], options)).toBeNull();
    expect(startSoftHeapLimit(['--heap_growing_percent=30'], options)).toBeNull();
    expect(started).toEqual([]);
    expect(startSoftHeapLimit(['--enable-source-maps'], options)).not.toBeNull();
    expect(started).toHaveLength(1);
  });

  it('by default reads the real heap on an unreferenced timer, which stops when asked', async () => {
    const flags: string[] = [];
    const stop = startSoftHeapLimit([], { limitBytes: 1, setFlag: (flag) => flags.push(flag) });
    await new Promise((resolve) => setTimeout(resolve, 400));
    stop?.();
    expect(flags).toEqual([`--heap-growing-percent=${TIGHT_HEAP_GROWING_PERCENT}`]);
  });
});
