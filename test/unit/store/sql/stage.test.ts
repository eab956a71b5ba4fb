import { describe, expect, it } from 'vitest';
import { copyLine } from '../../../../src/store/encoding/copy-text.js';
import { dedupeByKey, encodeStored, encodeStoredLine, lineChunks } from '../../../../src/store/sql/stage.js';
import { LEDGER, PAYMENTS } from '../../../../src/store/sql/tables.js';
import { hostilePayment, ledgerRow, paymentRow } from '../../../support/store/rows.js';

describe('stored row encoding', () => {
  it('gives the COPY path and the unnest path the same row hash', () => {
    for (const row of [paymentRow(1), hostilePayment(2)]) {
      const fields = encodeStored(PAYMENTS, row);
      const line = encodeStoredLine(PAYMENTS, row);
      expect(line.fields).toEqual(fields);
      expect(`${line.text}\n`).toBe(copyLine(fields));
    }
  });

  it('changes the hash when any column changes, and only then', () => {
    const hash = (row: Parameters<typeof encodeStored>[1]) => encodeStored(PAYMENTS, row as never).at(-1);
    const base = paymentRow(1);
    expect(hash({ ...base })).toBe(hash(base));
    expect(hash({ ...base, raw: { ...(base.raw as object), extra: 1 } })).not.toBe(hash(base));
    expect(hash({ ...base, description: null })).not.toBe(hash({ ...base, description: '' }));
    expect(hash({ ...base, ledger_ids: ['a', 'b'] })).not.toBe(hash({ ...base, ledger_ids: ['a,b'] }));
    expect(encodeStored(LEDGER, ledgerRow(1)).at(-1)).toMatch(/^[A-Za-z0-9_-]{32}$/);
  });
});

describe('dedupeByKey', () => {
  it('keeps the newest version of a repeated key, and the later one on a tie', () => {
    const older = paymentRow(1, { status: 'sending' });
    const newer = paymentRow(1, { status: 'completed', updated_at: '2026-10-09T00:00:00.000000Z' });
    const tie = paymentRow(1, { status: 'failed', updated_at: newer.updated_at });
    expect(dedupeByKey(PAYMENTS, [newer, older])).toEqual([newer]);
    expect(dedupeByKey(PAYMENTS, [older, newer, tie])).toEqual([tie]);
    expect(dedupeByKey(PAYMENTS, [paymentRow(1), paymentRow(2)])).toHaveLength(2);
  });
});

describe('lineChunks', () => {
  it('groups lines into newline-terminated chunks of at most 100 lines', () => {
    const chunks = [...lineChunks(Array.from({ length: 250 }, (_, index) => String(index)))];
    expect(chunks.map((chunk) => chunk.split('\n').length - 1)).toEqual([100, 100, 50]);
    expect(chunks.join('')).toBe(Array.from({ length: 250 }, (_, index) => `${index}\n`).join(''));
  });
});
