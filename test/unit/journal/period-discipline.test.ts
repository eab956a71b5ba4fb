/**
 * Which series an entry is numbered in (src/journal/period-discipline.ts `late`, docs/journal.md
 * "Entry numbers") holds across runs: a late movement of a closed month stays in the late series
 * on every later run (the record says it was posted late), and a month closed after a later one
 * lists its own entries in the period's series — on its close and on its re-runs alike. Over an
 * in-memory record with the port's two steps (stage, then confirm once the folder is published).
 */
import { describe, expect, it } from 'vitest';
import { PeriodDiscipline } from '../../../src/journal/period-discipline.js';
import type { JournalEntry } from '../../../src/journal/model.js';
import type { ExportedEntry, JournalExports } from '../../../src/model/journal-record.js';
import { ZonedClock } from '../../../src/model/zoned-time.js';

/** The record: exported entries, pending ones per run, and the end of the latest close. */
function memoryRecord(): JournalExports & { firstOpen: string | null } {
  const exported = new Map<string, ExportedEntry>();
  const pending = new Map<string, ExportedEntry[]>();
  return {
    firstOpen: null,
    async find(_org, nos) {
      return new Map(nos.flatMap((no) => (exported.has(no) ? [[no, exported.get(no) as ExportedEntry] as const] : [])));
    },
    async clearPending() {
      pending.clear();
    },
    async stage(_org, runId, _period, entries) {
      const rows = entries.map(({ entry, hash, corrections, late }) => ({ entryNo: entry.entryNo, contentHash: hash, corrections, lines: [...entry.lines], runId, late: late === true }));
      pending.set(runId, [...(pending.get(runId) ?? []), ...rows]);
    },
    async confirm(runId) {
      const rows = pending.get(runId) ?? [];
      for (const row of rows) exported.set(row.entryNo, row);
      pending.delete(runId);
      return rows.length;
    },
    async firstOpenInstant() {
      return this.firstOpen;
    },
  };
}

const entry = (no: string, postedAt: string): JournalEntry => ({
  entryNo: no,
  kind: 'movement',
  date: postedAt.slice(0, 10),
  postedAt,
  walletId: 'w1',
  paymentId: null,
  ledgerRef: `credited:${no}`,
  narration: no,
  valuation: null,
  lines: [
    { account: 'Assets:W1', side: 'debit', component: 'wallet', source: { amount: 1000n, currency: 'btc', unit: 'msat' }, amount: 100n, memo: '' },
    { account: 'Income:Sales', side: 'credit', component: 'principal', source: { amount: 1000n, currency: 'btc', unit: 'msat' }, amount: 100n, memo: '' },
  ],
});

const clock = new ZonedClock('UTC');
/** one month-end: resolve the window's entries, then confirm as the pipeline does once the folder is published */
async function monthEnd(record: ReturnType<typeof memoryRecord>, runId: string, entries: JournalEntry[], closes: boolean): Promise<Array<{ no: string; late: boolean; posted: number }>> {
  const d = await PeriodDiscipline.open({ exports: record, organizationId: 'org', runId, period: 'p', stage: true, closes }, clock);
  const out = (await d.resolve(entries)).map((r, i) => ({ no: entries[i]?.entryNo ?? '', late: r.late, posted: r.posted.length }));
  await record.confirm(runId);
  return out;
}

describe('the series an entry is numbered in, run after run', () => {
  it('a late movement of a closed month stays late on every re-run; the close\'s own entries never are', async () => {
    const record = memoryRecord();
    const october = [entry('A', '2026-10-05T00:00:00.000000Z'), entry('B', '2026-10-20T00:00:00.000000Z')];
    expect(await monthEnd(record, 'close', october, true)).toEqual([{ no: 'A', late: false, posted: 1 }, { no: 'B', late: false, posted: 1 }]);
    record.firstOpen = '2026-11-01T00:00:00.000000Z';
    // a ledger event effective in October arrives after the close: the amending re-run posts it late
    const withLate = [october[0] as JournalEntry, entry('L', '2026-10-10T00:00:00.000000Z'), october[1] as JournalEntry];
    expect(await monthEnd(record, 'amend', withLate, false)).toEqual([{ no: 'A', late: false, posted: 0 }, { no: 'L', late: true, posted: 1 }, { no: 'B', late: false, posted: 0 }]);
    // nothing changed: the same series (it used to list L in the period's series, renumbering B)
    expect(await monthEnd(record, 'again', withLate, false)).toEqual([{ no: 'A', late: false, posted: 0 }, { no: 'L', late: true, posted: 0 }, { no: 'B', late: false, posted: 0 }]);
  });

  it('a month closed after a later one: its entries are its close\'s own, on the close and on its re-run', async () => {
    const record = memoryRecord();
    record.firstOpen = '2026-11-01T00:00:00.000000Z';
    const september = [entry('S', '2026-09-05T00:00:00.000000Z')];
    // posted re-dated (every entry before the latest close is), numbered in September's own series
    expect(await monthEnd(record, 'close', september, true)).toEqual([{ no: 'S', late: false, posted: 1 }]);
    expect(await monthEnd(record, 'again', september, false)).toEqual([{ no: 'S', late: false, posted: 0 }]);
  });
});
