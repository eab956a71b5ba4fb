import { describe, expect, it } from 'vitest';
import type { JournalEntry } from '../../../src/journal/model.js';
import { lotEvents, type Movement } from '../../../src/lots/events.js';

const line = (component: JournalEntry['lines'][number]['component'], side: 'debit' | 'credit', units: bigint, amount: bigint | null): JournalEntry['lines'][number] => ({ account: 'x', side, component, source: { amount: units, currency: 'btc', unit: 'msat' }, amount, memo: '' });
const entry = (walletId: string, ref: string, at: string, lines: JournalEntry['lines']): JournalEntry => ({ entryNo: `PX-${ref}`, kind: 'movement', date: at.slice(0, 10), postedAt: at, walletId, paymentId: `p-${ref}`, ledgerRef: ref, narration: '', valuation: null, lines });
const send = (walletId: string, ref: string, principal: bigint, fee: bigint, treasury: boolean, key: string | null): Movement => ({
  entry: entry(walletId, ref, '2026-10-02T10:00:00.000000Z', [line('wallet', 'credit', principal + fee, 1010n), line('principal', 'debit', principal, 1000n), line('network_fee', 'debit', fee, 10n)]),
  currency: 'btc', inflow: false, treasury, swap: false, noPayment: false, pairKey: key,
});
const receive = (walletId: string, ref: string, units: bigint, treasury: boolean, key: string | null): Movement => ({
  entry: entry(walletId, ref, '2026-10-02T10:00:05.000000Z', [line('wallet', 'debit', units, 1001n), line('principal', 'credit', units, 1001n)]),
  currency: 'btc', inflow: true, treasury, swap: false, noPayment: false, pairKey: key,
});

describe('movements become subledger events', () => {
  it('pairs a treasury send with the receive of the same hash and principal in another wallet: one transfer, its fee a transfer_fee', () => {
    const out = send('A', 'captured:s', 100_000n, 500n, true, 'h1');
    const into = receive('B', 'credited:r', 100_000n, true, 'h1');
    const { events, paired } = lotEvents([out, into]);
    expect(events).toEqual([{ type: 'transfer', walletId: 'A', toWalletId: 'B', currency: 'btc', at: out.entry.postedAt, ref: 'captured:s', units: 100_000n, fees: [{ part: 'transfer_fee', units: 500n, proceeds: 10n }] }]);
    expect(paired).toEqual(new Set([out, into]));
  });

  it('keeps a treasury send and receive that do not match apart: a disposal and a receive at fair value', () => {
    const { events } = lotEvents([send('A', 'captured:s', 100_000n, 500n, true, 'h1'), receive('B', 'credited:r', 99_000n, true, 'h1')]);
    expect(events.map((e) => e.type)).toEqual(['dispose', 'acquire']);
    expect(events[0]).toMatchObject({ legs: [{ part: 'principal', units: 100_000n, proceeds: 1000n }, { part: 'network_fee', units: 500n, proceeds: 10n }] });
    expect(events[1]).toMatchObject({ origin: 'receive', units: 99_000n, cost: 1001n });
  });

  it('makes a movement with no payment a deposit or a withdrawal', () => {
    const w = send('A', 'withdrawn:w', 5_000n, 0n, false, null);
    const d = receive('A', 'deposited:d', 7_000n, false, null);
    const { events } = lotEvents([{ ...w, noPayment: true }, { ...d, noPayment: true }]);
    expect(events[0]).toMatchObject({ type: 'dispose', legs: [{ part: 'withdrawal', units: 5_000n }, { part: 'network_fee', units: 0n }] });
    expect(events[1]).toMatchObject({ type: 'acquire', origin: 'deposit', units: 7_000n });
  });
});

describe('pairing without a shared hash', () => {
  it('takes the earliest matching treasury receive in another wallet within a day of the send', () => {
    const out = send('A', 'captured:s', 100_000n, 0n, true, null);
    const into = receive('B', 'credited:r', 100_000n, true, 'other');
    const tooLate = { ...receive('C', 'credited:late', 100_000n, true, null), entry: { ...receive('C', 'credited:late', 100_000n, true, null).entry, postedAt: '2026-10-04T10:00:00.000000Z' } };
    const { events } = lotEvents([tooLate, into, out]);
    expect(events[0]).toMatchObject({ type: 'transfer', walletId: 'A', toWalletId: 'B', units: 100_000n });
    expect(events[1]).toMatchObject({ type: 'acquire', walletId: 'C' });
  });
});
