import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { IdSet } from '../../../src/util/id-set.js';

const HEX = '0123456789abcdef';
const uuid = fc
  .array(fc.integer({ min: 0, max: 15 }), { minLength: 32, maxLength: 32 })
  .map((d) => d.map((v) => HEX[v]).join(''))
  .map((h) => `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`);
/** ids as the service sends them, other spellings of them, and text that only looks like one */
const id = fc.oneof(
  { weight: 6, arbitrary: uuid },
  { weight: 1, arbitrary: uuid.map((u) => u.toUpperCase()) },
  { weight: 1, arbitrary: uuid.map((u) => u.replace(/-/g, '')) },
  { weight: 1, arbitrary: uuid.map((u) => `${u.slice(0, 35)}g`) },
  { weight: 1, arbitrary: uuid.map((u) => `${u.slice(0, 8)}_${u.slice(9)}`) },
  { weight: 1, arbitrary: fc.string({ maxLength: 40 }) },
);

describe('IdSet: a set of ids, UUIDs packed off the heap', () => {
  it('answers as a Set of the same strings would, through growth, for any mix of ids', () => {
    fc.assert(
      fc.property(fc.array(id, { maxLength: 3000 }), fc.array(id, { maxLength: 200 }), (added, asked) => {
        const ours = new IdSet();
        const reference = new Set<string>();
        for (const value of added) {
          ours.add(value);
          reference.add(value);
        }
        expect(ours.size).toBe(reference.size);
        for (const value of [...added, ...asked]) expect(ours.has(value)).toBe(reference.has(value));
      }),
      { numRuns: 200 },
    );
  });

  it('tells apart ids that differ in one digit, and keeps the all-zero and all-f UUIDs', () => {
    const set = new IdSet();
    const zero = '00000000-0000-0000-0000-000000000000';
    const ones = 'ffffffff-ffff-ffff-ffff-ffffffffffff';
    expect(set.has(zero)).toBe(false);
    set.add(zero);
    set.add(ones);
    set.add(zero);
    expect(set.size).toBe(2);
    expect(set.has(zero)).toBe(true);
    expect(set.has(ones)).toBe(true);
    expect(set.has('00000000-0000-0000-0000-000000000001')).toBe(false);
    expect(set.has('FFFFFFFF-FFFF-FFFF-FFFF-FFFFFFFFFFFF')).toBe(false);
  });

  it('holds sequential and time-ordered UUIDs (not random in every bit) past many doublings', () => {
    const set = new IdSet();
    const ids: string[] = [];
    for (let i = 0; i < 50_000; i++) {
      const h = i.toString(16).padStart(12, '0');
      ids.push(`0190f2a1-7c00-7000-8000-${h}`);
    }
    for (const value of ids) set.add(value);
    expect(set.size).toBe(ids.length);
    expect(ids.every((value) => set.has(value))).toBe(true);
    expect(set.has('0190f2a1-7c00-7000-8000-00000000c350')).toBe(false);
  });
});
