import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { ApiExchange } from '../../../src/api/client.js';
import { EvidenceLog, evidenceJournalPath, type EvidenceRun } from '../../../src/audit/evidence-log.js';

/**
 * The evidence journal of a pull on its own (docs/audit.md#completeness-on-record): one line per
 * request with what pagination reads from the page (items, next cursor, has_more, total, limit),
 * the wallet from the path or the query, retries and bytes summed into the end line; every line
 * through the scrubber; a resumed run appends below the lines of the attempt it continues, a fresh
 * one starts the file again; nothing is written once it is closed; a run that never received a
 * wallet's page leaves no file (nothing to resume from), one that did has every line since its start;
 * a shard's journal that cannot be written is told once and given up (no part of it left), the run
 * going on.
 */

const base = mkdtempSync(join(tmpdir(), 'payexport-evidence-log-'));
afterAll(() => rmSync(base, { recursive: true, force: true }));
const WALLET = '0D3B7A0E-1111-4222-8333-444455556666';
const clock = (): Date => new Date('2026-11-01T12:00:00.000Z');
const run = (over: Partial<EvidenceRun> = {}): EvidenceRun => ({ run_id: 'run-1', run_key: 'month-end|org|2026-10', command: 'month-end', window: { from: '2026-10-01T04:00:00Z', to: '2026-11-01T04:00:00Z', tz: 'America/New_York' }, resumed: false, ...over });

function exchange(over: Partial<ApiExchange>): ApiExchange {
  return { path: '/v1/organizations/o/payments', query: [], attempt: 1, status: 200, outcome: 'ok', bytes: 100, sha256: 'a'.repeat(64), body: null, ...over };
}

function lines(path: string): Array<Record<string, unknown>> {
  return readFileSync(path, 'utf8').split('\n').filter((l) => l !== '').map((l) => JSON.parse(l) as Record<string, unknown>);
}

describe('evidenceJournalPath', () => {
  it('under the root, by run key, with every character a file name should not hold replaced', () => {
    expect(evidenceJournalPath('/books', 'month-end|org/1|2026-10 x')).toBe('/books/.audit/runs/month-end_org_1_2026-10_x.jsonl');
  });
});

