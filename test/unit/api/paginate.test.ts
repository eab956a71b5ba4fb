import { describe, expect, it } from 'vitest';
import { ApiProtocolError } from '../../../src/api/errors.js';
import {
  cursorPages,
  DEDUPE_WINDOW_PAGES,
  dedupePages,
  offsetPages,
  readListPage,
  sweepPages,
  SweepDeduper,
  type ListPage,
  type Page,
  type SweepPosition,
  type SweepRequest,
} from '../../../src/api/paginate.js';

type Item = { id: string };
const items = (...ids: string[]): Item[] => ids.map((id) => ({ id }));
const cursorPage = (ids: string[], next: string | null, hasMore?: boolean): ListPage<Item> => ({
  items: items(...ids),
  hasCursorField: true,
  nextCursor: next,
  hasMore: hasMore ?? next !== null,
  total: undefined,
  limit: 2,
});
const offsetPage = (ids: string[], total?: number, limit = 2): ListPage<Item> => ({ items: items(...ids), hasCursorField: false, nextCursor: null, hasMore: undefined, total, limit });

async function collect<R>(pages: AsyncIterable<R>): Promise<R[]> {
  const out: R[] = [];
  for await (const page of pages) out.push(page);
  return out;
}

/** A scripted fetch: answers from a table keyed by the request, and records the requests. */
function scripted<K, V>(table: Map<K, V> | ((key: K, n: number) => V)) {
  const requests: K[] = [];
  const fetch = async (key: K): Promise<V> => {
    requests.push(key);
    const value = typeof table === 'function' ? table(key, requests.length) : table.get(key);
    if (value === undefined) throw new Error(`unexpected request ${JSON.stringify(key)}`);
    return value;
  };
  return { fetch, requests };
}

describe('cursorPages', () => {
  const chain = new Map<string | null, ListPage<Item>>([
    [null, cursorPage(['a', 'b'], 'c1')],
    ['c1', cursorPage(['c', 'd'], 'c2')],
    ['c2', cursorPage(['e'], null, false)],
  ]);

  it.each<[string, Map<string | null, ListPage<Item>>, string | undefined, string[][], Array<string | null>, Array<string | null>]>([
    ['a full chain', chain, undefined, [['a', 'b'], ['c', 'd'], ['e']], [null, 'c1', 'c2'], ['c1', 'c2', null]],
    ['a chain resumed from a saved cursor', chain, 'c1', [['c', 'd'], ['e']], ['c1', 'c2'], ['c2', null]],
    [
      'has_more false wins over a leftover cursor',
      new Map([[null, { ...cursorPage(['a'], 'stale'), hasMore: false }]]),
      undefined,
      [['a']],
      [null],
      [null],
    ],
    ['a null cursor without has_more ends', new Map([[null, { ...cursorPage(['a'], null), hasMore: undefined }]]), undefined, [['a']], [null], [null]],
    ['an empty first page ends', new Map([[null, cursorPage([], null, false)]]), undefined, [[]], [null], [null]],
    [
      'one empty page mid-chain is tolerated',
      new Map([
        [null, cursorPage(['a'], 'c1')],
        ['c1', cursorPage([], 'c2')],
        ['c2', cursorPage(['b'], null, false)],
      ]),
      undefined,
      [['a'], [], ['b']],
      [null, 'c1', 'c2'],
      ['c1', 'c2', null],
    ],
  ])('%s', async (_name, table, start, expectedItems, expectedRequests, expectedNext) => {
    const { fetch, requests } = scripted(table);
    const pages = await collect(cursorPages(fetch, { label: 'test', ...(start ? { start } : {}) }));
    expect(pages.map((p) => p.items.map((i) => i.id))).toEqual(expectedItems);
    expect(requests).toEqual(expectedRequests);
    expect(pages.map((p) => p.next)).toEqual(expectedNext);
    expect(pages.map((p) => p.at)).toEqual(expectedRequests);
  });

  it.each<[string, Map<string | null, ListPage<Item>>, { maxPages?: number; maxConsecutiveEmptyPages?: number }, string, number]>([
    [
      'a repeated cursor',
      new Map([
        [null, cursorPage(['a'], 'c1')],
        ['c1', cursorPage(['b'], 'c2')],
        ['c2', cursorPage(['c'], 'c1')],
      ]),
      {},
      'api_repeated_cursor',
      2,
    ],
    ['a cursor that points at itself', new Map([[null, cursorPage(['a'], 'c1')], ['c1', cursorPage(['b'], 'c1')]]), {}, 'api_repeated_cursor', 1],
    [
      'consecutive empty pages with a cursor',
      new Map([
        [null, cursorPage([], 'c1')],
        ['c1', cursorPage([], 'c2')],
        ['c2', cursorPage([], 'c3')],
      ]),
      { maxConsecutiveEmptyPages: 3 },
      'api_empty_pages',
      2,
    ],
    ['the page cap', new Map([[null, cursorPage(['a'], 'c1')], ['c1', cursorPage(['b'], 'c2')]]), { maxPages: 2 }, 'api_page_cap', 2],
    ['has_more true without a cursor', new Map([[null, { ...cursorPage(['a'], null), hasMore: true }]]), {}, 'api_malformed_page', 0],
    ['a page without a cursor field mid-chain', new Map([[null, cursorPage(['a'], 'c1')], ['c1', offsetPage(['b'])]]), {}, 'api_malformed_page', 1],
  ])('throws loudly on %s', async (_name, table, guards, type, pagesBefore) => {
    const { fetch } = scripted(table);
    const seen: Array<Page<Item, string>> = [];
    const error = await (async () => {
      for await (const page of cursorPages(fetch, { label: 'test', guards })) seen.push(page);
    })().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiProtocolError);
    expect((error as ApiProtocolError).type).toBe(type);
    expect((error as ApiProtocolError).exitCode).toBe(69);
    expect(seen).toHaveLength(pagesBefore);
  });

  it('treats the start cursor as seen', async () => {
    const { fetch } = scripted(new Map<string | null, ListPage<Item>>([['c1', cursorPage(['b'], 'c1')]]));
    await expect(collect(cursorPages(fetch, { label: 'test', start: 'c1' }))).rejects.toMatchObject({ type: 'api_repeated_cursor' });
  });
});

