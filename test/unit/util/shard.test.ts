import { describe, expect, it } from 'vitest';
import { inShard, parseShard, shardOf } from '../../../src/util/shard.js';
import { AppError } from '../../../src/util/errors.js';

const ids = Array.from({ length: 300 }, (_, i) => `aaaaaaaa-0000-4000-8000-${i.toString(16).padStart(12, '0')}`);

describe('shards', () => {
  it('assign every wallet to exactly one of N shards, stably', () => {
    for (const n of [1, 2, 3, 7]) {
      const shards = Array.from({ length: n }, (_, index) => ({ index, count: n }));
      for (const id of ids) expect(shards.filter((s) => inShard(id, s))).toHaveLength(1);
    }
    expect(shardOf(ids[5]!, 3)).toBe(shardOf(ids[5]!.toUpperCase(), 3));
  });

  it('spread wallets roughly evenly', () => {
    const counts = [0, 0, 0];
    for (const id of ids) counts[shardOf(id, 3)]!++;
    for (const c of counts) expect(c).toBeGreaterThan(60);
  });

  it('parse K/N and refuse nonsense with exit 64', () => {
    expect(parseShard('2/3')).toEqual({ index: 2, count: 3 });
    expect(parseShard(undefined)).toBeUndefined();
    for (const bad of ['3/3', '1/0', 'a/b', '1-3']) {
      expect(() => parseShard(bad)).toThrow(AppError);
    }
  });
});
