import { describe, expect, it } from 'vitest';
import { inTurns } from '../../../src/delivery/in-turns.js';
import { isLeftoverOf, oldName, partName } from '../../../src/delivery/tree-leftovers.js';

/**
 * Which entries beside a published folder a delivery may remove: the temporary entries of the
 * same folder's deliveries — marked `payexport-`, or the exact shapes versions before issue 40 made
 * — and nothing else (another folder's, an amendment's, a person's own hidden files).
 */
describe('isLeftoverOf', () => {
  const cases: Array<[string, string, boolean]> = [
    ['2026-10', partName('2026-10'), true],
    ['2026-10', oldName('2026-10', '20261128T055103Z-13ebaa86'), true],
    ['2026-10', '.2026-10.part-0123456789abcdef', true],
    ['2026-10', '.2026-10.old-20261128T055103Z-13ebaa86', true],
    // an amendment is another folder, with leftovers of its own
    ['2026-10', partName('2026-10.amended-1'), false],
    ['2026-10.amended-1', partName('2026-10.amended-1'), true],
    ['2026-10', '2026-10', false],
    ['2026-10', '.2026-10.part-notours', false],
    ['2026-10', '.2026-10.old-by-hand', false],
    ['2026-10', '.2026-10.payexport-partial', false],
    ['2026-11-20', partName('2026-11-2'), false],
    ['2026-11-2', partName('2026-11-20'), false],
  ];
  for (const [folder, name, expected] of cases) {
    it(`${name} beside ${folder}: ${expected ? 'a leftover' : 'not ours'}`, () => expect(isLeftoverOf(folder, name)).toBe(expected));
  }
});

describe('inTurns', () => {
  it('keeps at most `workers` items in flight and does every item once', async () => {
    let inFlight = 0;
    let most = 0;
    const seen: number[] = [];
    await inTurns([1, 2, 3, 4, 5, 6, 7], 3, async (n) => {
      inFlight++;
      most = Math.max(most, inFlight);
      await new Promise((r) => setImmediate(r));
      seen.push(n);
      inFlight--;
    });
    expect(most).toBe(3);
    expect(seen.sort()).toEqual([1, 2, 3, 4, 5, 6, 7]);
  });

  it('stops taking items after a failure and throws it once those in flight settle', async () => {
    const started: number[] = [];
    let settled = 0;
    const run = inTurns([1, 2, 3, 4, 5, 6], 2, async (n) => {
      started.push(n);
      await new Promise((r) => setImmediate(r));
      settled++;
      if (n === 1) throw new Error('one failed');
    });
    await expect(run).rejects.toThrow('one failed');
    expect(settled).toBe(started.length);
    expect(started.length).toBeLessThan(6);
  });
});
