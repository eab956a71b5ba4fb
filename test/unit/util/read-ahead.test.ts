import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { eachOpenedAhead, readAheadFor, readsOnTheirTurn, startEarly } from '../../../src/util/read-ahead.js';

/** An async source that logs when each item is asked for. */
function source(name: string, items: number[], log: string[], failAt?: number): AsyncIterable<number> {
  return (async function* () {
    for (let i = 0; i < items.length; i++) {
      log.push(`${name}:read ${i}`);
      await Promise.resolve();
      if (i === failAt) throw new Error(`${name} failed at ${i}`);
      yield items[i] as number;
    }
  })();
}

describe('startEarly', () => {
  it('asks for the first item at once, then gives every item in order', async () => {
    const log: string[] = [];
    const early = startEarly(source('a', [1, 2, 3], log));
    await Promise.resolve();
    expect(log).toEqual(['a:read 0']);
    const got: number[] = [];
    for await (const item of early) got.push(item);
    expect(got).toEqual([1, 2, 3]);
    expect(log).toEqual(['a:read 0', 'a:read 1', 'a:read 2']);
  });

  it('can be iterated once', async () => {
    const early = startEarly(source('a', [1], []));
    for await (const _ of early) break;
    expect(() => early[Symbol.asyncIterator]()).toThrow(/once/);
  });

  it('a first read that fails with nobody iterating is not an unhandled rejection; the consumer sees the error', async () => {
    const early = startEarly(source('a', [1], [], 0));
    await new Promise((resolve) => setTimeout(resolve, 10));
    await expect(
      (async () => {
        for await (const _ of early) return;
      })(),
    ).rejects.toThrow('a failed at 0');
  });
});

describe('eachOpenedAhead', () => {
  it('opens item i+1 when item i is handed out, each once, in order', () => {
    const opened: string[] = [];
    const seen: Array<[string, string]> = [];
    for (const [item, streams] of eachOpenedAhead(['w1', 'w2', 'w3'], (w) => {
      opened.push(w);
      return `streams of ${w}`;
    })) {
      seen.push([item, streams]);
      expect(opened).toEqual(['w1', 'w2', 'w3'].slice(0, Math.min(3, seen.length + 1)));
    }
    expect(seen).toEqual([
      ['w1', 'streams of w1'],
      ['w2', 'streams of w2'],
      ['w3', 'streams of w3'],
    ]);
    expect(opened).toEqual(['w1', 'w2', 'w3']);
  });

  it('opens nothing for no items', () => {
    expect([...eachOpenedAhead([], () => 'x')]).toEqual([]);
  });
});

describe('readAheadFor', () => {
  it('starts a database-like source\'s stream at once, and one marked as reading on its turn only when iterated', async () => {
    for (const [onTurn, before] of [[false, ['a:read 0']], [true, []]] as const) {
      const log: string[] = [];
      const reader = {};
      if (onTurn) readsOnTheirTurn(reader);
      const stream = readAheadFor(reader)(source('a', [1, 2], log));
      await new Promise((resolve) => setTimeout(resolve, 5));
      expect(log).toEqual(before);
      const got: number[] = [];
      for await (const item of stream) got.push(item);
      expect(got).toEqual([1, 2]);
      expect(log).toEqual(['a:read 0', 'a:read 1']);
    }
  });

  it('the spool says its reads overlap nothing: its next wallet is decoded when its turn comes', async () => {
    const { SpoolStore } = await import('../../../src/store/spool/spool-store.js');
    const dir = mkdtempSync(path.join(tmpdir(), 'payexport-read-ahead-'));
    try {
      const log: string[] = [];
      readAheadFor(new SpoolStore(dir))(source('s', [1], log));
      await new Promise((resolve) => setTimeout(resolve, 5));
      expect(log).toEqual([]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
