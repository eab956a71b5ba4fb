import { describe, expect, it } from 'vitest';
import { ListChains } from '../../../src/sinks/evidence-chains.js';

/**
 * The page walk of a pull's evidence on its own (docs/audit.md#completeness-on-record): the pages
 * of one list must follow each other as the paginator walks them — a cursor page names the next
 * cursor, an offset page the offset after its items unless it was the last (offset + items ≥
 * total, a short page, has_more false) — and end where the list ends or where another chain of the
 * same path carries on (a split ledger). A page read again after a kill is allowed; a gap, a chain
 * that stops early, and a chain that begins part-way where nothing stopped are named.
 */

const PAY = '/v1/organizations/o/wallets/w/payments';
const LEDGER = '/v1/organizations/o/ledger';

/** A cursor page: read at `cursor` (none: the first page), naming `next` (null: the last page). */
function cursorPage(cursor: string | null, next: string | null, path = PAY): Record<string, unknown> {
  return { t: 'request', path, params: [['limit', '2'], ...(cursor === null ? [] : [['cursor', cursor]])], status: 200, items: 2, next_cursor: next, has_more: next !== null };
}

/** An offset page of a list of `total` entries, 40 a page, under extra filters. */
function offsetPage(offset: number, total: number, filters: Array<[string, string]> = [], path = LEDGER): Record<string, unknown> {
  const items = Math.max(0, Math.min(40, total - offset));
  return { t: 'request', path, params: [['wallet_id', 'w'], ...filters, ['offset', String(offset)], ['limit', '40']], status: 200, items, total, limit: 40, offset };
}

/** Feeds the lines in order; the first problem (a gap while reading, or an unfinished chain at the end), or null. */
function walk(lines: Array<Record<string, unknown>>): string | null {
  const chains = new ListChains();
  for (const [i, line] of lines.entries()) {
    const gap = chains.add(line, i + 1);
    if (gap !== null) return gap;
  }
  return chains.unfinished();
}

describe('the page walk: cursor lists', () => {
  it('a whole list holds', () => {
    expect(walk([cursorPage(null, 'c2'), cursorPage('c2', 'c3'), cursorPage('c3', null)])).toBeNull();
  });

  it('a page missing in the middle: named with both lines', () => {
    expect(walk([cursorPage(null, 'c2'), cursorPage('c3', null)])).toBe(`a page of ${PAY} is missing: line 2 reads cursor c3, but the page before it (line 1) named cursor c2`);
  });

  it('the last page missing: the chain stops while its page named more', () => {
    expect(walk([cursorPage(null, 'c2'), cursorPage('c2', 'c3')])).toBe(`${PAY} stops at line 2, whose page named cursor c3 next: a page is missing at its end`);
  });

  it('a page that failed (5xx, no response) is not a page of the list; its retry is', () => {
    const failed = { ...cursorPage('c2', null), status: 503, items: null };
    const timeout = { ...cursorPage('c2', null), status: null, items: null };
    expect(walk([cursorPage(null, 'c2'), failed, timeout, cursorPage('c2', null)])).toBeNull();
  });

  it('a resumed run reads a page or two again, then carries on; going back further is a gap', () => {
    const before = [cursorPage(null, 'c2'), cursorPage('c2', 'c3'), cursorPage('c3', 'c4')];
    expect(walk([...before, cursorPage('c3', 'c4'), cursorPage('c4', null)])).toBeNull();
    expect(walk([...before, cursorPage('c2', 'c3'), cursorPage('c3', 'c4'), cursorPage('c4', null)])).toBeNull();
    const long = [cursorPage(null, 'c2'), cursorPage('c2', 'c3'), cursorPage('c3', 'c4'), cursorPage('c4', 'c5'), cursorPage('c5', 'c6'), cursorPage('c6', 'c7')];
    expect(walk([...long, cursorPage('c2', 'c3')])).toMatch(/line 7 reads cursor c2, but the page before it \(line 6\) named cursor c7$/);
  });

  it('a list read whole again from its first page starts afresh', () => {
    expect(walk([cursorPage(null, 'c2'), cursorPage('c2', null), cursorPage(null, 'c2'), cursorPage('c2', null)])).toBeNull();
  });

  it('lists with other filters are other lists', () => {
    const other = (cursor: string | null, next: string | null): Record<string, unknown> => ({ ...cursorPage(cursor, next), params: [['limit', '2'], ['status', 'failed'], ...(cursor === null ? [] : [['cursor', cursor]])] });
    expect(walk([cursorPage(null, 'c2'), other(null, 'x2'), cursorPage('c2', null), other('x2', null)])).toBeNull();
  });
});

