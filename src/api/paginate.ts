/**
 * Pagination as async generators of PAGES, with guards (docs/style.md#1-pagination; model
 * octokit/plugin-paginate-rest.js `src/iterator.ts`). One generator per strategy; item streams
 * and checkpoints sit on top (extract/).
 *
 * - Every page carries `next`: the position to resume AFTER it (null = the stream is complete), so
 *   a checkpoint written with a page is a valid resume point; a generator can START from one.
 * - Guards throw ApiProtocolError (exit 69) rather than stop quietly, because a quietly short pull
 *   is an incomplete book: a repeated cursor, a page cap, N consecutive empty pages that still
 *   promise more, an offset that cannot advance, a page without `items`.
 * - A chain is strictly sequential: one request at a time per stream.
 */
import { ApiProtocolError } from './errors.js';
import type { LosslessJson } from './json.js';
// ids and cursors kept for a sweep are own copies, not views of the page body (util/own-copy.ts says why)
import { ownCopy } from '../util/own-copy.js';

export interface Page<T, P> {
  items: T[];
  /** where this page was read from (null = the first page of a fresh sweep) */
  at: P | null;
  /** the position to resume after this page; null when the stream is complete */
  next: P | null;
  /** 0-based page number within this run of the generator */
  index: number;
  /** the matching items the server reports (offset mode), when it sends one */
  total?: number;
}

export interface PageGuards {
  /** pages per sweep before giving up (a runaway chain is a bug on one side or the other) */
  readonly maxPages: number;
  /** consecutive empty pages that still promise more before giving up */
  readonly maxConsecutiveEmptyPages: number;
}

export const DEFAULT_PAGE_GUARDS: PageGuards = { maxPages: 100_000, maxConsecutiveEmptyPages: 3 };

/** A list response reduced to what pagination needs. */
export interface ListPage<T> {
  items: T[];
  /** false when the response has no `next_cursor` field at all (a server without cursor mode) */
  hasCursorField: boolean;
  nextCursor: string | null;
  hasMore: boolean | undefined;
  total: number | undefined;
  /** the page size the server says it applied */
  limit: number | undefined;
}

/** Checks a list envelope `{items, offset?, limit?, total?, next_cursor?, has_more?}`. */
export function readListPage(body: LosslessJson, label: string): ListPage<Record<string, LosslessJson>> {
  if (!isRecord(body) || !Array.isArray(body.items)) {
    throw new ApiProtocolError('api_malformed_page', `${label}: the response is not a list page (no items array)`, { label });
  }
  const items = body.items;
  if (!items.every(isRecord)) throw new ApiProtocolError('api_malformed_page', `${label}: a list item is not an object`, { label });
  const hasCursorField = Object.hasOwn(body, 'next_cursor');
  const cursor = body.next_cursor;
  if (hasCursorField && cursor !== null && typeof cursor !== 'string') {
    throw new ApiProtocolError('api_malformed_page', `${label}: next_cursor is neither a string nor null`, { label });
  }
  const hasMore = body.has_more;
  if (hasMore !== undefined && hasMore !== null && typeof hasMore !== 'boolean') {
    throw new ApiProtocolError('api_malformed_page', `${label}: has_more is not a boolean`, { label });
  }
  return {
    items,
    hasCursorField,
    nextCursor: typeof cursor === 'string' && cursor !== '' ? cursor : null,
    hasMore: typeof hasMore === 'boolean' ? hasMore : undefined,
    total: countField(body.total, 'total', label),
    limit: countField(body.limit, 'limit', label),
  };
}

function countField(value: LosslessJson | undefined, name: string, label: string): number | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value === 'number' && Number.isSafeInteger(value) && value >= 0) return value;
  throw new ApiProtocolError('api_malformed_page', `${label}: ${name} is not a non-negative integer`, { label });
}

// ---------------------------------------------------------------------------------------------
// Offset mode (ledger; payments only as a fallback)

export interface OffsetOptions {
  /** page size requested */
  limit: number;
  /** resume position: the offset of the first item not yet read */
  start?: number;
  label: string;
  guards?: Partial<PageGuards>;
}

/**
 * Offset pages over a stable sort. Advances by the items RECEIVED (a server may cap `limit`).
 * Stops at offset ≥ total when the server sends a total; otherwise on a short or empty page.
 */
