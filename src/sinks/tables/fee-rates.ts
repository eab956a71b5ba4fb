/** fee-rates.csv / sheet "Fee rates": the processing-fee rate in force per wallet and direction over time. */
import type { FeeRateRow } from '../../model/results.js';
import { fieldColumns, type TableSpec } from '../../model/column-spec.js';

const field = fieldColumns<FeeRateRow>();
export const FEE_RATES_TABLE: TableSpec<FeeRateRow> = {
  id: 'fee-rates',
  file: 'fee-rates.csv',
  sheet: 'Fee rates',
  rowIs: 'wallet × direction × period at one processing-fee rate',
  // printed one page across (docs/reports.md#printing-8-pt-or-more-on-a4-and-letter): which wallet and way, the rate and when it held
  printColumns: ['wallet_name', 'direction', 'rate_bps', 'from', 'to', 'payments', 'evidence'],
  columns: [
    field.id('wallet_id', 'wallet UUID'),
    field.id('environment_id', 'environment UUID'),
    field.code('direction', 'send or receive'),
    field.bps('rate_bps', 'processing-fee rate in basis points (100 = 1 %)'),
    ...field.instant('from', 'created_at of the first payment seen at this rate; empty = unknown (a rate known from the wallet policy alone, which has no history)'),
    ...field.instant('to', 'created_at of the first payment at the next rate (excluded); empty = in force at the last payment seen (or now, for the policy)'),
    field.count('payments', 'standard payments at this rate (an off-rate payment inside the period included); 0 for a rate from the policy alone'),
    field.id('first_payment_id', 'first payment at this rate (empty for a rate from the policy alone)'),
    field.id('last_payment_id', 'last payment at this rate (empty for a rate from the policy alone)'),
    field.text('evidence', "where the rate comes from: the payments' processing_fee.basis_points; payments+policy when the wallet policy's current rate agrees with the latest period; policy when only the policy shows it"),
  ],
};
