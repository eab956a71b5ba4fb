import { describe, expect, it } from 'vitest';
import { boundHeapGrowth } from '../../../src/cli/heap-growth.js';

describe('boundHeapGrowth', () => {
  it('leaves a factor the user chose in their node flags alone', () => {
    expect(boundHeapGrowth(['--heap-growing-percent=80'])).toBe(false);
    expect(boundHeapGrowth(['--max-old-space-size=300', '--heap_growing_percent=20'])).toBe(false);
  });

  it('sets its own factor otherwise (other node flags do not count as a choice)', () => {
    expect(boundHeapGrowth(['--enable-source-maps', '--max-old-space-size=300'])).toBe(true);
  });
});
