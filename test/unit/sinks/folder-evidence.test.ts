import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { checkFolderEvidence } from '../../../src/sinks/folder-evidence.js';

/**
 * A folder's evidence recomputed on its own (docs/audit.md#completeness-on-record): the run's
 * requests, retries and bytes against its end line and the manifest, the rows its streams kept
 * against `pulled_*` and `duplicates_seen`, each compared count against its difference and
 * summary-check.csv's rows — with the edges: an empty evidence file, a folder that pulled but holds
 * none, a rebuild that pulled nothing, a resumed run's evidence appended below the killed
 * attempt's (only the resumed run's own lines are its counts, but its pages continue the
 * attempt's), and a gap across that boundary; and a report after sharded pulls, whose folder holds
 * every shard's evidence and none of its own pull (each shard's lines against its own end line).
 */

const base = mkdtempSync(join(tmpdir(), 'payexport-folder-evidence-'));
afterAll(() => rmSync(base, { recursive: true, force: true }));
let n = 0;

const PATH = '/v1/organizations/o/wallets/w/payments';
const page = (run: string, cursor: string | null, next: string | null, extra: Record<string, unknown> = {}): Record<string, unknown> => ({ t: 'request', run, path: PATH, params: [['limit', '2'], ...(cursor === null ? [] : [['cursor', cursor]])], attempt: 1, status: 200, bytes: 10, sha256: 'a'.repeat(64), items: 2, next_cursor: next, has_more: next !== null, ...extra });
const compared = (computed: string, service: string | null, difference: string): Record<string, unknown> => ({ t: 'compared', computed_count: computed, service_count: service, difference });

/** A folder with `evidence` (lines, or the file's exact text) and a manifest of `counts`. */
async function check(evidence: Array<Record<string, unknown>> | string | null, counts: Record<string, number>, options: { runId?: string; summaryRows?: number } = {}): Promise<string | null> {
  const dir = join(base, String(++n));
  mkdirSync(dir);
  const files: Array<Record<string, unknown>> = [];
  if (evidence !== null) {
    writeFileSync(join(dir, 'evidence.jsonl'), typeof evidence === 'string' ? evidence : evidence.map((l) => `${JSON.stringify(l)}\n`).join(''));
    files.push({ path: 'evidence.jsonl' });
  }
  if (options.summaryRows !== undefined) files.push({ path: 'summary-check.csv', rows: options.summaryRows });
  return checkFolderEvidence(dir, { run_id: options.runId ?? 'r1', files, counts });
}

const whole = [{ t: 'run', run_id: 'r1' }, page('r1', null, 'c2'), page('r1', 'c2', null), { t: 'stream', run: 'r1', stream: 'payments:w', pages: 2, rows: 4, duplicates: 0 }, { t: 'end', run: 'r1', requests: 2, retries: 0, bytes: 20 }];

