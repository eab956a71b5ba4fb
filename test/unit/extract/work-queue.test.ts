import { describe, expect, it } from 'vitest';
import { WorkQueue } from '../../../src/extract/work-queue.js';

/** A unit that finishes when the test says so. */
function gate(): { promise: Promise<void>; open(): void } {
  let open!: () => void;
  const promise = new Promise<void>((resolve) => (open = resolve));
  return { promise, open };
}

describe('WorkQueue', () => {
  it('runs the largest priority first, FIFO among equals, never more than width at once', async () => {
    const started: string[] = [];
    let running = 0;
    let peak = 0;
    const queue = new WorkQueue<string>(2, async (unit) => {
      started.push(unit);
      peak = Math.max(peak, ++running);
      await new Promise((resolve) => setImmediate(resolve));
      running--;
    });
    // pushed before drain: the first two start at once, in push order
    queue.push('a1', 1);
    queue.push('b1', 1);
    queue.push('small', 1);
    queue.push('big', 9);
    queue.push('mid', 5);
    queue.push('b2', 1);
    await queue.drain();
    expect(started).toEqual(['a1', 'b1', 'big', 'mid', 'small', 'b2']);
    expect(peak).toBe(2);
  });

  it('runs units that running units add, and drains only when all are done', async () => {
    const done: number[] = [];
    const queue: WorkQueue<number> = new WorkQueue(3, async (n) => {
      if (n < 3) {
        queue.push(n * 10 + 1, 0);
        queue.push(n * 10 + 2, 0);
      }
      await new Promise((resolve) => setImmediate(resolve));
      done.push(n);
    });
    queue.push(1, 0);
    queue.push(2, 0);
    await queue.drain();
    expect(done.sort((a, b) => a - b)).toEqual([1, 2, 11, 12, 21, 22]);
  });

  it('starts nothing new after a failure, lets running units finish, then throws the first error', async () => {
    const slow = gate();
    const finished: string[] = [];
    const queue = new WorkQueue<string>(2, async (unit) => {
      if (unit === 'fails') throw new Error('boom');
      if (unit === 'slow') await slow.promise;
      finished.push(unit);
    });
    queue.push('slow', 2);
    queue.push('fails', 1);
    queue.push('never', 0);
    const drained = queue.drain().then(
      () => null,
      (e: unknown) => e,
    );
    await new Promise((resolve) => setImmediate(resolve));
    slow.open();
    expect(await drained).toMatchObject({ message: 'boom' });
    expect(finished).toEqual(['slow']);
  });

  it('stops on abort with the signal’s reason', async () => {
    const controller = new AbortController();
    const ran: number[] = [];
    const queue = new WorkQueue<number>(1, async (n) => {
      ran.push(n);
      if (n === 1) controller.abort(new Error('interrupted'));
    }, controller.signal);
    queue.push(1, 2);
    queue.push(2, 1);
    await expect(queue.drain()).rejects.toThrow('interrupted');
    expect(ran).toEqual([1]);
  });

  it('drains at once when empty', async () => {
    await expect(new WorkQueue<number>(4, async () => undefined).drain()).resolves.toBeUndefined();
  });
});