export async function* offsetPages<T>(fetchPage: (offset: number) => Promise<ListPage<T>>, options: OffsetOptions): AsyncGenerator<Page<T, number>> {
  const guards = { ...DEFAULT_PAGE_GUARDS, ...options.guards };
  let offset = options.start ?? 0;
  for (let index = 0; ; index++) {
    if (index >= guards.maxPages) {
      throw new ApiProtocolError('api_page_cap', `${options.label}: more than ${guards.maxPages} pages; refusing to continue`, { label: options.label, offset });
    }
    const page = await fetchPage(offset);
    const next = offset + page.items.length;
    let done: boolean;
    if (page.total !== undefined) {
      done = next >= page.total || page.hasMore === false;
      if (!done && page.items.length === 0) {
        throw new ApiProtocolError('api_offset_stalled', `${options.label}: empty page at offset ${offset} although total is ${page.total}`, {
          label: options.label,
          offset,
          total: page.total,
        });
      }
    } else {
      const pageSize = page.limit !== undefined && page.limit > 0 ? Math.min(page.limit, options.limit) : options.limit;
      done = page.items.length < pageSize || page.hasMore === false;
    }
    yield { items: page.items, at: index === 0 && options.start === undefined ? null : offset, next: done ? null : next, index, ...(page.total !== undefined ? { total: page.total } : {}) };
    if (done) return;
    offset = next;
  }
}

// ---------------------------------------------------------------------------------------------
// Cursor mode

export interface CursorOptions {
  /** resume position: a `next_cursor` saved with an earlier page */
  start?: string;
  label: string;
  guards?: Partial<PageGuards>;
}

/**
 * Cursor pages: stop on `has_more: false` or no next cursor; throw on a repeated cursor (a seen set
 * for the sweep), `has_more: true` without a cursor, a page cap, or N consecutive empty pages.
 */
export async function* cursorPages<T>(fetchPage: (cursor: string | null) => Promise<ListPage<T>>, options: CursorOptions): AsyncGenerator<Page<T, string>> {
  const guards = { ...DEFAULT_PAGE_GUARDS, ...options.guards };
  const seen = new Set<string>();
  let cursor: string | null = options.start ?? null;
  if (cursor !== null) seen.add(cursor);
  let empties = 0;
  for (let index = 0; ; index++) {
    if (index >= guards.maxPages) {
      throw new ApiProtocolError('api_page_cap', `${options.label}: more than ${guards.maxPages} pages; refusing to continue`, { label: options.label });
    }
    const page = await fetchPage(cursor);
    if (!page.hasCursorField) {
      throw new ApiProtocolError('api_malformed_page', `${options.label}: a cursor page without next_cursor`, { label: options.label, page: index });
    }
    // an own copy: the cursor outlives its page (the next request, the next page's `at`, the seen set),
    // and a view of the body would keep the whole previous body alive (1.6 MB at pages of 500)
    const found = nextCursor(page, options.label, index);
    const next = found === null ? null : ownCopy(found);
    if (next !== null) {
      if (seen.has(next)) {
        throw new ApiProtocolError('api_repeated_cursor', `${options.label}: the service returned a cursor it had already returned; the chain would loop`, {
          label: options.label,
          page: index,
        });
      }
      seen.add(next);
      empties = page.items.length === 0 ? empties + 1 : 0;
      if (empties >= guards.maxConsecutiveEmptyPages) {
        throw new ApiProtocolError('api_empty_pages', `${options.label}: ${empties} consecutive empty pages that still carry a cursor`, {
          label: options.label,
          page: index,
        });
      }
    }
    yield { items: page.items, at: cursor, next, index };
    if (next === null) return;
    cursor = next;
  }
}

function nextCursor(page: ListPage<unknown>, label: string, index: number): string | null {
  if (page.hasMore === false) return null;
  if (page.nextCursor === null && page.hasMore === true) {
    throw new ApiProtocolError('api_malformed_page', `${label}: has_more is true but next_cursor is missing`, { label, page: index });
  }
  return page.nextCursor;
}

// ---------------------------------------------------------------------------------------------
// Payments: cursor mode, falling back to offset mode for a server without cursors

/** A resumable position in a payments sweep (JSON-serializable, for checkpoints). */
export type SweepPosition = { mode: 'cursor'; cursor: string } | { mode: 'offset'; offset: number };

/** What the fetch function must send for one page. */
export type SweepRequest = { mode: 'cursor'; cursor: string | null } | { mode: 'offset'; offset: number };

export interface SweepOptions {
  limit: number;
  start?: SweepPosition;
  label: string;
  guards?: Partial<PageGuards>;
}

/**
 * Cursor mode first (`pagination=cursor`); when the first response has no `next_cursor` field at
 * all, the server does not do cursors: that page is offset page 0 and the sweep continues by offset.
 */
