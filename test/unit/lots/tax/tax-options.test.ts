/**
 * lots.tax with its defaults: a wallet's Form 1099-DA setting over the account's, none by default;
 * and `average`, a book method, refused for Form 8949 with one clear error (exit 78), allowed when
 * the US tax files are off.
 */
import { describe, expect, it } from 'vitest';
import { lotsSchema } from '../../../../src/config/lots-schema.js';
import { refuseAverageForTax, taxOptions } from '../../../../src/lots/tax/tax-options.js';
import { AppError } from '../../../../src/util/errors.js';

const A = '6c5deed7-2187-4380-8b17-c8b8547bf9e3';
const B = '086d41a7-d600-4778-91bb-6e19c5d461d0';

describe('lots.tax', () => {
  it('gives each wallet its own Form 1099-DA setting, else the account’s, else none', () => {
    expect(taxOptions(lotsSchema.parse({})).receiptOf(A)).toBe('none');
    const options = taxOptions(lotsSchema.parse({ tax: { form1099DA: 'basis_not_reported', wallets: { [A.toUpperCase()]: { form1099DA: 'basis_reported' } } } }));
    expect([options.receiptOf(A), options.receiptOf(B), options.form8949]).toEqual(['basis_reported', 'basis_not_reported', true]);
    expect(() => lotsSchema.parse({ tax: { form1099DA: 'maybe' } })).toThrow();
    expect(() => lotsSchema.parse({ tax: { identifyingNumber: '12-3456789x' } })).toThrow();
  });

  it('refuses average for Form 8949, naming the wallet and the way out; allows it with form8949 off', () => {
    const average = { wallets: { [A]: { methods: [{ method: 'fifo', from: '2025-01-01' }, { method: 'average', from: '2026-01-01' }] } } };
    let error: unknown;
    try {
      refuseAverageForTax(lotsSchema.parse(average));
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(AppError);
    expect((error as AppError).exit).toBe('config');
    expect((error as AppError).type).toBe('lots_average_for_tax');
    expect((error as AppError).message).toBe(`lots.wallets.${A}.methods: average is a book method, not one a US return may use for digital assets (specific identification or FIFO, Treas. Reg. 1.1012-1(j)), so Form 8949 cannot be written from it; use fifo, hifo, lifo or specific, or set lots.tax.form8949 to false to keep average for books outside the US`);
    expect(() => refuseAverageForTax(lotsSchema.parse({ ...average, tax: { form8949: false } }))).not.toThrow();
    expect(() => refuseAverageForTax(lotsSchema.parse({ custody: { vault: { name: 'Vault', methods: [{ method: 'average', from: '2025-01-01' }] } } }))).toThrow(/lots\.custody\.vault\.methods: average is a book method/);
  });
});
