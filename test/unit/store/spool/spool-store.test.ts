import { createHash } from 'node:crypto';
import { mkdtempSync, readdirSync, appendFileSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SpoolStore } from '../../../../src/store/spool/spool-store.js';
import { decodeRow, encodeRow } from '../../../../src/store/spool/row-codec.js';
import type { Checkpoint, RunInfo } from '../../../../src/model/ports.js';
import type { Window } from '../../../../src/model/window.js';
import { ORG, makeLedgerRow, makePaymentRow, uuid, makeWalletRow } from '../../../support/rows/builders.js';

const window: Window = { from: '2026-10-01T00:00:00.000000Z', to: '2026-11-01T00:00:00.000000Z', tz: 'UTC' };
const run = (run_id: string): RunInfo => ({ run_id, run_key: 'export:2026-10', command: 'export', organization_id: ORG, window, parameters: {}, started_at: '2026-11-22T00:00:00.000000Z' });
const cp = (stream: string, position: string, pages: number): Checkpoint => ({ run_key: 'export:2026-10', stream, position, pages, rows: pages, done: false });

async function collect<T>(it: AsyncIterable<T[]>): Promise<T[]> {
  const out: T[] = [];
  for await (const batch of it) out.push(...batch);
  return out;
}

describe('row codec', () => {
  it('round-trips bigints and strings that look like the marker', () => {
    const row = { a: 2n ** 70n, b: '#n5', c: '##', d: ['#x', -1n], e: { '#k': 'v' } };
    expect(decodeRow(encodeRow(row))).toEqual(row);
  });
});

