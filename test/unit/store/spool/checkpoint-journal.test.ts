import { appendFileSync, mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CheckpointJournal } from '../../../../src/store/spool/checkpoint-journal.js';
import { SpoolStore } from '../../../../src/store/spool/spool-store.js';
import type { Checkpoint, RunInfo } from '../../../../src/model/ports.js';
import { ORG, makePaymentRow, uuid } from '../../../support/rows/builders.js';

const run = (run_id: string): RunInfo => ({ run_id, run_key: 'export:k', command: 'export', organization_id: ORG, window: null, parameters: {}, started_at: '2026-11-22T00:00:00.000000Z' });
const cp = (stream: string, pages: number): Checkpoint => ({ run_key: 'export:k', stream, position: `{"page":${pages}}`, pages, rows: pages, done: false });

describe('CheckpointJournal', () => {
  it('keeps every line of concurrent appends, in one file, in order per writer', async () => {
    const journal = new CheckpointJournal(join(mkdtempSync(join(tmpdir(), 'journal-')), 'j.jsonl'));
    await Promise.all(
      Array.from({ length: 8 }, async (_v, writer) => {
        for (let n = 0; n < 20; n++) await journal.append(JSON.stringify({ writer, n }));
      }),
    );
    const lines = journal.read<{ writer: number; n: number }>();
    expect(lines).toHaveLength(160);
    for (let writer = 0; writer < 8; writer++) expect(lines.filter((l) => l.writer === writer).map((l) => l.n)).toEqual([...Array(20).keys()]);
  });

  it('drops a line cut short by a crash', () => {
    const path = join(mkdtempSync(join(tmpdir(), 'journal-')), 'j.jsonl');
    appendFileSync(path, '{"a":1}\n{"a":2}\n{"a":');
    expect(new CheckpointJournal(path).read()).toEqual([{ a: 1 }, { a: 2 }]);
  });
});

describe('SpoolStore checkpoints', () => {
  it('resumes from the journal after a torn write, and appends cleanly after it', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'spool-'));
    const first = new SpoolStore(dir);
    await first.beginRun(run('r1'));
    await first.writePaymentsPage([makePaymentRow({ payment_id: uuid(1, 'b') })], cp('payments:wallet:a', 1));
    await first.writePaymentsPage([makePaymentRow({ payment_id: uuid(2, 'b') })], cp('payments:wallet:b', 1));
    // killed while appending the next checkpoint
    appendFileSync(join(dir, 'checkpoints.jsonl'), '{"checkpoint":{"run_key":"export:k","stre');

    const second = new SpoolStore(dir);
    expect(await second.beginRun(run('r2'))).toEqual([cp('payments:wallet:a', 1), cp('payments:wallet:b', 1)]);
    await second.writePaymentsPage([makePaymentRow({ payment_id: uuid(3, 'b') })], cp('payments:wallet:a', 2));
    expect(await new SpoolStore(dir).beginRun(run('r3'))).toEqual([cp('payments:wallet:a', 2), cp('payments:wallet:b', 1)]);
    expect(readFileSync(join(dir, 'checkpoints.jsonl'), 'utf8').endsWith('\n')).toBe(true);
  });

  it('keeps the known payment ids current while pages are written', async () => {
    const store = new SpoolStore(mkdtempSync(join(tmpdir(), 'spool-')));
    await store.beginRun(run('r1'));
    await store.writePaymentsPage([makePaymentRow({ payment_id: uuid(1, 'b') })], cp('payments:wallet:a', 1));
    expect(await store.knownPaymentIds(ORG, [uuid(1, 'b'), uuid(2, 'b')])).toEqual(new Set([uuid(1, 'b')]));
    await store.writePaymentsPage([makePaymentRow({ payment_id: uuid(2, 'b') })], cp('payments:wallet:a', 2));
    expect(await store.knownPaymentIds(ORG, [uuid(1, 'b'), uuid(2, 'b')])).toEqual(new Set([uuid(1, 'b'), uuid(2, 'b')]));
  });

  it('reads a stream up to its saved length in bytes while a page of it is still being appended', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'spool-'));
    const store = new SpoolStore(dir);
    await store.beginRun(run('r1'));
    // multi-byte text: the saved length in bytes is larger than the text's length in characters
    await store.writePaymentsPage([makePaymentRow({ payment_id: uuid(1, 'b'), description: 'ＦＵＬＬ－ＷＩＤＴＨ ＝１＋１ ✓✓✓' })], cp('payments:wallet:a', 1));
    const file = readdirSync(join(dir, 'streams'))[0]!;
    appendFileSync(join(dir, 'streams', file), '{"payment_id":"in-flight","me');
    expect(await store.knownPaymentIds(ORG, [uuid(1, 'b'), 'in-flight'])).toEqual(new Set([uuid(1, 'b')]));
  });
});

