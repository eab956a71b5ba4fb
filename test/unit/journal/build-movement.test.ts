import { describe, expect, it } from 'vitest';
import { imbalance } from '../../../src/journal/balance.js';
import { buildMovementEntry } from '../../../src/journal/build-movement.js';
import { PriceTable } from '../../../src/journal/price-file.js';
import { buildContext, journalConfig } from '../../support/journal/build-context.js';
import { makeLedgerRow, makePaymentRow, uuid } from '../../support/rows/builders.js';

const prices = new Map([['btc', PriceTable.parse('btc', '2026-10-05T00:00:00Z,86552.00\n', 'p.csv', 86_400)]]);
const ctx = buildContext(journalConfig(), prices);
const lines = (e: ReturnType<typeof buildMovementEntry>['entry']) => e?.lines.map((l) => [l.account, l.side, l.component, l.source?.amount ?? null, l.amount]);

describe('a wallet movement becomes an entry', () => {
  it("splits a send's capture into principal, network and processing fee from its breakdown, valued from the price file", () => {
    // the research's example: 11,000 + 12 + 110 sats at 86,552.00 USD/BTC → 9.52 + 0.01 + 0.10 = 9.63
    const row = makeLedgerRow({ amount_base: 11_122_000n, balance_effect_base: -11_122_000n, principal_base: 11_000_000n, network_fee_base: 12_000n, processing_fee_base: 110_000n });
    const { entry, findings } = buildMovementEntry(ctx, 'ops_btc', row, makePaymentRow());
    expect(findings).toEqual([]);
    expect(lines(entry)).toEqual([
      ['ops_btc', 'credit', 'wallet', 11_122_000n, 963n],
      ['payables', 'debit', 'principal', 11_000_000n, 952n],
      ['fees_network', 'debit', 'network_fee', 12_000n, 1n],
      ['fees_processing', 'debit', 'processing_fee', 110_000n, 10n],
    ]);
    expect(entry?.valuation).toMatchObject({ source: 'price_file', text: '86552.00 USD/BTC', at: '2026-10-05T00:00:00.000000Z' });
    expect(entry?.entryNo).toMatch(/^PX-[A-Z2-7]{12}$/);
    expect(imbalance(entry!)).toBeNull();
  });

  it("takes the payment's breakdown when the capture has none, and the payment's own quote before the price file", () => {
    const payment = makePaymentRow({ quote_rate: '9000000e0', quote_from: 'btc', quote_to: 'usd', quote_id: 'q-1' });
    const { entry } = buildMovementEntry(ctx, 'ops_btc', makeLedgerRow(), payment);
    // 150,250,000 msats at 90,000.00 USD/BTC = 135.225 → 135.22 (half-even); 135.00 + 0.135 + 0.09 by largest remainder
    expect(lines(entry)).toEqual([
      ['ops_btc', 'credit', 'wallet', 150_250_000n, 13522n],
      ['payables', 'debit', 'principal', 150_000_000n, 13500n],
      ['fees_network', 'debit', 'network_fee', 150_000n, 13n],
      ['fees_processing', 'debit', 'processing_fee', 100_000n, 9n],
    ]);
    expect(entry?.valuation).toMatchObject({ source: 'payment_quote', text: '90000.00 USD/BTC (quote q-1)' });
  });

  it('posts the whole capture to the counter account, with a warning, when no split sums to it', () => {
    const { entry, findings } = buildMovementEntry(ctx, 'ops_btc', makeLedgerRow({ amount_base: 1_000n, balance_effect_base: -1_000n }), makePaymentRow());
    expect(findings.map((f) => f.check_id)).toEqual(['journal.breakdown_unknown']);
    expect(lines(entry)).toEqual([
      ['ops_btc', 'credit', 'wallet', 1_000n, 0n],
      ['payables', 'debit', 'principal', 1_000n, 0n],
    ]);
  });

  it('books a receive at what the wallet was credited, against the first matching rule', () => {
    const payment = makePaymentRow({ direction: 'receive', metadata: { tenant_id: 'tenant-x' } });
    const row = makeLedgerRow({ entry_type: 'credited', effect: 'credit', amount_base: 55_700_000n, balance_effect_base: 55_700_000n });
    const { entry } = buildMovementEntry(ctx, 'ops_btc', row, payment);
    expect(lines(entry)).toEqual([
      ['ops_btc', 'debit', 'wallet', 55_700_000n, 4821n],
      ['tenant_sales', 'credit', 'principal', 55_700_000n, 4821n],
    ]);
    expect(entry?.lines[1]?.memo).toContain('rule: Tenant X');
  });

  it('sends a treasury movement to the transfer account, and a deposit without a payment to the balance-movements account', () => {
    const treasury = buildMovementEntry(ctx, 'ops_btc', makeLedgerRow({ amount_base: 150_000_000n, balance_effect_base: -150_000_000n, principal_base: 150_000_000n, network_fee_base: 0n, processing_fee_base: 0n }), makePaymentRow({ category: 'treasury' }));
    expect(treasury.entry?.lines.map((l) => l.account)).toEqual(['ops_btc', 'transfers']);
    const deposit = buildMovementEntry(ctx, 'ops_usd', makeLedgerRow({ entry_type: 'deposited', effect: 'credit', payment_id: null, currency: 'usd', unit: 'cents', amount_base: 5_000n, balance_effect_base: 5_000n }), null);
    expect(lines(deposit.entry)).toEqual([
      ['ops_usd', 'debit', 'wallet', 5_000n, 5_000n],
      ['credit_line', 'credit', 'principal', 5_000n, 5_000n],
    ]);
    expect(deposit.entry?.valuation?.source).toBe('native');
  });

  it('never posts a hold, and lists a movement without a price as "needs price" with no books amounts', () => {
    expect(buildMovementEntry(ctx, 'ops_btc', makeLedgerRow({ entry_type: 'held', effect: 'memo', balance_effect_base: 0n }), makePaymentRow())).toEqual({ entry: null, findings: [] });
    const late = makeLedgerRow({ effective_time: '2026-10-07T00:00:00.000000Z' });
    const { entry, findings } = buildMovementEntry(ctx, 'ops_btc', late, makePaymentRow());
    expect(findings.map((f) => [f.check_id, f.severity, f.subject_id])).toEqual([['journal.needs_price', 'error', `captured:${uuid(1, 'd')}`]]);
    expect(entry?.lines.every((l) => l.amount === null)).toBe(true);
    expect(imbalance(entry!)).toBeNull();
  });

  it('names a movement whose amount is unknown instead of posting it', () => {
    const { entry, findings } = buildMovementEntry(ctx, 'ops_btc', makeLedgerRow({ amount_base: null }), makePaymentRow());
    expect(entry).toBeNull();
    expect(findings.map((f) => f.check_id)).toEqual(['journal.unposted']);
  });

  it('books the rounding difference to the rounding account in rounding-line mode', () => {
    // at 100,000.00 USD/BTC one msat is 0.0001 cent: 6,000 + 6,000 msats = 0.6 + 0.6 cents
    const round = new Map([['btc', PriceTable.parse('btc', '2026-10-05T00:00:00Z,100000.00\n', 'p.csv', 86_400)]]);
    const c = buildContext(journalConfig({ roundingStrategy: 'rounding-line', rounding: 'half_up' }), round);
    const row = makeLedgerRow({ amount_base: 12_000n, balance_effect_base: -12_000n, principal_base: 6_000n, network_fee_base: 6_000n, processing_fee_base: 0n });
    const { entry } = buildMovementEntry(c, 'ops_btc', row, makePaymentRow());
    // wallet 1.2 → 1 cent, each leg 0.6 → 1 cent: the missing cent goes to the rounding account on the wallet's side
    expect(lines(entry)).toEqual([
      ['ops_btc', 'credit', 'wallet', 12_000n, 1n],
      ['payables', 'debit', 'principal', 6_000n, 1n],
      ['fees_network', 'debit', 'network_fee', 6_000n, 1n],
      ['rounding', 'credit', 'rounding', null, 1n],
    ]);
    expect(imbalance(entry!)).toBeNull();
    // the same movement allocated: no rounding line, the cent to the first of the tied remainders
    expect(lines(buildMovementEntry(buildContext(journalConfig({ rounding: 'half_up' }), round), 'ops_btc', row, makePaymentRow()).entry)).toEqual([
      ['ops_btc', 'credit', 'wallet', 12_000n, 1n],
      ['payables', 'debit', 'principal', 6_000n, 1n],
      ['fees_network', 'debit', 'network_fee', 6_000n, 0n],
    ]);
  });
});

describe('the balance guard', () => {
  it('reports an entry whose sides differ, in books units and in source units', () => {
    const { entry } = buildMovementEntry(ctx, 'ops_btc', makeLedgerRow({ amount_base: 11_122_000n, balance_effect_base: -11_122_000n, principal_base: 11_000_000n, network_fee_base: 12_000n, processing_fee_base: 110_000n }), makePaymentRow());
    const tampered = { ...entry!, lines: entry!.lines.map((l, i) => (i === 1 ? { ...l, amount: (l.amount ?? 0n) + 1n } : l)) };
    expect(imbalance(tampered)).toMatch(/books amounts differ by 1 minor units/);
    const shorted = { ...entry!, lines: entry!.lines.map((l, i) => (i === 2 ? { ...l, source: { ...l.source!, amount: 0n } } : l)) };
    expect(imbalance(shorted)).toMatch(/source amounts in btc differ/);
  });
});
