/** fee-rates.csv / sheet "Fee rates": the processing-fee rate in force per wallet and direction over time (fee-rate-history.ts). */
import type { FeeRateRow } from '../../reconcile/fee-rate-history.js';
import { bps, code, count, id, instant, text, type TableSpec } from '../column-spec.js';

export const FEE_RATES_TABLE: TableSpec<FeeRateRow> = {
  id: 'fee-rates',
  file: 'fee-rates.csv',
  sheet: 'Fee rates',
  rowIs: 'wallet × direction × period at one processing-fee rate',
  columns: [
    id('wallet_id', 'wallet UUID', (r) => r.wallet_id),
    id('environment_id', 'environment UUID', (r) => r.environment_id),
    code('direction', 'send or receive', (r) => r.direction),
    bps('rate_bps', 'processing-fee rate in basis points (100 = 1 %)', (r) => r.rate_bps),
    ...instant<FeeRateRow>('from', 'created_at of the first payment seen at this rate; empty = unknown (a rate known from the wallet policy alone, which has no history)', (r) => r.from),
    ...instant<FeeRateRow>('to', 'created_at of the first payment at the next rate (excluded); empty = in force at the last payment seen (or now, for the policy)', (r) => r.to),
    count('payments', 'standard payments at this rate (an off-rate payment inside the period included); 0 for a rate from the policy alone', (r) => r.payments),
    id('first_payment_id', 'first payment at this rate (empty for a rate from the policy alone)', (r) => r.first_payment_id),
    id('last_payment_id', 'last payment at this rate (empty for a rate from the policy alone)', (r) => r.last_payment_id),
    text('evidence', "where the rate comes from: the payments' processing_fee.basis_points; payments+policy when the wallet policy's current rate agrees with the latest period; policy when only the policy shows it", (r) => r.evidence),
  ],
};
