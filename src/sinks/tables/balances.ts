/** balances.csv / sheet "Balances": wallet × currency roll-forward over the window. */
import type { BalanceRow } from '../../reconcile/results.js';
import { amount, code, count, displayCurrencyColumn, id, type TableSpec } from '../column-spec.js';

const cur = (r: BalanceRow): string => r.currency;

export const BALANCES_TABLE: TableSpec<BalanceRow> = {
  id: 'balances',
  file: 'balances.csv',
  sheet: 'Balances',
  rowIs: 'wallet × currency balance roll-forward',
  columns: [
    id('wallet_id', 'wallet UUID', (r) => r.wallet_id),
    id('environment_id', 'environment UUID', (r) => r.environment_id),
    code('currency', 'currency: btc, usd or asset:<hex>', (r) => r.currency),
    code('unit', 'base unit of the *_base columns', (r) => r.unit),
    displayCurrencyColumn<BalanceRow>((r) => r.currency),
    ...amount<BalanceRow>('opening', 'balance at the start of the window', (r) => r.opening_base, cur),
    ...amount<BalanceRow>('credits', 'ledger credits in the window', (r) => r.credits_base, cur),
    ...amount<BalanceRow>('debits', 'ledger debits in the window (positive)', (r) => r.debits_base, cur),
    ...amount<BalanceRow>('closing', 'opening + credits − debits', (r) => r.closing_base, cur),
    count('entries', 'ledger entries in the window', (r) => r.entries),
    ...amount<BalanceRow>('api_balance', 'the wallet balance the API reports (only when the window reaches the present)', (r) => r.api_balance_base, cur),
    ...amount<BalanceRow>('difference', 'closing − api_balance, when compared', (r) => r.difference_base, cur),
  ],
};