describe('offsetPages', () => {
  it.each<[string, (offset: number) => ListPage<Item>, number | undefined, string[][], number[], Array<number | null>]>([
    [
      'stops at offset ≥ total',
      (o) => ({ 0: offsetPage(['a', 'b'], 5), 2: offsetPage(['c', 'd'], 5), 4: offsetPage(['e'], 5) })[o]!,
      undefined,
      [['a', 'b'], ['c', 'd'], ['e']],
      [0, 2, 4],
      [2, 4, null],
    ],
    ['stops exactly at total on a full page', (o) => ({ 0: offsetPage(['a', 'b'], 2) })[o]!, undefined, [['a', 'b']], [0], [null]],
    [
      'advances by items received when the server caps the page size',
      (o) => ({ 0: offsetPage(['a'], 3, 1), 1: offsetPage(['b'], 3, 1), 2: offsetPage(['c'], 3, 1) })[o]!,
      undefined,
      [['a'], ['b'], ['c']],
      [0, 1, 2],
      [1, 2, null],
    ],
    ['without total: stops on a short page', (o) => ({ 0: offsetPage(['a', 'b']), 2: offsetPage(['c']) })[o]!, undefined, [['a', 'b'], ['c']], [0, 2], [2, null]],
    ['without total: stops on an empty page', (o) => ({ 0: offsetPage(['a', 'b']), 2: offsetPage([]) })[o]!, undefined, [['a', 'b'], []], [0, 2], [2, null]],
    ['resumes from a saved offset', (o) => ({ 2: offsetPage(['c', 'd'], 5), 4: offsetPage(['e'], 5) })[o]!, 2, [['c', 'd'], ['e']], [2, 4], [4, null]],
    ['total 0', (o) => ({ 0: offsetPage([], 0) })[o]!, undefined, [[]], [0], [null]],
  ])('%s', async (_name, table, start, expectedItems, expectedRequests, expectedNext) => {
    const { fetch, requests } = scripted<number, ListPage<Item>>((offset) => table(offset));
    const pages = await collect(offsetPages(fetch, { limit: 2, label: 'test', ...(start !== undefined ? { start } : {}) }));
    expect(pages.map((p) => p.items.map((i) => i.id))).toEqual(expectedItems);
    expect(requests).toEqual(expectedRequests);
    expect(pages.map((p) => p.next)).toEqual(expectedNext);
  });

  it('throws when an empty page stalls below total', async () => {
    const { fetch } = scripted<number, ListPage<Item>>((offset) => (offset === 0 ? offsetPage(['a', 'b'], 9) : offsetPage([], 9)));
    await expect(collect(offsetPages(fetch, { limit: 2, label: 'test' }))).rejects.toMatchObject({ type: 'api_offset_stalled' });
  });

  it('throws at the page cap', async () => {
    const { fetch } = scripted<number, ListPage<Item>>(() => offsetPage(['a', 'b'], 1_000));
    await expect(collect(offsetPages(fetch, { limit: 2, label: 'test', guards: { maxPages: 3 } }))).rejects.toMatchObject({ type: 'api_page_cap' });
  });
});