export async function* sweepPages<T>(fetchPage: (request: SweepRequest) => Promise<ListPage<T>>, options: SweepOptions): AsyncGenerator<Page<T, SweepPosition>> {
  const { start, label, guards, limit } = options;
  if (start?.mode === 'offset') {
    yield* asSweep(offsetPages((offset) => fetchPage({ mode: 'offset', offset }), { limit, start: start.offset, label, guards: guards ?? {} }), 'offset');
    return;
  }
  if (start !== undefined) {
    yield* asSweep(cursorPages((cursor) => fetchPage({ mode: 'cursor', cursor }), { start: start.cursor, label, guards: guards ?? {} }), 'cursor');
    return;
  }
  const first = await fetchPage({ mode: 'cursor', cursor: null });
  if (first.hasCursorField) {
    let served = false;
    const replayFirst = (cursor: string | null): Promise<ListPage<T>> => {
      if (!served && cursor === null) {
        served = true;
        return Promise.resolve(first);
      }
      return fetchPage({ mode: 'cursor', cursor });
    };
    yield* asSweep(cursorPages(replayFirst, { label, guards: guards ?? {} }), 'cursor');
    return;
  }
  let served = false;
  const replayFirst = (offset: number): Promise<ListPage<T>> => {
    if (!served && offset === 0) {
      served = true;
      return Promise.resolve(first);
    }
    return fetchPage({ mode: 'offset', offset });
  };
  yield* asSweep(offsetPages(replayFirst, { limit, label, guards: guards ?? {} }), 'offset');
}

async function* asSweep<T>(pages: AsyncGenerator<Page<T, string>> | AsyncGenerator<Page<T, number>>, mode: 'cursor' | 'offset'): AsyncGenerator<Page<T, SweepPosition>> {
  for await (const page of pages) {
    yield { items: page.items, index: page.index, at: toPosition(page.at, mode), next: toPosition(page.next, mode), ...(page.total !== undefined ? { total: page.total } : {}) };
  }
}

function toPosition(value: string | number | null, mode: 'cursor' | 'offset'): SweepPosition | null {
  if (value === null) return null;
  return mode === 'cursor' ? { mode: 'cursor', cursor: String(value) } : { mode: 'offset', offset: Number(value) };
}

// ---------------------------------------------------------------------------------------------
// De-duplication within a sweep

/** Pages of ids a sweep's deduper keeps: a repeat from up to four pages back is still caught. */
export const DEDUPE_WINDOW_PAGES = 4;

/**
 * Items seen lately in this sweep, by id: an item a server sends again near where it first sent it
 * (the next page starting a few items early, offset pages shifting under inserts, a page repeated) is
 * counted and not yielded twice. The ids of the last `windowPages` pages are kept, not the whole
 * sweep's: a chain over an environment read whole would hold ids that grow
 * with the data. Every
 * store keeps one row per key anyway (the database's upsert, the spool's reads by natural key), so an
 * item repeated further back is written again and absorbed there, as one repeated across a resumed
 * sweep always was; it is then counted as pulled, not as a duplicate.
 */
export class SweepDeduper {
  /** the ids of the latest pages, oldest first */
  private readonly pages: Array<Set<string>> = [];
  duplicates = 0;

  constructor(private readonly windowPages = DEDUPE_WINDOW_PAGES) {}

  /** The items of a page not seen before (on it or the pages of the window), in order. */
  unique<T>(items: readonly T[], idOf: (item: T) => string): T[] {
    const page = new Set<string>();
    const fresh: T[] = [];
    for (const item of items) {
      const id = idOf(item);
      if (page.has(id) || this.pages.some((earlier) => earlier.has(id))) this.duplicates++;
      else {
        page.add(ownCopy(id));
        fresh.push(item);
      }
    }
    this.pages.push(page);
    if (this.pages.length > this.windowPages) this.pages.shift();
    return fresh;
  }

  /** ids held now (at most `windowPages` pages' worth) */
  get size(): number {
    return this.pages.reduce((n, page) => n + page.size, 0);
  }
}

/** Pages with duplicates removed; `duplicates` counts those dropped from this page. */
export async function* dedupePages<T, P>(
  pages: AsyncIterable<Page<T, P>>,
  idOf: (item: T) => string,
  deduper: SweepDeduper = new SweepDeduper(),
): AsyncGenerator<Page<T, P> & { duplicates: number }> {
  for await (const page of pages) {
    const before = deduper.duplicates;
    const items = deduper.unique(page.items, idOf);
    yield { ...page, items, duplicates: deduper.duplicates - before };
  }
}

function isRecord(value: unknown): value is Record<string, LosslessJson> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
