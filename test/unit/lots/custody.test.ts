/**
 * Withdrawals and deposits to and from the company's own custody (src/lots/custody.ts, the
 * `lots` config's custody, withdrawals and deposits): what the configuration accepts and refuses,
 * how a movement is classified (an entry's rule wins over its wallet's), and what the subledger
 * does with it — the lots move with their dates and cost and nothing is relieved as a disposal; a
 * deposit back takes its basis from the custody wallet, and one larger than what went there comes
 * from an unknown lot.
 */
import { describe, expect, it } from 'vitest';
import type { JournalEntry } from '../../../src/journal/model.js';
import { lotsSchema } from '../../../src/config/lots-schema.js';
import { configSchema } from '../../../src/config/schema.js';
import { custodyPort, custodyRules } from '../../../src/lots/custody.js';
import { custodyAccount } from '../../../src/journal/custody-book.js';
import { inOrder } from '../../../src/lots/event-order.js';
import { lotEvents, type Movement } from '../../../src/lots/events.js';
import { lotsSetup } from '../../../src/lots/lots-setup.js';
import { Subledger } from '../../../src/lots/subledger.js';
import { demoJournal } from '../../support/lots/demo-month-ends.js';

const A = '6c5deed7-2187-4380-8b17-c8b8547bf9e3';
const B = '086d41a7-d600-4778-91bb-6e19c5d461d0';
const CUSTODY = { vault: { name: 'Vault', account: 'credit_line' } };

describe('the configuration', () => {
  it('reads custody wallets and rules by wallet and by entry', () => {
    const lots = lotsSchema.parse({ custody: CUSTODY, withdrawals: [{ wallet: A, treatment: 'own_custody', custody: 'vault' }, { entry: 'withdrawn:w9', treatment: 'disposal' }], deposits: [{ entry: 'deposited:d1', treatment: 'own_custody', custody: 'vault' }] });
    expect(lots.withdrawals).toHaveLength(2);
    expect(lotsSchema.parse({}).custody).toEqual({});
  });

  it.each([
    ['an unknown custody id', { custody: CUSTODY, withdrawals: [{ wallet: A, treatment: 'own_custody', custody: 'attic' }] }, /unknown custody id 'attic'/],
    ['own_custody without its custody wallet', { custody: CUSTODY, withdrawals: [{ wallet: A, treatment: 'own_custody' }] }, /own_custody needs/],
    ['a disposal that names a custody wallet', { custody: CUSTODY, withdrawals: [{ wallet: A, treatment: 'disposal', custody: 'vault' }] }, /custody is for own_custody only/],
    ['a rule naming both a wallet and an entry', { withdrawals: [{ wallet: A, entry: 'withdrawn:w1', treatment: 'disposal' }] }, /either a wallet or an entry/],
    ['a withdrawal rule for a deposit entry', { withdrawals: [{ entry: 'deposited:d1', treatment: 'disposal' }] }, /expected withdrawn:<entry id>/],
    ['a deposit treated as a disposal', { deposits: [{ wallet: A, treatment: 'disposal' }] }, /external/],
    ['two rules for one wallet', { withdrawals: [{ wallet: A, treatment: 'disposal' }, { wallet: A.toUpperCase(), treatment: 'disposal' }] }, /a second rule for wallet/],
  ])('refuses %s', (_, lots, message) => {
    const parsed = lotsSchema.safeParse(lots);
    expect(parsed.success).toBe(false);
    expect(JSON.stringify(parsed.error?.issues)).toMatch(message);
  });

  it("refuses a custody account the journal does not declare (exit 78)", () => {
    const config = configSchema.parse({ journal: demoJournal, lots: { custody: { vault: { name: 'Vault', account: 'no_such_account' } } } });
    expect(() => lotsSetup(config, undefined, process.cwd())).toThrow(/lots.custody.vault.account: unknown account key 'no_such_account'/);
    try {
      lotsSetup(config, undefined, process.cwd());
    } catch (error) {
      expect((error as { exitCode?: number }).exitCode).toBe(78);
    }
  });
});