describe('checkFolderEvidence', () => {
  it('whole evidence that agrees with the manifest holds', async () => {
    expect(await check(whole, { api_requests: 2, api_retries: 0, api_bytes: 20, pulled_payments: 4, duplicates_seen: 0 })).toBeNull();
  });

  it('an empty evidence file: no end line, the run cut short', async () => {
    expect(await check('', { api_requests: 2 })).toBe('evidence.jsonl has no end line for run r1 (cut short?)');
    expect(await check([], {})).toBe('evidence.jsonl has no end line for run r1 (cut short?)');
  });

  it('a folder that pulled but holds no evidence is named; a rebuild that pulled nothing needs none', async () => {
    expect(await check(null, { api_requests: 7 })).toBe('the run pulled (7 requests) but the folder holds no evidence.jsonl');
    expect(await check(null, { pulled_payments: 0 })).toBeNull();
  });

  it('a line that is not JSON is named by its number', async () => {
    expect(await check(`${JSON.stringify(whole[0])}\n{"t":"request",\n`, {})).toBe('evidence.jsonl line 2 is not JSON');
  });

  it('a request line removed, a count the manifest says otherwise, rows or duplicates that differ: each named', async () => {
    const noSecondPage = whole.filter((_, i) => i !== 2);
    // the chain names its missing last page before any count does
    expect(await check(noSecondPage, { api_requests: 2 })).toMatch(/stops at line 2, whose page named cursor c2 next/);
    const endSaysMore = whole.map((l) => (l['t'] === 'end' ? { ...l, requests: 3 } : l));
    expect(await check(endSaysMore, {})).toBe('evidence.jsonl holds 2 requests of run r1, its end line says 3 (a request line removed or added)');
    expect(await check(whole, { api_requests: 3 })).toBe("evidence.jsonl holds 2 requests of run r1, the manifest's api_requests says 3");
    expect(await check(whole, { api_bytes: 21 })).toBe("evidence.jsonl holds 20 bytes of run r1, the manifest's api_bytes says 21");
    expect(await check(whole, { pulled_payments: 5 })).toBe('the streams of evidence.jsonl kept 4 rows (pulled_payments), the manifest says 5');
    expect(await check(whole, { duplicates_seen: 1 })).toBe('the streams of evidence.jsonl dropped 0 duplicates, the manifest says 1');
  });

  it('retries: an attempt past the first is a retry of the run', async () => {
    const retried = [whole[0]!, page('r1', null, 'c2', { attempt: 1, status: 503, items: null }), page('r1', null, 'c2', { attempt: 2 }), page('r1', 'c2', null), { t: 'end', run: 'r1', requests: 3, retries: 1, bytes: 30 }];
    expect(await check(retried, { api_requests: 3, api_retries: 1, api_bytes: 30 })).toBeNull();
    expect(await check(retried, { api_retries: 0 })).toBe("evidence.jsonl holds 1 retries of run r1, the manifest's api_retries says 0");
  });

  it("compared counts: each difference checked, as many as summary-check.csv's rows", async () => {
    const withCompared = [...whole, compared('10', '9', '1'), compared('3', null, '3')];
    expect(await check(withCompared, {}, { summaryRows: 2 })).toBeNull();
    expect(await check(withCompared, {}, { summaryRows: 3 })).toBe('evidence.jsonl compares 2 counts of the service, summary-check.csv has 3 rows');
    expect(await check([...whole, compared('10', '9', '2')], {})).toBe("evidence.jsonl line 6: the difference 2 is not the computed count 10 less the service's 9");
    expect(await check([...whole, compared('ten', '9', '1')], {})).toBe('evidence.jsonl line 6: a compared count is not an integer');
  });

  describe("a resumed run's evidence, appended below the killed attempt's", () => {
    const killed = [{ t: 'run', run_id: 'r1' }, page('r1', null, 'c2'), page('r1', 'c2', 'c3')];
    const resumedRun = (lines: Array<Record<string, unknown>>): Array<Record<string, unknown>> => [...killed, { t: 'run', run_id: 'r2', resumed: true }, ...lines, { t: 'stream', run: 'r2', stream: 'payments:w', pages: lines.length, rows: 2 * lines.length, duplicates: 0 }, { t: 'end', run: 'r2', requests: lines.length, retries: 0, bytes: 10 * lines.length }];

    it('the resumed run reads the page at its checkpoint again and carries on: whole; its counts are its own lines only', async () => {
      const lines = [page('r2', 'c2', 'c3'), page('r2', 'c3', null)];
      expect(await check(resumedRun(lines), { api_requests: 2, api_bytes: 20, pulled_payments: 4 }, { runId: 'r2' })).toBeNull();
      expect(await check(resumedRun(lines), { api_requests: 4 }, { runId: 'r2' })).toBe("evidence.jsonl holds 2 requests of run r2, the manifest's api_requests says 4");
    });

    it('the resumed run picks up exactly where the attempt stopped: whole', async () => {
      expect(await check(resumedRun([page('r2', 'c3', null)]), { api_requests: 1 }, { runId: 'r2' })).toBeNull();
    });

    it('a page missing between the attempt and the resumed run: the gap across the boundary is named', async () => {
      expect(await check(resumedRun([page('r2', 'c4', null)]), {}, { runId: 'r2' })).toBe(`evidence.jsonl: a page of ${PATH} is missing: line 5 reads cursor c4, but the page before it (line 3) named cursor c3`);
    });

    it("the attempt's lines gone (only the resumed run's on record): its first page begins part-way, and that is named", async () => {
      const alone = resumedRun([page('r2', 'c3', null)]).slice(killed.length);
      expect(await check(alone, {}, { runId: 'r2' })).toBe(`evidence.jsonl: ${PATH} begins at line 2 with cursor c3, which no page before it named: a page is missing at its start`);
    });
  });

  describe('a report after sharded pulls: every shard’s evidence, none of its own pull', () => {
    const WALLET2 = '/v1/organizations/o/wallets/w2/payments';
    const shardLines = (run: string, path: string): Array<Record<string, unknown>> => [
      { t: 'run', run_id: run, shard: run === 's0' ? '0/2' : '1/2' },
      { ...page(run, null, 'c2'), path },
      { ...page(run, 'c2', null), path },
      { t: 'stream', run, stream: 'payments:w', pages: 2, rows: 4, duplicates: 0 },
      { t: 'end', run, requests: 2, retries: 0, bytes: 20 },
    ];
    const shards = [...shardLines('s0', PATH), ...shardLines('s1', WALLET2), compared('10', '10', '0')];

    it('holds when each shard’s lines agree with its end line (the manifest counts no pull of its own)', async () => {
      expect(await check(shards, { pulled_payments: 8 }, { runId: 'report', summaryRows: 1 })).toBeNull();
    });

    it('a shard’s request line taken out, or its end line (the pull cut short): named with the shard’s run', async () => {
      const lastPageOfS1 = shards.findIndex((l) => l['run'] === 's1' && l['t'] === 'request' && (l['params'] as string[][]).some(([k]) => k === 'cursor'));
      const noLastPage = shards.filter((_, i) => i !== lastPageOfS1);
      expect(await check(noLastPage, {}, { runId: 'report' })).toMatch(/^evidence\.jsonl: .*wallets\/w2\/payments.* stops at line \d+, whose page named cursor c2 next/);
      const endSaysMore = shards.map((l) => (l['t'] === 'end' && l['run'] === 's0' ? { ...l, requests: 3 } : l));
      expect(await check(endSaysMore, {}, { runId: 'report' })).toBe('evidence.jsonl holds 2 requests of run s0, its end line says 3 (a request line removed or added)');
      const cutShort = shards.filter((l) => !(l['t'] === 'end' && l['run'] === 's1'));
      expect(await check(cutShort, {}, { runId: 'report' })).toBe('evidence.jsonl has no end line for run s1 (cut short?)');
    });
  });
});