describe('SpoolStore', () => {
  it('reads back rows per wallet, sorted, de-duplicated, window-filtered', async () => {
    const store = new SpoolStore(mkdtempSync(join(tmpdir(), 'spool-')));
    await store.beginRun(run('r1'));
    const w = uuid(1, 'c');
    const late = makePaymentRow({ payment_id: uuid(2, 'b'), created_at: '2026-10-20T00:00:00.000000Z' });
    const early = makePaymentRow({ payment_id: uuid(3, 'b'), created_at: '2026-10-02T00:00:00.000000Z' });
    const outside = makePaymentRow({ payment_id: uuid(4, 'b'), created_at: '2026-11-01T00:00:00.000000Z' });
    await store.writePaymentsPage([late, outside], cp(`payments:wallet:${w}`, 'c1', 1));
    const updated = { ...late, status: 'failed', status_class: 'failed' as const };
    await store.writePaymentsPage([early, updated], cp(`payments:wallet:${w}`, 'c2', 2));
    const rows = await collect(store.payments({ organization_id: ORG, wallet_id: w, window }));
    expect(rows.map((r) => r.payment_id)).toEqual([uuid(3, 'b'), uuid(2, 'b')]);
    expect(rows[1]!.status).toBe('failed');
    // the spool keeps no raw payload: every reader asks withoutRaw (src/store/spool/stream-line.ts)
    expect(rows[0]).toEqual({ ...early, raw: null });
    expect(await store.knownPaymentIds(ORG, [uuid(4, 'b'), uuid(9, 'b')])).toEqual(new Set([uuid(4, 'b')]));
  });

  it("orphan check: the in-window payments a wallet's ledger names that the spool does not hold, read from the lines' hints", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'spool-'));
    const store = new SpoolStore(dir);
    await store.beginRun(run('r1'));
    const w = uuid(1, 'c');
    const entry = (n: number, payment_id: string | null, effective_time = '2026-10-05T12:00:01.000000Z', wallet_id = w) =>
      makeLedgerRow({ entry_id: uuid(n, 'd'), payment_id, effective_time, wallet_id });
    const held = makePaymentRow({ payment_id: uuid(2, 'b') });
    await store.writePaymentsPage([held], cp(`payments:wallet:${w}`, 'c1', 1));
    await store.writeLedgerPage(
      [
        entry(1, uuid(2, 'b')), // held: not an orphan
        entry(2, uuid(3, 'b')), // orphan
        entry(3, uuid(3, 'b')), // the same payment again
        entry(4, null), // names no payment
        entry(5, uuid(4, 'b'), '2026-09-30T23:59:59.999999Z'), // before the window
        entry(6, uuid(5, 'b'), '2026-11-01T00:00:00.000000Z'), // at its end: outside
        entry(7, 'odd\tid'), // an id that cannot be a hint: decoded
        entry(8, uuid(6, 'b'), undefined, uuid(9, 'c')), // another wallet's
      ],
      cp(`ledger:wallet:${w}`, 'c1', 1),
    );
    const expected = ['odd\tid', uuid(3, 'b')].sort();
    expect(await store.orphanPaymentIds(ORG, w, window)).toEqual(expected);
    // the same answer as the wallet's decoded ledger gives
    const ledger = await collect(store.ledger(ORG, w));
    const known = await store.knownPaymentIds(ORG, ledger.flatMap((r) => (r.payment_id === null ? [] : [r.payment_id])));
    const fromRows = [...new Set(ledger.filter((r) => r.payment_id !== null && r.effective_time >= window.from && r.effective_time < window.to && !known.has(r.payment_id)).map((r) => r.payment_id!))].sort();
    expect(fromRows).toEqual(expected);
  });

  // "last" as every spool read: the streams in name order (payments:env… before payments:wallet…), then file order
  it('open items: the last copy of each payment decides, open ones only (the hints read before any decoding)', async () => {
    const store = new SpoolStore(mkdtempSync(join(tmpdir(), 'spool-')));
    await store.beginRun(run('r1'));
    const w = uuid(1, 'c');
    const settledLater = makePaymentRow({ payment_id: uuid(2, 'b'), status: 'pending', status_class: 'open', created_at: '2026-10-03T00:00:00.000000Z' });
    const stillOpen = makePaymentRow({ payment_id: uuid(3, 'b'), status: 'pending', status_class: 'open', created_at: '2026-10-04T00:00:00.000000Z' });
    const openedLater = makePaymentRow({ payment_id: uuid(4, 'b'), status: 'completed', status_class: 'completed', created_at: '2026-10-05T00:00:00.000000Z' });
    const other = makePaymentRow({ payment_id: uuid(5, 'b'), wallet_id: uuid(9, 'c'), status: 'pending', status_class: 'open' });
    await store.writePaymentsPage([settledLater, stillOpen, openedLater, other], cp(`payments:env:e1`, 'c1', 1));
    await store.writePaymentsPage([{ ...settledLater, status: 'completed', status_class: 'completed' }, { ...openedLater, status: 'pending', status_class: 'open' }], cp(`payments:wallet:${w}`, 'c1', 1));
    const open = await collect(store.payments({ organization_id: ORG, wallet_id: w, window, openOnly: true }));
    expect(open.map((r) => [r.payment_id, r.status])).toEqual([
      [uuid(3, 'b'), 'pending'],
      [uuid(4, 'b'), 'pending'],
    ]);
  });

  it('resumes a killed run from its checkpoint and drops rows written after it', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'spool-'));
    const w = uuid(1, 'c');
    const first = new SpoolStore(dir);
    await first.beginRun(run('r1'));
    await first.writeLedgerPage([makeLedgerRow({ entry_id: uuid(1, 'd') })], cp(`ledger:wallet:${w}`, '100', 1));
    // The process dies after appending page 2 but before its checkpoint is saved.
    const file = readdirSync(join(dir, 'streams'))[0]!;
    appendFileSync(join(dir, 'streams', file), encodeRow(makeLedgerRow({ entry_id: uuid(2, 'd') })) + '\n');

    const resumed = new SpoolStore(dir);
    const checkpoints = await resumed.beginRun(run('r2'));
    expect(checkpoints).toEqual([cp(`ledger:wallet:${w}`, '100', 1)]);
    expect((await collect(resumed.ledger(ORG, w))).map((r) => r.entry_id)).toEqual([uuid(1, 'd')]);
  });

  it('forgets a stream killed before its first checkpoint (its summary would otherwise count twice)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'spool-'));
    const first = new SpoolStore(dir);
    await first.beginRun(run('r1'));
    await first.writeLedgerPage([makeLedgerRow({ entry_id: uuid(1, 'd') })], cp(`ledger:wallet:${uuid(1, 'c')}`, '100', 1));
    // a summary's rows reached its file, the process died before the journal recorded the checkpoint
    appendFileSync(join(dir, 'streams', 'summary-wallet-orphan.00000000.jsonl'), encodeRow({ scope: 'wallet' }) + '\n');

    const resumed = new SpoolStore(dir);
    await resumed.beginRun(run('r2'));
    expect(readdirSync(join(dir, 'streams'))).toHaveLength(1);
    expect(await resumed.summaries(ORG, window)).toEqual([]);
  });

  it('pulls again from its start a stream written in the earlier line format, even one its checkpoint vouches for', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'spool-'));
    const w = uuid(1, 'c');
    const first = new SpoolStore(dir);
    await first.beginRun(run('r1'));
    await first.writeLedgerPage([makeLedgerRow({ entry_id: uuid(1, 'd') })], cp(`ledger:wallet:${w}`, '100', 1));
    // the file as an earlier build wrote it (a row alone per line), its checkpoint matching it
    const file = readdirSync(join(dir, 'streams'))[0]!;
    const earlier = `${encodeRow(makeLedgerRow({ entry_id: uuid(1, 'd') }))}\n`;
    writeFileSync(join(dir, 'streams', file), earlier);
    const journal = join(dir, 'checkpoints.jsonl');
    const lines = readFileSync(journal, 'utf8').split('\n').filter((l) => l !== '');
    const patched = lines.map((l) => encodeRow({ ...decodeRow<Record<string, unknown>>(l), length: Buffer.byteLength(earlier), sha256: createHash('sha256').update(earlier).digest('hex') }));
    writeFileSync(journal, `${patched.join('\n')}\n`);

    const resumed = new SpoolStore(dir);
    expect(await resumed.beginRun(run('r2'))).toEqual([]);
    expect(resumed.setAside).toEqual([`stream ledger:wallet:${w} was written in an earlier line format: pulled again from its start`]);
    expect(readdirSync(join(dir, 'streams'))).toEqual([]);
  });

  it('a finished run leaves nothing to resume', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'spool-'));
    const store = new SpoolStore(dir);
    await store.beginRun(run('r1'));
    await store.writePaymentsPage([makePaymentRow()], cp('payments:wallet:x', 'c', 1));
    await store.finishRun('r1', 'succeeded', {});
    expect(await new SpoolStore(dir).beginRun(run('r2'))).toEqual([]);
  });

  it('a failed run resumes from its checkpoints, like a killed one', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'spool-'));
    const store = new SpoolStore(dir);
    await store.beginRun(run('r1'));
    await store.writePaymentsPage([makePaymentRow()], cp('payments:wallet:x', 'c', 1));
    await store.finishRun('r1', 'failed', {});
    expect(await new SpoolStore(dir).beginRun(run('r2'))).toEqual([cp('payments:wallet:x', 'c', 1)]);
  });

  it('upserts wallets by id and counts changes', async () => {
    const store = new SpoolStore(mkdtempSync(join(tmpdir(), 'spool-')));
    expect(await store.upsertWallets([makeWalletRow()])).toEqual({ inserted: 1, updated: 0, unchanged: 0 });
    expect(await store.upsertWallets([makeWalletRow()])).toEqual({ inserted: 0, updated: 0, unchanged: 1 });
    expect(await store.upsertWallets([makeWalletRow({ name: 'Ops' })])).toEqual({ inserted: 0, updated: 1, unchanged: 0 });
    expect((await store.wallets(ORG)).map((w) => w.name)).toEqual(['Ops']);
  });
});
