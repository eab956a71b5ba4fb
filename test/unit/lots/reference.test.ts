/**
 * Reference tests, as RP2 and rotki keep them: one event history, and for every method a
 * hand-computed file of what it must produce (relief lines, lots moved by the transfer, lots held
 * at the end, notes), compared whole. The arithmetic of each file is worked in docs/lots.md's
 * "Reference history" section.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { MethodPeriod } from '../../../src/lots/method.js';
import { REFERENCE_DIR, runReference } from '../../support/lots/reference-history.js';

const expected = (name: string): string => readFileSync(new URL(`${name}.expected`, REFERENCE_DIR), 'utf8');
const both = (method: MethodPeriod['method']): Map<string, MethodPeriod[]> => new Map([['A', [{ method, from: '2020-01-01' }]], ['B', [{ method, from: '2020-01-01' }]]]);

describe('the reference history under each method', () => {
  for (const method of ['fifo', 'lifo', 'hifo', 'average'] as const) {
    it(`${method} gives the hand-computed lots and reliefs`, () => {
      expect(runReference(both(method), false)).toBe(expected(method));
    });
  }

  it('specific: an identification recorded before the disposal is followed, one recorded after is refused for the standing order', () => {
    expect(runReference(new Map([['A', [{ method: 'specific', from: '2025-01-01' }]]]), true)).toBe(expected('specific'));
  });

  it('a method change applies from its date on (fifo, then lifo from 15 July 2025)', () => {
    const methods = new Map([['A', [{ method: 'fifo' as const, from: '2024-01-01' }, { method: 'lifo' as const, from: '2025-07-15T00:00:00.000000Z' }]]]);
    expect(runReference(methods, false)).toBe(expected('fifo-then-lifo'));
  });

  it('no method configured is fifo', () => {
    expect(runReference(new Map(), false)).toBe(expected('fifo'));
  });

  it('gives the same output whatever order the events arrive in', () => {
    expect(runReference(both('hifo'), false, (events) => [...events].reverse())).toBe(expected('hifo'));
  });
});