describe('EvidenceLog', () => {
  it('writes the run, each request with its page fields, each stream and the totals; the wallet from the path or the query, in lower case', () => {
    const path = join(base, 'one', '.audit', 'runs', 'r.jsonl');
    const log = EvidenceLog.open(path, run(), { scrub: (l) => l, clock });
    log.request(exchange({ path: `/v1/organizations/o/wallets/${WALLET}/payments`, query: [['limit', '2']], body: { items: [{}, {}], next_cursor: 'c2', has_more: true } }));
    log.request(exchange({ path: `/v1/organizations/o/wallets/${WALLET}/payments`, query: [['limit', '2'], ['cursor', 'c2']], attempt: 2, bytes: 50, body: { items: [{}], next_cursor: null, has_more: false } }));
    log.request(exchange({ path: '/v1/organizations/o/ledger', query: [['wallet_id', WALLET], ['offset', '0'], ['limit', '40']], body: { items: [], total: 0, limit: 40, offset: 0 } }));
    log.request(exchange({ path: '/v1/organizations/o/payments/p1', body: { id: 'p1' } }));
    log.request(exchange({ status: null, outcome: 'timeout', bytes: 0, sha256: null }));
    log.stream({ stream: 'payments:w', pages: 2, rows: 3, duplicates: 0, done: true });
    log.end();
    const got = lines(path);
    expect(got.map((l) => l['t'])).toEqual(['run', 'request', 'request', 'request', 'request', 'request', 'stream', 'end']);
    expect(got[0]).toEqual({ t: 'run', schema_version: 1, ...run(), at: '2026-11-01T12:00:00.000Z' });
    expect(got[1]).toMatchObject({ run: 'run-1', wallet: WALLET.toLowerCase(), params: [['limit', '2']], attempt: 1, status: 200, items: 2, next_cursor: 'c2', has_more: true, sha256: 'a'.repeat(64) });
    expect(got[2]).toMatchObject({ attempt: 2, items: 1, next_cursor: null, has_more: false });
    expect(got[3]).toMatchObject({ wallet: WALLET.toLowerCase(), items: 0, total: 0, limit: 40, offset: 0 });
    expect(got[3]).not.toHaveProperty('next_cursor');
    // a read by id is not a page of a list
    expect(got[4]).toMatchObject({ items: null, wallet: null });
    expect(got[5]).toMatchObject({ status: null, outcome: 'timeout', sha256: null, items: null });
    expect(got[7]).toEqual({ t: 'end', run: 'run-1', requests: 5, retries: 1, bytes: 100 + 50 + 100 + 100 + 0 });
  });

  it('every line passes the scrubber', () => {
    const path = join(base, 'scrub.jsonl');
    const log = EvidenceLog.open(path, run(), { scrub: (l) => l.replaceAll('s3cr3t', '[REDACTED]'), clock });
    log.request(exchange({ query: [['note', 's3cr3t']] }));
    log.end();
    expect(readFileSync(path, 'utf8')).not.toContain('s3cr3t');
    expect(readFileSync(path, 'utf8')).toContain('[REDACTED]');
  });

  it('a resumed run appends below the attempt it continues; a fresh run starts the file again', () => {
    const path = join(base, 'resume.jsonl');
    const first = EvidenceLog.open(path, run(), { scrub: (l) => l, clock });
    first.request(exchange({ path: `/v1/organizations/o/wallets/${WALLET}/payments` }));
    // killed: no end line, the file closed by the process ending
    first.close();
    const resumed = EvidenceLog.open(path, run({ run_id: 'run-2', resumed: true }), { scrub: (l) => l, clock });
    resumed.request(exchange({}));
    resumed.end();
    expect(lines(path).map((l) => [l['t'], l['run'] ?? l['run_id']])).toEqual([['run', 'run-1'], ['request', 'run-1'], ['run', 'run-2'], ['request', 'run-2'], ['end', 'run-2']]);
    // the totals are the resumed run's own
    expect(lines(path).at(-1)).toEqual({ t: 'end', run: 'run-2', requests: 1, retries: 0, bytes: 100 });

    const fresh = EvidenceLog.open(path, run({ run_id: 'run-3' }), { scrub: (l) => l, clock });
    fresh.end();
    expect(lines(path).map((l) => l['t'])).toEqual(['run', 'end']);
  });

  it('closed: later calls write nothing, and closing twice is harmless', () => {
    const path = join(base, 'closed.jsonl');
    const log = EvidenceLog.open(path, run(), { scrub: (l) => l, clock });
    log.end();
    const before = readFileSync(path, 'utf8');
    log.request(exchange({}));
    log.stream({ stream: 's', pages: 0, rows: 0, duplicates: 0, done: true });
    log.close();
    expect(readFileSync(path, 'utf8')).toBe(before);
  });

  it('no file until a wallet page is answered with a 2xx: refused, malformed or stopped before it, nothing is left; after it, every line since the start', () => {
    const refused = join(base, 'refused', '.audit', 'runs', 'r.jsonl');
    const log = EvidenceLog.open(refused, run(), { scrub: (l) => l, clock });
    log.request(exchange({ path: '/v1/organizations/o/wallets', status: 401, outcome: '401' }));
    log.request(exchange({ path: '/v1/organizations/o/wallets', status: 200, outcome: 'ok', body: { wrong: 'shape' } }));
    // a wallet's page that failed is not a page a resume builds on
    log.request(exchange({ path: `/v1/organizations/o/wallets/${WALLET}/payments`, status: 429, outcome: '429' }));
    expect(log.written).toBe(false);
    log.close();
    expect(existsSync(join(base, 'refused'))).toBe(false);

    const pulled = join(base, 'pulled.jsonl');
    const later = EvidenceLog.open(pulled, run(), { scrub: (l) => l, clock });
    later.request(exchange({ path: '/v1/organizations/o/wallets', body: { items: [{}] } }));
    expect(existsSync(pulled)).toBe(false);
    later.request(exchange({ path: `/v1/organizations/o/wallets/${WALLET}/payments`, body: { items: [] } }));
    // written before the page can be checkpointed: a kill now leaves the discovery and the page on record
    expect(later.written).toBe(true);
    later.close();
    expect(lines(pulled).map((l) => [l['t'], l['path'] ?? null])).toEqual([['run', null], ['request', '/v1/organizations/o/wallets'], ['request', `/v1/organizations/o/wallets/${WALLET}/payments`]]);

    // a resumed run continues its file at once, and a run that ends writes it whatever it read
    const resumed = join(base, 'resumed-empty.jsonl');
    EvidenceLog.open(resumed, run({ resumed: true }), { scrub: (l) => l, clock }).close();
    expect(lines(resumed).map((l) => l['t'])).toEqual(['run']);
    const ended = join(base, 'ended.jsonl');
    EvidenceLog.open(ended, run(), { scrub: (l) => l, clock }).end();
    expect(lines(ended).map((l) => l['t'])).toEqual(['run', 'end']);
  });

  it('with onUnwritable (a shard’s): a file that cannot be made is told once, no part of it is left, and the pull goes on', () => {
    // the journal's folder would be under a file: mkdir fails with ENOTDIR
    const blocker = join(base, 'blocker');
    writeFileSync(blocker, 'not a folder');
    const told: string[] = [];
    const log = EvidenceLog.open(join(blocker, '.audit', 'runs', 'r.jsonl'), run({ shard: '1/3', organization_id: 'o' }), { scrub: (l) => l, clock, onUnwritable: (e) => told.push((e as NodeJS.ErrnoException).code ?? e.message) });
    log.request(exchange({ path: `/v1/organizations/o/wallets/${WALLET}/payments`, body: { items: [] } }));
    log.request(exchange({ path: `/v1/organizations/o/wallets/${WALLET}/payments`, body: { items: [] } }));
    log.end();
    expect(told).toEqual(['ENOTDIR']);
    expect(log.written).toBe(false);
    // without it, the same failure stops the run
    const strict = EvidenceLog.open(join(blocker, 'x', 'r.jsonl'), run(), { scrub: (l) => l, clock });
    expect(() => strict.request(exchange({ path: `/v1/organizations/o/wallets/${WALLET}/payments`, body: { items: [] } }))).toThrow(/ENOTDIR/);
  });
});

