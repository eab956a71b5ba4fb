/**
 * The `lots.tax` section with its defaults filled (tax-schema.ts): whether the US tax files are
 * written, and per wallet what its broker reports on Form 1099-DA — the wallet's own setting, else
 * the account's, else none (boxes I and L).
 */
import type { LotsConfig } from '../../config/lots-schema.js';
import type { Form1099DAReceipt, TaxConfig } from '../../config/tax-schema.js';
import { configError } from '../../util/errors.js';

export interface TaxOptions {
  form8949: boolean;
  identifyingNumber: string | null;
  /** what a wallet's Forms 1099-DA report (wallet ids compared in lower case) */
  receiptOf(walletId: string): Form1099DAReceipt;
  forms1099DA: TaxConfig['forms1099DA'];
}

export function taxOptions(lots: LotsConfig): TaxOptions {
  const tax = lots.tax;
  const perWallet = new Map(Object.entries(tax?.wallets ?? {}).map(([id, w]) => [id.toLowerCase(), w.form1099DA] as const));
  const account = tax?.form1099DA ?? 'none';
  return {
    form8949: tax?.form8949 ?? true,
    identifyingNumber: tax?.identifyingNumber ?? null,
    receiptOf: (walletId) => perWallet.get(walletId.toLowerCase()) ?? account,
    forms1099DA: tax?.forms1099DA ?? [],
  };
}

/**
 * `average` is a method for books kept outside the US: for a US return, the units of a digital
 * asset disposed of are those specifically identified, or else the earliest acquired in the same
 * wallet or account (Treas. Reg. 1.1012-1(j), as Rev. Proc. 2024-28 section 2 sets it out); the
 * average basis method is available only for a digital asset that is also a tokenized security
 * (Instructions for Form 1099-DA, "Average basis method"). A configuration that asks for Form 8949
 * from a wallet on `average` is refused rather than written by another method the books do not
 * keep (docs/tax.md "Methods").
 */
export function refuseAverageForTax(lots: LotsConfig): void {
  if (!taxOptions(lots).form8949) return;
  const holders = [
    ...Object.entries(lots.wallets).map(([id, w]) => ({ path: `lots.wallets.${id}.methods`, methods: w.methods })),
    ...Object.entries(lots.custody).map(([id, c]) => ({ path: `lots.custody.${id}.methods`, methods: c.methods ?? [] })),
  ];
  const average = holders.find((h) => h.methods.some((m) => m.method === 'average'));
  if (average === undefined) return;
  throw configError(
    'lots_average_for_tax',
    `${average.path}: average is a book method, not one a US return may use for digital assets (specific identification or FIFO, Treas. Reg. 1.1012-1(j)), so Form 8949 cannot be written from it; use fifo, hifo, lifo or specific, or set lots.tax.form8949 to false to keep average for books outside the US`,
  );
}
