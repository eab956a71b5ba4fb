import { describe, expect, it } from 'vitest';
import { finding } from '../../../src/reconcile/findings.js';
import { groupByCause, type CausedFinding } from '../../../src/reconcile/group-findings.js';
import { basisCause, noteInstants } from '../../../src/lots/note-causes.js';
import { lotId } from '../../../src/lots/lot-id.js';
import type { Lot, ReliefLine } from '../../../src/lots/model.js';

const W1 = '11111111-1111-4111-8111-111111111111';
const W2 = '22222222-2222-4222-8222-222222222222';
const words = { members: 'ledger entries', detail: 'journal.csv (needs_price true)' };
const unpriced = (wallet: string, id: string, units: bigint, at: string, currency = 'btc'): CausedFinding => ({
  finding: finding('journal.needs_price', { subject_kind: 'ledger_entry', subject_id: id, wallet_id: wallet, currency, actual: units, message: `no USD price for BTC at ${at}` }),
  cause: 'no_price',
  text: 'have no USD price',
  at,
});

describe('groupByCause', () => {
  it('folds the findings of one cause and currency into one row with the count, the units and the first and last instants', () => {
    const grouped = groupByCause([
      unpriced(W1, 'e3', 30n, '2026-10-20T00:00:00.000000Z'),
      unpriced(W2, 'e1', 10n, '2026-10-01T05:00:00.000000Z'),
      unpriced(W1, 'e2', 20n, '2026-10-31T23:00:00.000000Z'),
      unpriced(W1, 'a1', 5n, '2026-10-02T00:00:00.000000Z', 'asset:0a'),
    ], words);
    expect(grouped).toHaveLength(2);
    expect(grouped[0]).toEqual({
      check_id: 'journal.needs_price',
      severity: 'error',
      subject_kind: 'run',
      subject_id: 'journal.needs_price:btc:no_price',
      wallet_id: null,
      currency: 'btc',
      expected: null,
      actual: '60',
      difference: null,
      message: '3 ledger entries of btc in 2 wallets from 2026-10-01T05:00:00.000000Z to 2026-10-31T23:00:00.000000Z have no USD price (60 base units in all); each is listed in journal.csv (needs_price true)',
    });
    // a cause met once keeps its own finding, as it was
    expect(grouped[1]).toEqual(unpriced(W1, 'a1', 5n, '2026-10-02T00:00:00.000000Z', 'asset:0a').finding);
  });

  it('the lots notes: each cause of an unknown basis by its words, its instant from the lot or the disposal', () => {
    const ref = 'deposited:d1';
    const lot: Lot = { lotId: lotId(W1, ref), walletId: W1, currency: 'btc', acquiredAt: '2026-09-03T00:00:00.000000Z', origin: 'unknown', units: 7n, cost: null };
    const relief = { walletId: W1, currency: 'btc', disposalRef: 'sent:s1', part: 'principal', disposedAt: '2026-10-05T00:00:00.000000Z', lotId: 'LOT-X', acquiredAt: '2026-10-05T00:00:00.000000Z', units: 3n, proceeds: null, cost: null, gain: null, term: 'short' } as unknown as ReliefLine;
    const at = noteInstants([lot], [relief]);
    const acquired = { code: 'basis_unknown' as const, walletId: W1, currency: 'btc', ref, units: 7n, message: `${ref}: a deposit with no row in the opening-lots file; its 7 base units form an unknown lot` };
    const beyond = { code: 'basis_unknown' as const, walletId: W1, currency: 'btc', ref: 'sent:s1', units: 3n, message: "sent:s1 disposes of 3 base units more than the wallet's lots hold: they come from an unknown lot" };
    expect(basisCause(acquired.message).cause).toBe('deposit_no_row');
    expect(basisCause(beyond.message).cause).toBe('beyond_lots');
    expect(basisCause('something new').cause).toBe('other:something new');
    expect(at(acquired)).toBe('2026-09-03T00:00:00.000000Z');
    expect(at(beyond)).toBe('2026-10-05T00:00:00.000000Z');
  });
});
