/**
 * Counter-based pseudo-random numbers: every value is a pure function of (seed, key, salt, n).
 * Payment i is derived from (seed, i) alone, so the dataset never has to be held in memory and
 * any record can be rebuilt in any order, byte for byte (docs/simulator.md "Determinism").
 *
 * Not for cryptography. `mix32` is the "lowbias32" integer hash (Chris Wellons, public domain).
 */

export function mix32(input: number): number {
  let x = input >>> 0;
  x ^= x >>> 16;
  x = Math.imul(x, 0x7feb352d);
  x ^= x >>> 15;
  x = Math.imul(x, 0x846ca68b);
  x ^= x >>> 16;
  return x >>> 0;
}

/** A 32-bit hash of up to four integers (each taken mod 2^32; keys above 2^32 fold their high part in). */
export function hash32(seed: number, a: number, b = 0, c = 0): number {
  let h = mix32(seed ^ 0x9e3779b9);
  h = mix32(h ^ (a >>> 0) ^ Math.floor(a / 0x1_0000_0000));
  h = mix32(h + 0x632be5ab + (b >>> 0));
  return mix32(h ^ Math.imul(c >>> 0, 0x85ebca6b));
}

/** A 32-bit hash of a string (FNV-1a then mixed), for salts named in code. */
export function hashString(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return mix32(h);
}

/**
 * A sequence of numbers for one (seed, key, salt): the n-th draw is hash32(seed, key, salt, n).
 * Two streams with different salts are independent, so adding a draw to one field never shifts
 * the values of another.
 */
export class Stream {
  private n = 0;

  constructor(
    private readonly seed: number,
    private readonly key: number,
    private readonly salt: number,
  ) {}

  u32(): number {
    return hash32(this.seed, this.key, this.salt, this.n++);
  }

  /** A float in [0, 1). */
  unit(): number {
    return this.u32() / 0x1_0000_0000;
  }

  /** An integer in [lo, hi] (inclusive; both must be safe integers). */
  int(lo: number, hi: number): number {
    return lo + Math.floor(this.unit() * (hi - lo + 1));
  }

  chance(p: number): boolean {
    return this.unit() < p;
  }

  pick<T>(items: readonly T[]): T {
    const item = items[Math.floor(this.unit() * items.length)];
    if (item === undefined) throw new Error('Stream.pick on an empty list');
    return item;
  }

  /** Index chosen with the given (non-negative) weights. */
  weighted(weights: readonly number[]): number {
    let total = 0;
    for (const w of weights) total += w;
    let r = this.unit() * total;
    for (let i = 0; i < weights.length; i++) {
      r -= weights[i] ?? 0;
      if (r < 0) return i;
    }
    return weights.length - 1;
  }

  /** `bytes` random bytes as lowercase hex. */
  hex(bytes: number): string {
    let out = '';
    for (let i = 0; i < bytes; i += 4) out += hex32(this.u32());
    return out.length === bytes * 2 ? out : out.slice(0, bytes * 2);
  }
}

const BYTE_HEX = Array.from({ length: 256 }, (_, b) => b.toString(16).padStart(2, '0'));

/** Eight lowercase hex digits of a 32-bit value. */
export function hex32(value: number): string {
  return (
    (BYTE_HEX[(value >>> 24) & 0xff] as string) +
    (BYTE_HEX[(value >>> 16) & 0xff] as string) +
    (BYTE_HEX[(value >>> 8) & 0xff] as string) +
    (BYTE_HEX[value & 0xff] as string)
  );
}

/** A sequential seeded generator (mulberry32), for draws whose order is the point (delivery faults, kill moments): the same seed gives the same numbers in the same order. */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