describe('the page walk: offset lists', () => {
  it('whole by its total, by a short page without a total, or by has_more false', () => {
    expect(walk([offsetPage(0, 100), offsetPage(40, 100), offsetPage(80, 100)])).toBeNull();
    const noTotal = (offset: number, items: number): Record<string, unknown> => ({ t: 'request', path: LEDGER, params: [['offset', String(offset)], ['limit', '40']], status: 200, items });
    expect(walk([noTotal(0, 40), noTotal(40, 39)])).toBeNull();
    expect(walk([noTotal(0, 40), noTotal(40, 40)])).toMatch(/stops at line 2, whose page named offset 80 next/);
    expect(walk([{ ...noTotal(0, 40), has_more: false }])).toBeNull();
  });

  it('the service may cap the page below the limit asked: the smaller one is the page size', () => {
    const capped = (offset: number, items: number): Record<string, unknown> => ({ t: 'request', path: LEDGER, params: [['offset', String(offset)], ['limit', '100']], status: 200, items, limit: 40 });
    expect(walk([capped(0, 40), capped(40, 12)])).toBeNull();
  });

  it('an empty list is one page that ends it', () => {
    expect(walk([offsetPage(0, 0)])).toBeNull();
  });

  it('a page missing: named by its offsets', () => {
    expect(walk([offsetPage(0, 100), offsetPage(80, 100)])).toBe(`a page of ${LEDGER}?wallet_id=w is missing: line 2 reads offset 80, but the page before it (line 1) named offset 40`);
  });
});

describe('the page walk: a list that starts part-way through', () => {
  it('a split ledger: the first chain stops at its offset, the slice under a narrower filter starts there, the later slices from their own start', () => {
    const lines = [
      offsetPage(0, 200),
      offsetPage(40, 200, [['end_date', '2026-10-10T00:00:01Z']]),
      offsetPage(80, 200, [['end_date', '2026-10-10T00:00:01Z']]),
      { ...offsetPage(0, 30, [['start_date', '2026-10-10T00:00:01Z']]) },
    ];
    // the slice that continues the first page knows the ledger's whole total: it ends by has_more
    lines[2] = { ...lines[2]!, has_more: false };
    expect(walk(lines)).toBeNull();
  });

  it('a chain that begins part-way where no chain stopped: its first page is not on record', () => {
    expect(walk([offsetPage(40, 100), offsetPage(80, 100)])).toBe(`${LEDGER}?wallet_id=w begins at line 1 with offset 40, which no page before it named: a page is missing at its start`);
    expect(walk([cursorPage('c2', 'c3'), cursorPage('c3', null)])).toBe(`${PAY} begins at line 1 with cursor c2, which no page before it named: a page is missing at its start`);
  });

  it('a chain of another path stopping at that offset does not carry it', () => {
    expect(walk([offsetPage(0, 100, [], '/v1/organizations/o/other'), offsetPage(40, 100)])).toMatch(/stops at line 1, whose page named offset 40 next/);
  });

  it('a resumed run that picks a list up where the killed attempt stopped holds', () => {
    expect(walk([cursorPage(null, 'c2'), cursorPage('c2', 'c3'), cursorPage('c3', null)].flatMap((l, i) => (i === 2 ? [{ t: 'run' }, l] : [l])))).toBeNull();
  });
});
