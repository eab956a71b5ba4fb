import { describe, expect, it } from 'vitest';
import { parseDeliveryFaults, seededRandom } from '../../../../src/sim/faults/delivery-faults.js';
import { FaultSpecError } from '../../../../src/sim/faults/fault-spec.js';

describe('delivery fault grammar', () => {
  it('parses every rule', () => {
    expect(parseDeliveryFaults('drop=0.2, dup=0.1,reorder=0.3,reorder-ms=50,delay=1s,badsig=0.05,seed=9')).toEqual({ drop: 0.2, dup: 0.1, reorder: 0.3, reorderMs: 50, delayMs: 1000, badSignature: 0.05, seed: 9 });
    expect(parseDeliveryFaults('')).toEqual({});
  });

  it.each(['drop=2', 'dup=x', 'delay=fast', 'seed=-1', 'lose=0.1'])('refuses %s', (spec) => {
    expect(() => parseDeliveryFaults(spec)).toThrow(FaultSpecError);
  });

  it('draws the same sequence for the same seed', () => {
    const a = seededRandom(7);
    const b = seededRandom(7);
    const draws = Array.from({ length: 5 }, () => a());
    expect(Array.from({ length: 5 }, () => b())).toEqual(draws);
    expect(draws.every((x) => x >= 0 && x < 1)).toBe(true);
  });
});