describe('classification', () => {
  const rules = custodyRules(lotsSchema.parse({ custody: CUSTODY, withdrawals: [{ wallet: A, treatment: 'own_custody', custody: 'vault' }, { entry: 'withdrawn:w9', treatment: 'disposal' }, { wallet: B, treatment: 'disposal' }], deposits: [{ entry: 'deposited:d1', treatment: 'own_custody', custody: 'vault' }] }));

  it("follows the wallet's rule, an entry's rule first, and leaves the rest unclassified (withdrawals) or external (deposits)", () => {
    expect(rules.classify(A.toUpperCase(), 'withdrawn:w1')).toEqual({ treatment: 'own_custody', custody: 'custody:vault' });
    expect(rules.classify(A, 'withdrawn:w9')).toEqual({ treatment: 'disposal' });
    expect(rules.classify(B, 'withdrawn:w2')).toEqual({ treatment: 'disposal' });
    expect(rules.classify('00000000-0000-4000-8000-000000000000', 'withdrawn:w3')).toEqual({ treatment: 'unclassified' });
    expect(rules.classify(A, 'deposited:d1')).toEqual({ treatment: 'own_custody', custody: 'custody:vault' });
    expect(rules.classify(A, 'deposited:d2')).toEqual({ treatment: 'external' });
  });

  it("gives the journal the custody wallet's account for its moves, and nothing for the others", () => {
    const account = custodyAccount(custodyPort(rules));
    expect([account(A, 'withdrawn:w1'), account(A, 'withdrawn:w9'), account(A, 'deposited:d2')]).toEqual(['credit_line', null, null]);
    expect([custodyPort(rules).holder(A, 'withdrawn:w1'), custodyPort(rules).name('custody:vault')]).toEqual(['custody:vault', 'Vault']);
    expect(rules.holders).toEqual([{ wallet_id: 'custody:vault', name: 'Vault' }]);
  });
});

const line = (component: JournalEntry['lines'][number]['component'], side: 'debit' | 'credit', units: bigint, amount: bigint): JournalEntry['lines'][number] => ({ account: 'x', side, component, source: { amount: units, currency: 'btc', unit: 'msat' }, amount, memo: '' });
const movement = (ref: string, at: string, inflow: boolean, units: bigint, value: bigint, custody?: string): Movement => ({
  entry: { entryNo: `PX-${ref}`, kind: 'movement', date: at.slice(0, 10), postedAt: at, walletId: A, paymentId: ref.startsWith('credited') ? 'p1' : null, ledgerRef: ref, narration: '', valuation: null, lines: [line('wallet', inflow ? 'debit' : 'credit', units, value), line('principal', inflow ? 'credit' : 'debit', units, value)] },
  currency: 'btc', inflow, treasury: false, swap: false, noPayment: !ref.startsWith('credited'), pairKey: null, ...(custody === undefined ? {} : { custody }),
});

describe('the subledger', () => {
  it('moves lots to the custody wallet and back with their dates and cost, relieving nothing', () => {
    const events = lotEvents([
      movement('credited:r1', '2026-09-01T00:00:00.000000Z', true, 1_000n, 600n),
      movement('withdrawn:w1', '2026-09-10T00:00:00.000000Z', false, 400n, 300n, 'custody:vault'),
      movement('deposited:d1', '2026-09-20T00:00:00.000000Z', true, 100n, 90n, 'custody:vault'),
    ]).events;
    expect(events.map((e) => [e.type, e.walletId, e.type === 'transfer' ? e.toWalletId : null])).toEqual([
      ['transfer', A, 'custody:vault'],
      ['acquire', A, null],
      ['transfer', 'custody:vault', A],
    ]);
    const ledger = new Subledger({ methods: new Map() });
    const applied = inOrder(events).map((e) => ledger.apply(e));
    expect(applied.flatMap((a) => a.reliefs)).toEqual([]);
    const held = ledger.held();
    expect(held.map((l) => [l.walletId, l.origin, l.acquiredAt, l.units, l.cost])).toEqual([
      [A, 'receive', '2026-09-01T00:00:00.000000Z', 600n, 360n],
      [A, 'transfer_in', '2026-09-01T00:00:00.000000Z', 100n, 60n],
      ['custody:vault', 'transfer_in', '2026-09-01T00:00:00.000000Z', 300n, 180n],
    ]);
  });

  it('takes a deposit back beyond what went to the custody wallet from an unknown lot, and says so', () => {
    const ledger = new Subledger({ methods: new Map() });
    const [back] = lotEvents([movement('deposited:d9', '2026-09-20T00:00:00.000000Z', true, 100n, 90n, 'custody:vault')]).events;
    const applied = ledger.apply(back!);
    expect(applied.notes.map((n) => [n.code, n.walletId, n.units])).toEqual([['basis_unknown', 'custody:vault', 100n]]);
    expect(ledger.held().map((l) => [l.walletId, l.origin, l.cost])).toEqual([[A, 'unknown', null]]);
  });
});
