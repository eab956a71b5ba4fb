/**
 * fees.csv / sheet "Fees": environment × wallet × currency × kind × category (× direction),
 * completed payments only — the month-end fee reconciliation.
 */
import type { FeeRow } from '../../model/results.js';
import { ratioBps } from '../../money/rate-display.js';
import { amount, code, count, decimal, displayCurrencyColumn, id, type TableSpec } from '../column-spec.js';

const cur = (r: FeeRow): string => r.currency;

export const FEES_TABLE: TableSpec<FeeRow> = {
  id: 'fees',
  file: 'fees.csv',
  sheet: 'Fees',
  rowIs: 'environment × wallet × currency × kind × category × direction, completed payments',
  columns: [
    id('environment_id', 'environment UUID', (r) => r.environment_id),
    id('wallet_id', 'wallet UUID', (r) => r.wallet_id),
    code('currency', 'currency: btc, usd or asset:<hex>', (r) => r.currency),
    code('unit', 'base unit of the *_base columns', (r) => r.unit),
    displayCurrencyColumn<FeeRow>((r) => r.currency),
    code('kind', 'rail: bolt11, onchain, bip21, taprootasset, usdbatch', (r) => r.kind),
    code('category', 'standard or treasury', (r) => r.category),
    code('direction', 'send or receive', (r) => r.direction),
    count('payments', 'completed payments in the group', (r) => r.payments),
    ...amount<FeeRow>('principal', 'sum of principals', (r) => r.principal_base, cur),
    ...amount<FeeRow>('network_fee', 'sum of network fees', (r) => r.network_fee_base, cur),
    ...amount<FeeRow>('processing_fee', 'sum of processing fees', (r) => r.processing_fee_base, cur),
    ...amount<FeeRow>('total', 'sum of totals debited or credited', (r) => r.total_base, cur),
    decimal('processing_fee_bps_effective', 'processing_fee / principal in basis points, 2 dp (half away from zero)', (r) => ratioBps(r.processing_fee_base, r.principal_base, 2)),
    count('settled_count', 'payments whose processing fee is the settled amount', (r) => r.settled_count),
    count('terms_count', 'payments whose processing fee comes from the terms', (r) => r.terms_count),
    count('none_count', 'payments without a processing fee', (r) => r.none_count),
    count('unknown_fee_count', 'payments with unknown fees: left out of the sums above, listed in exceptions', (r) => r.unknown_fee_count),
  ],
};
