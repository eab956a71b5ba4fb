import { describe, expect, it } from 'vitest';
import type { PaymentRow } from '../../../src/model/rows.js';
import { fieldColumns, type SpecContext } from '../../../src/model/column-spec.js';
import { makePaymentRow } from '../../support/rows/builders.js';

const ctx: SpecContext = { assetDecimals: new Map(), assetNames: new Map(), asOf: '2026-11-01T00:00:00.000000Z' };
const row = { payment_id: 'p-1', principal_base: 1234n, currency: 'btc', flags: ['legacy'] } as unknown as PaymentRow;
const field = fieldColumns<PaymentRow>();

describe('fieldColumns', () => {
  it('names a column after its field and reads that field', () => {
    const column = field.id('payment_id', 'payment UUID');
    expect([column.name, column.type, column.get(row, ctx)]).toEqual(['payment_id', 'id', 'p-1']);
    const flags = field.list('flags', 'quirks');
    expect(flags.get(row, ctx)).toEqual(['legacy']);
  });

  it('reads a field whose name is no identifier through the shared reader, and every column of a real row', () => {
    const odd = fieldColumns<{ 'odd-name': string; 'a;b': string }>();
    const weird = { 'odd-name': 'x', 'a;b': 'y' };
    expect([odd.text('odd-name', 'd').get(weird, ctx), odd.text('a;b', 'd').get(weird, ctx)]).toEqual(['x', 'y']);
    const full = makePaymentRow({ description: 'memo', principal_base: 77n });
    for (const name of ['payment_id', 'description', 'created_at', 'ledger_ids', 'processing_fee_bps'] as const) {
      const column = name === 'ledger_ids' ? field.list(name, 'd') : name === 'processing_fee_bps' ? field.bps(name, 'd') : field.text(name, 'd');
      expect(column.get(full, ctx)).toBe(full[name]);
    }
  });

  it('reads an amount pair from its <stem>_base field', () => {
    const [base, display] = field.amount('principal', 'amount', (r) => r.currency);
    expect([base.name, display.name]).toEqual(['principal_base', 'principal']);
    expect([base.get(row, ctx), display.get(row, ctx), display.currency(row, ctx)]).toEqual([1234n, 1234n, 'btc']);
  });

  it('refuses, at compile time, a field the row does not have or of a type the column cannot show', () => {
    // @ts-expect-error no such payment field
    const missing = field.code('no_such_field', 'x');
    // @ts-expect-error flags is a list, not text
    const wrongType = field.text('flags', 'x');
    // @ts-expect-error no `fee_base` amount on a payment
    const noStem = field.amount('fee', 'x', (r) => r.currency);
    expect([missing.name, wrongType.name, noStem[0].name]).toEqual(['no_such_field', 'flags', 'fee_base']);
  });
});
