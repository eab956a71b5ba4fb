import { describe, expect, it } from 'vitest';
import { imbalance } from '../../../src/journal/balance.js';
import { PriceTable } from '../../../src/journal/price-file.js';
import { remeasurementEntry } from '../../../src/journal/remeasurement.js';
import type { BalanceRow } from '../../../src/model/results.js';
import { buildContext, journalConfig } from '../../support/journal/build-context.js';
import { uuid } from '../../support/rows/builders.js';

const WINDOW = { from: '2026-10-01T00:00:00.000000Z', to: '2026-11-01T00:00:00.000000Z', tz: 'UTC' };
const ACCOUNTS = { adjustment: 'fv_adjustment', gainLoss: 'fv_gain_loss' };
const prices = new Map([['btc', PriceTable.parse('btc', '2026-09-30T23:00:00Z,60000.00\n2026-10-31T23:00:00Z,66000.00\n', 'p.csv', 86_400)]]);
const config = journalConfig({ accounts: { ...journalConfig().accounts, fv_adjustment: { ledger: 'Assets:Crypto:FairValue', xero: '1299' }, fv_gain_loss: { ledger: 'Income:Crypto:FairValue', xero: '4910' } } });
const ctx = buildContext(config, prices);

const balance = (opening: bigint, closing: bigint): BalanceRow => ({
  wallet_id: uuid(1, 'c'),
  environment_id: 'e',
  currency: 'btc',
  unit: 'msats',
  opening_base: opening,
  credits_base: closing > opening ? closing - opening : 0n,
  debits_base: closing < opening ? opening - closing : 0n,
  closing_base: closing,
  entries: 1,
  api_balance_base: null,
  difference_base: null,
});

describe('period-end fair-value remeasurement', () => {
  it('books the gain: fair value at the end − (opening at the start price + the period lines)', () => {
    // 1 BTC opening at 60,000.00; 0.5 BTC bought in the period for 31,000.00; closing 1.5 BTC at 66,000.00 = 99,000.00
    // carrying 60,000.00 + 31,000.00 = 91,000.00 → gain 8,000.00
    const { entry, findings } = remeasurementEntry(ctx, ACCOUNTS, balance(100_000_000_000n, 150_000_000_000n), 3_100_000n, WINDOW, '2026-10');
    expect(findings).toEqual([]);
    expect(entry?.lines.map((l) => [l.account, l.side, l.amount])).toEqual([
      ['fv_adjustment', 'debit', 800_000n],
      ['fv_gain_loss', 'credit', 800_000n],
    ]);
    expect(entry).toMatchObject({ kind: 'remeasurement', date: '2026-10-31', postedAt: WINDOW.to });
    expect(imbalance(entry!)).toBeNull();
  });

  it('books a loss the other way round, and nothing when fair value equals the carrying value', () => {
    const loss = remeasurementEntry(ctx, ACCOUNTS, balance(100_000_000_000n, 100_000_000_000n), 700_000n, WINDOW, '2026-10').entry;
    // carrying 60,000 + 7,000 = 67,000; fair 66,000 → loss 1,000.00
    expect(loss?.lines.map((l) => [l.account, l.side, l.amount])).toEqual([
      ['fv_adjustment', 'credit', 100_000n],
      ['fv_gain_loss', 'debit', 100_000n],
    ]);
    expect(remeasurementEntry(ctx, ACCOUNTS, balance(100_000_000_000n, 100_000_000_000n), 600_000n, WINDOW, '2026-10').entry).toBeNull();
  });

  it('needs a price when a movement of the period had none, or the period-end price is missing', () => {
    const unpriced = remeasurementEntry(ctx, ACCOUNTS, balance(0n, 1_000n), null, WINDOW, '2026-10');
    expect(unpriced.entry).toBeNull();
    expect(unpriced.findings.map((f) => [f.check_id, f.subject_id])).toEqual([['journal.needs_price', `${uuid(1, 'c')}:btc:remeasurement`]]);
    const late = remeasurementEntry(ctx, ACCOUNTS, balance(0n, 1_000n), 0n, { ...WINDOW, to: '2026-12-01T00:00:00.000000Z' }, '2026-11');
    expect(late.findings.map((f) => f.check_id)).toEqual(['journal.needs_price']);
  });
});
