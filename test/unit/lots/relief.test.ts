import { describe, expect, it } from 'vitest';
import { methodAt } from '../../../src/lots/method.js';
import type { Lot } from '../../../src/lots/model.js';
import { relieve, shareByUnits } from '../../../src/lots/relief.js';
import { holdingTerm } from '../../../src/lots/term.js';

const lot = (units: bigint, cost: bigint | null): Lot => ({ lotId: 'L', walletId: 'w', currency: 'btc', acquiredAt: '2025-01-01T00:00:00.000000Z', origin: 'receive', units, cost });

describe('relieving a lot', () => {
  it('relieves the exact share rounded half-even, and everything left when the lot empties', () => {
    const l = lot(3n, 100n);
    expect(relieve(l, 1n)).toBe(33n); // 33.33…
    expect(relieve(l, 1n)).toBe(34n); // 67 × 1/2 = 33.5 → 34 (even)
    expect(relieve(l, 1n)).toBe(33n); // all that is left: the lot leaves 0.00
    expect(l).toMatchObject({ units: 0n, cost: 0n });
  });

  it('never relieves more than the cost left, even a cent spread over many units', () => {
    const l = lot(1000n, 1n);
    let relieved = 0n;
    for (let i = 0; i < 1000; i++) relieved += relieve(l, 1n) as bigint;
    expect(relieved).toBe(1n);
    expect(l.cost).toBe(0n);
  });

  it('keeps an unknown basis unknown and refuses to relieve more than the lot holds', () => {
    const l = lot(5n, null);
    expect(relieve(l, 2n)).toBeNull();
    expect(() => relieve(l, 4n)).toThrow(RangeError);
  });
});

describe('sharing proceeds by units', () => {
  it('sums exactly to the leg and gives leftover cents to the largest remainders', () => {
    expect(shareByUnits(100n, [1n, 1n, 1n])).toEqual([34n, 33n, 33n]);
    expect(shareByUnits(10n, [1n, 2n])).toEqual([3n, 7n]);
  });
});

describe('method in force and holding term', () => {
  it('takes the latest method whose date has come', () => {
    const periods = [{ method: 'lifo' as const, from: '2025-07-01' }, { method: 'hifo' as const, from: '2025-01-01' }];
    expect(methodAt(periods, '2024-12-31T23:59:59.000000Z')).toBe('fifo');
    expect(methodAt(periods, '2025-03-01T00:00:00.000000Z')).toBe('hifo');
    expect(methodAt(periods, '2025-07-01T00:00:00.000000Z')).toBe('lifo');
  });

  it('is long only past the first anniversary', () => {
    expect(holdingTerm('2024-03-15T10:00:00.000000Z', '2025-03-15T23:00:00.000000Z')).toBe('short');
    expect(holdingTerm('2024-03-15T10:00:00.000000Z', '2025-03-16T00:00:00.000000Z')).toBe('long');
    expect(holdingTerm('2024-02-29T00:00:00.000000Z', '2025-03-01T00:00:00.000000Z')).toBe('long');
  });
});
