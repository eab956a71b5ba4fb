/**
 * fees.csv / sheet "Fees": environment × wallet × currency × kind × category (× direction),
 * completed payments only — the month-end fee reconciliation.
 */
import type { FeeRow } from '../../model/results.js';
import { ratioBps } from '../../money/rate-display.js';
import { decimal, displayCurrencyColumn, fieldColumns, type TableSpec } from '../../model/column-spec.js';

const field = fieldColumns<FeeRow>();
const cur = (r: FeeRow): string => r.currency;

export const FEES_TABLE: TableSpec<FeeRow> = {
  id: 'fees',
  file: 'fees.csv',
  sheet: 'Fees',
  rowIs: 'environment × wallet × currency × kind × category × direction, completed payments',
  // printed one page across (docs/reports.md#printing-8-pt-or-more-on-a4-and-letter): which wallet and way, how many, the fees
  printColumns: ['wallet_name', 'display_currency', 'direction', 'payments', 'network_fee', 'processing_fee', 'total'],
  columns: [
    field.id('environment_id', 'environment UUID'),
    field.id('wallet_id', 'wallet UUID'),
    field.code('currency', 'currency: btc, usd or asset:<hex>'),
    field.code('unit', 'base unit of the *_base columns'),
    displayCurrencyColumn<FeeRow>((r) => r.currency),
    field.code('kind', 'rail: bolt11, onchain, bip21, taprootasset, usdbatch'),
    field.code('category', 'standard or treasury'),
    field.code('direction', 'send or receive'),
    field.count('payments', 'completed payments in the group'),
    ...field.amount('principal', 'sum of principals', cur),
    ...field.amount('network_fee', 'sum of network fees', cur),
    ...field.amount('processing_fee', 'sum of processing fees', cur),
    ...field.amount('total', 'sum of totals debited or credited', cur),
    decimal('processing_fee_bps_effective', 'processing_fee / principal in basis points, 2 dp (half away from zero)', (r) => ratioBps(r.processing_fee_base, r.principal_base, 2)),
    field.count('settled_count', 'payments whose processing fee is the settled amount'),
    field.count('terms_count', 'payments whose processing fee comes from the terms'),
    field.count('none_count', 'payments without a processing fee'),
    field.count('unknown_fee_count', 'payments with unknown fees: left out of the sums above, listed in exceptions'),
  ],
};
