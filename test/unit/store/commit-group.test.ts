import { describe, expect, it } from 'vitest';
import { createCommitGroup, type CommitGroupOptions } from '../../../src/store/commit-group.js';

class Split extends Error {}

/** A group writer that records each call and can be held open, as a transaction in flight is. */
function recorder(overrides: Partial<CommitGroupOptions<number, string>> = {}) {
  const groups: number[][] = [];
  const alone: number[] = [];
  let release: () => void = () => undefined;
  let held: Promise<void> = Promise.resolve();
  const hold = (): void => {
    held = new Promise((resolve) => (release = resolve));
  };
  const group = createCommitGroup<number, string>({
    async writeGroup(items) {
      groups.push([...items]);
      await held;
      return items.map((item) => `g${item}`);
    },
    async writeOne(item) {
      alone.push(item);
      return `a${item}`;
    },
    splitOn: (error) => error instanceof Split,
    maxItems: 3,
    ...overrides,
  });
  return { group, groups, alone, hold, release: () => release() };
}

describe('createCommitGroup', () => {
  it('writes an item at once when nothing is being written, and the items that arrive meanwhile together', async () => {
    const { group, groups, hold, release } = recorder();
    hold();
    const first = group.submit(1);
    // the first is being written; these wait for it and go as one group of at most maxItems
    const rest = [2, 3, 4, 5].map((item) => group.submit(item));
    expect(groups).toEqual([[1]]);
    release();
    expect(await Promise.all([first, ...rest])).toEqual(['g1', 'g2', 'g3', 'g4', 'g5']);
    expect(groups).toEqual([[1], [2, 3, 4], [5]]);
  });

  it('closes a group before the item that would take it past maxWeight (the first item always goes)', async () => {
    const { group, groups, hold, release } = recorder({ maxItems: 10, weight: (item) => item, maxWeight: 10 });
    hold();
    const all = [1, 4, 5, 2, 30, 3].map((item) => group.submit(item));
    release();
    await Promise.all(all);
    expect(groups).toEqual([[1], [4, 5], [2], [30], [3]]);
  });

  it('writes each item of a group alone, in order, when the group fails with an error it may split on', async () => {
    const calls: string[] = [];
    const group = createCommitGroup<number, string>({
      async writeGroup(items) {
        calls.push(`group ${items.join(',')}`);
        if (items.length > 1) throw new Split('cannot go together');
        return items.map((item) => `g${item}`);
      },
      async writeOne(item) {
        calls.push(`alone ${item}`);
        if (item === 3) throw new Error('page 3 is bad');
        return `a${item}`;
      },
      splitOn: (error) => error instanceof Split,
      maxItems: 8,
    });
    const results = await Promise.allSettled([1, 2, 3, 4].map((item) => group.submit(item)));
    expect(calls).toEqual(['group 1', 'group 2,3,4', 'alone 2', 'alone 3', 'alone 4']);
    expect(results.map((r) => (r.status === 'fulfilled' ? r.value : (r.reason as Error).message))).toEqual(['g1', 'a2', 'page 3 is bad', 'a4']);
  });

  it('fails every item of a group with any other error, and goes on with the next group', async () => {
    let failNext = false;
    const group = createCommitGroup<number, string>({
      async writeGroup(items) {
        if (failNext) {
          failNext = false;
          throw new Error('connection lost');
        }
        failNext = items[0] === 1;
        return items.map((item) => `g${item}`);
      },
      writeOne: () => Promise.reject(new Error('never alone')),
      splitOn: (error) => error instanceof Split,
      maxItems: 2,
    });
    const results = await Promise.allSettled([1, 2, 3, 4].map((item) => group.submit(item)));
    expect(results.map((r) => (r.status === 'fulfilled' ? r.value : (r.reason as Error).message))).toEqual(['g1', 'connection lost', 'connection lost', 'g4']);
    // a later item starts a new drain
    expect(await group.submit(5)).toBe('g5');
  });
});