describe('sweepPages (cursor, with offset fallback)', () => {
  it('stays in cursor mode when the server sends next_cursor', async () => {
    const { fetch, requests } = scripted<SweepRequest, ListPage<Item>>((r) =>
      r.mode === 'cursor' && r.cursor === null ? cursorPage(['a', 'b'], 'c1') : cursorPage(['c'], null, false),
    );
    const pages = await collect(sweepPages(fetch, { limit: 2, label: 'test' }));
    expect(requests).toEqual([
      { mode: 'cursor', cursor: null },
      { mode: 'cursor', cursor: 'c1' },
    ]);
    expect(pages.map((p) => p.next)).toEqual([{ mode: 'cursor', cursor: 'c1' }, null]);
  });

  it('falls back to offset mode only when the first response has no cursor field at all', async () => {
    const { fetch, requests } = scripted<SweepRequest, ListPage<Item>>((r) =>
      r.mode === 'cursor' ? offsetPage(['a', 'b'], 3) : r.offset === 2 ? offsetPage(['c'], 3) : offsetPage([], 3),
    );
    const pages = await collect(sweepPages(fetch, { limit: 2, label: 'test' }));
    expect(requests).toEqual([
      { mode: 'cursor', cursor: null },
      { mode: 'offset', offset: 2 },
    ]);
    expect(pages.map((p) => p.items.map((i) => i.id))).toEqual([['a', 'b'], ['c']]);
    expect(pages.map((p) => p.next)).toEqual([{ mode: 'offset', offset: 2 }, null]);
  });

  it.each<[SweepPosition, SweepRequest]>([
    [{ mode: 'cursor', cursor: 'c7' }, { mode: 'cursor', cursor: 'c7' }],
    [{ mode: 'offset', offset: 40 }, { mode: 'offset', offset: 40 }],
  ])('resumes from %j', async (start, firstRequest) => {
    const { fetch, requests } = scripted<SweepRequest, ListPage<Item>>((r) => (r.mode === 'cursor' ? cursorPage(['x'], null, false) : offsetPage(['x'], 41)));
    const pages = await collect(sweepPages(fetch, { limit: 2, label: 'test', start }));
    expect(requests).toEqual([firstRequest]);
    expect(pages[0]?.at).toEqual(start);
    expect(pages[0]?.next).toBeNull();
  });
});

describe('de-duplication within a sweep', () => {
  it('drops and counts items already seen on earlier pages or the same page', async () => {
    async function* pages(): AsyncGenerator<Page<Item, number>> {
      yield { items: items('a', 'b', 'b'), at: null, next: 2, index: 0 };
      yield { items: items('b', 'c'), at: 2, next: 4, index: 1 };
      yield { items: items('a', 'd'), at: 4, next: null, index: 2 };
    }
    const deduper = new SweepDeduper();
    const out = await collect(dedupePages(pages(), (i) => i.id, deduper));
    expect(out.map((p) => p.items.map((i) => i.id))).toEqual([['a', 'b'], ['c'], ['d']]);
    expect(out.map((p) => p.duplicates)).toEqual([1, 1, 1]);
    expect(deduper.duplicates).toBe(3);
    expect(deduper.size).toBe(4);
  });

  it('keeps the ids of the last pages only: memory bounded by the window, not by the sweep', () => {
    const deduper = new SweepDeduper(2);
    const page = (...ids: string[]): Item[] => items(...ids);
    expect(deduper.unique(page('a', 'b'), (i) => i.id).map((i) => i.id)).toEqual(['a', 'b']);
    expect(deduper.unique(page('c', 'd'), (i) => i.id).map((i) => i.id)).toEqual(['c', 'd']);
    // 'a' is one page back: still in the window
    expect(deduper.unique(page('a', 'e'), (i) => i.id).map((i) => i.id)).toEqual(['e']);
    expect(deduper.size).toBe(3);
    // 'b' left the window two pages ago: yielded again, for the store's key to absorb
    expect(deduper.unique(page('b', 'f'), (i) => i.id).map((i) => i.id)).toEqual(['b', 'f']);
    expect(deduper.duplicates).toBe(1);
    expect(deduper.size).toBe(3);
  });

  it('holds at most window × page ids over a long sweep', () => {
    const deduper = new SweepDeduper();
    for (let p = 0; p < 200; p++) deduper.unique(items(...Array.from({ length: 500 }, (_, i) => `id-${p}-${i}`)), (i) => i.id);
    expect(deduper.size).toBe(DEDUPE_WINDOW_PAGES * 500);
  });
});

describe('readListPage', () => {
  it.each([
    [{ items: [], next_cursor: null, has_more: false }, { hasCursorField: true, nextCursor: null, hasMore: false }],
    [{ items: [{}], offset: 0, limit: 100, total: 1 }, { hasCursorField: false, total: 1, limit: 100 }],
    [{ items: [], next_cursor: '' }, { hasCursorField: true, nextCursor: null }],
  ])('%j', (body, expected) => {
    expect(readListPage(body, 'test')).toMatchObject(expected);
  });

  it.each([[[]], [{}], [{ items: {} }], [{ items: [1] }], [{ items: [], next_cursor: 5 }], [{ items: [], has_more: 'yes' }], [{ items: [], total: -1 }], [{ items: [], total: 1.5 }]])(
    'rejects %j',
    (body) => {
      expect(() => readListPage(body as never, 'test')).toThrow(ApiProtocolError);
    },
  );
});
