/**
 * The lists a pull read, rebuilt from its evidence's request lines (folder-evidence.ts): the pages
 * of one list — its path and filters, without the position parameters — must follow each other
 * the way the paginator (src/api/paginate.ts) walks them: a cursor page names the next cursor
 * (`has_more: false` or none ends the list); an offset page is followed by the offset after its
 * items unless it was the last (offset + items ≥ total, or a short page).
 *
 * One small state per list (the position expected next, the last few positions read), so a
 * resumed run may read again a page or two from before its kill; anything else out of order is a
 * page missing.
 *
 * Chains of one path meet both ways: a chain that stops while its last page named more must be
 * carried on by a chain of the same path that starts there (a split ledger: the first page's
 * chain stops at its offset, the slice that continues it starts at that offset under a narrower
 * filter), and a chain that starts part-way must start where another stopped — otherwise the
 * pages before it, its first page at least, are not on record.
 */

const POSITION_PARAMS = new Set(['cursor', 'offset', 'limit', 'pagination']);
/** pages a resumed run may go back: the page being written behind and the one being read at the kill */
const REREAD_WINDOW = 4;

interface ListState {
  label: string;
  path: string;
  /** null: the list said it ended */
  expected: string | null;
  recent: string[];
  line: number;
  /** where the chain began when not at the list's start, and on which line */
  began: { at: string; line: number } | null;
}

export class ListChains {
  private readonly lists = new Map<string, ListState>();
  /** path + position where a list began part-way (a split ledger carries on there) */
  private readonly midStarts = new Set<string>();

  /** Takes one request line; returns the gap it shows, or null. */
  add(line: Record<string, unknown>, n: number): string | null {
    const status = line['status'];
    if (typeof status !== 'number' || status < 200 || status > 299 || typeof line['items'] !== 'number') return null;
    const path = String(line['path']);
    const params = Array.isArray(line['params']) ? (line['params'] as Array<[string, string]>) : [];
    const filters = params.filter(([k]) => !POSITION_PARAMS.has(k));
    const key = filters.length === 0 ? path : `${path}?${new URLSearchParams(filters).toString()}`;
    const at = positionOf(params);
    const next = nextOf(line, params);
    const state = this.lists.get(key);
    if (state === undefined || at === 'start' || (state.expected === null && !state.recent.includes(at))) {
      if (at !== 'start') this.midStarts.add(`${path} ${at}`);
      this.lists.set(key, { label: key, path, expected: next, recent: [at], line: n, began: at === 'start' ? null : { at, line: n } });
      return null;
    }
    if (at !== state.expected && !state.recent.includes(at)) {
      return `a page of ${key} is missing: line ${n} reads ${shown(at)}, but the page before it (line ${state.line}) named ${shown(state.expected)}`;
    }
    state.expected = next;
    state.recent.push(at);
    if (state.recent.length > REREAD_WINDOW) state.recent.shift();
    state.line = n;
    return null;
  }

  /**
   * A list that stopped while its last page named more and that no other chain carried on, or
   * one that began part-way where no other chain of its path stopped.
   */
  unfinished(): string | null {
    const stops = new Set<string>();
    for (const state of this.lists.values()) {
      if (state.expected === null) continue;
      if (!this.midStarts.has(`${state.path} ${state.expected}`)) {
        return `${state.label} stops at line ${state.line}, whose page named ${shown(state.expected)} next: a page is missing at its end`;
      }
      stops.add(`${state.path} ${state.expected}`);
    }
    for (const state of this.lists.values()) {
      if (state.began !== null && !stops.has(`${state.path} ${state.began.at}`)) {
        return `${state.label} begins at line ${state.began.line} with ${shown(state.began.at)}, which no page before it named: a page is missing at its start`;
      }
    }
    return null;
  }
}

function positionOf(params: ReadonlyArray<readonly [string, string]>): string {
  const cursor = params.find(([k]) => k === 'cursor')?.[1];
  if (cursor !== undefined && cursor !== '') return `cursor ${cursor}`;
  const offset = Number(params.find(([k]) => k === 'offset')?.[1] ?? '0');
  return offset > 0 ? `offset ${offset}` : 'start';
}

function nextOf(line: Record<string, unknown>, params: ReadonlyArray<readonly [string, string]>): string | null {
  const items = line['items'] as number;
  if (Object.hasOwn(line, 'next_cursor')) {
    const cursor = line['next_cursor'];
    return line['has_more'] === false || typeof cursor !== 'string' || cursor === '' ? null : `cursor ${cursor}`;
  }
  const offset = Number(params.find(([k]) => k === 'offset')?.[1] ?? '0');
  const asked = Number(params.find(([k]) => k === 'limit')?.[1] ?? 'NaN');
  const said = typeof line['limit'] === 'number' && line['limit'] > 0 ? line['limit'] : null;
  const pageSize = said !== null && Number.isFinite(asked) ? Math.min(said, asked) : (said ?? asked);
  const total = typeof line['total'] === 'number' ? line['total'] : null;
  const done = total !== null ? offset + items >= total || line['has_more'] === false : items < pageSize || line['has_more'] === false;
  return done ? null : `offset ${offset + items}`;
}

function shown(position: string | null): string {
  return position === null ? 'the end of the list' : position === 'start' ? 'the first page' : position;
}
