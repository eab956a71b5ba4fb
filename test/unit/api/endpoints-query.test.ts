import { describe, expect, it } from 'vitest';
import { dateParam, ledgerEventKey, ledgerFilterQuery, paymentFilterQuery, summaryFilterQuery, uuidParam } from '../../../src/api/endpoints.js';
import type { WireLedgerEvent } from '../../../src/api/wire/ledger.js';

const W = '2d8e5c74-5130-4c79-9f77-3c4d5e6f7081';

describe('query builders', () => {
  it('builds every payment filter in a fixed order', () => {
    expect(
      paymentFilterQuery({
        endDate: '2026-10-31T23:59:59Z',
        startDate: '2026-10-01T00:00:00Z',
        direction: 'receive',
        kind: 'bolt11',
        sortOrder: 'ASC',
        sortKey: 'updated_at',
        statuses: ['completed'],
        metadata: { b: '2', a: '1' },
        paymentCategory: 'treasury',
        lineOfCreditId: W.toUpperCase(),
        walletId: W,
      }),
    ).toEqual([
      ['wallet_id', W],
      ['line_of_credit_id', W],
      ['payment_category', 'treasury'],
      ['metadata[a]', '1'],
      ['metadata[b]', '2'],
      ['statuses[]', 'completed'],
      ['sort_key', 'updated_at'],
      ['sort_order', 'ASC'],
      ['kind', 'bolt11'],
      ['direction', 'receive'],
      ['start_date', '2026-10-01T00:00:00.000000Z'],
      ['end_date', '2026-10-31T23:59:59.000000Z'],
    ]);
    expect(paymentFilterQuery({})).toEqual([]);
  });

  it('builds summary and ledger filters', () => {
    expect(summaryFilterQuery({ includeInactive: true, lineOfCreditId: W, statuses: ['failed', 'expired'] })).toEqual([
      ['line_of_credit_id', W],
      ['include_inactive', 'true'],
      ['statuses[]', 'failed'],
      ['statuses[]', 'expired'],
    ]);
    expect(ledgerFilterQuery({ paymentId: W, sortKey: 'time_and_effective_time', sortOrder: 'DESC' })).toEqual([
      ['payment_id', W],
      ['sort_key', 'time_and_effective_time'],
      ['sort_order', 'DESC'],
    ]);
  });

  it.each(['', 'abc', '../x', `${W}x`, `${W}/`, ' ' + W, '2d8e5c74513040799f773c4d5e6f7081'])('refuses %j as a UUID (exit 64)', (value) => {
    expect(() => uuidParam('wallet_id', value)).toThrow(expect.objectContaining({ type: 'invalid_uuid', exitCode: 64 }));
  });

  it.each(['2026-10-01', '2026-10-01T00:00:00', 'yesterday', new Date('nope')])('refuses %j as a date-time (exit 64)', (value) => {
    expect(() => dateParam('start_date', value)).toThrow(expect.objectContaining({ type: 'invalid_date_time', exitCode: 64 }));
  });

  it.each<Record<string, string>>([{ 'a]': 'x' }, { '': 'x' }, { 'a[b': 'x' }])('refuses metadata key %j', (metadata) => {
    expect(() => paymentFilterQuery({ metadata })).toThrow(expect.objectContaining({ type: 'invalid_metadata_filter' }));
  });

  it('keys ledger events by type and id (a hold id is shared by held, captured and released)', () => {
    const held = { type: 'held', hold_id: 'h1', payment_id: 'p', effective_time: 't' } as unknown as WireLedgerEvent;
    const captured = { type: 'captured', hold_id: 'h1', payment_id: 'p', effective_time: 't' } as unknown as WireLedgerEvent;
    expect(ledgerEventKey(held)).toBe('held:h1');
    expect(ledgerEventKey(captured)).toBe('captured:h1');
  });
});
