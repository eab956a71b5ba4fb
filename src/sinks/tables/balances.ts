/**
 * balances.csv / sheet "Balances": wallet × currency roll-forward over the window, and how its
 * closing balance was checked against the service (src/reconcile/rollforward.ts): `direct` shows
 * api_balance and difference = closing − api_balance; `bridge` (a past period) shows the movements
 * since the window end and today's API balance instead, so no column contradicts its neighbours.
 */
import type { BalanceRow } from '../../model/results.js';
import { amount, code, displayCurrencyColumn, fieldColumns, instant, text, type TableSpec } from '../../model/column-spec.js';

const field = fieldColumns<BalanceRow>();
const cur = (r: BalanceRow): string => r.currency;

export const BALANCES_TABLE: TableSpec<BalanceRow> = {
  id: 'balances',
  file: 'balances.csv',
  sheet: 'Balances',
  rowIs: 'wallet × currency balance roll-forward, checked against the API balance',
  // printed one page across (docs/reports.md#printing-8-pt-or-more-on-a4-and-letter): the roll-forward per wallet and whether it agrees with the service
  printColumns: ['wallet_name', 'display_currency', 'opening', 'credits', 'debits', 'closing', 'balance_check'],
  columns: [
    field.id('wallet_id', 'wallet UUID'),
    field.id('environment_id', 'environment UUID'),
    field.code('currency', 'currency: btc, usd or asset:<hex>'),
    field.code('unit', 'base unit of the *_base columns'),
    displayCurrencyColumn<BalanceRow>((r) => r.currency),
    ...field.amount('opening', 'balance at the start of the window', cur),
    ...field.amount('credits', 'ledger credits in the window', cur),
    ...field.amount('debits', 'ledger debits in the window (positive)', cur),
    ...field.amount('closing', 'opening + credits − debits', cur),
    field.count('entries', 'ledger entries in the window'),
    code(
      'balance_check',
      'how closing was checked against the service: direct (the API balance was read inside the window: difference = closing − api_balance), bridge (a past period: closing + movements_since = api_balance_now), not_checked (see balance_check_note)',
      (r) => r.balance_check ?? 'not_checked',
    ),
    ...instant<BalanceRow>('api_balance_time', 'when the API balance was read (its effective_time)', (r) => r.api_balance_time ?? null),
    ...field.amount('api_balance', 'the wallet balance the API reports — only when balance_check is direct', cur),
    ...field.amount('difference', 'closing − api_balance — only when balance_check is direct', cur),
    ...amount<BalanceRow>('movements_since', 'bridge: net ledger movements from the window end up to api_balance_time', (r) => r.movements_since_base ?? null, cur),
    ...amount<BalanceRow>('api_balance_now', 'bridge: the wallet balance the API reports at api_balance_time (today, for a past period)', (r) => r.api_balance_now_base ?? null, cur),
    ...amount<BalanceRow>('bridge_difference', 'bridge: closing + movements_since − api_balance_now', (r) => r.bridge_difference_base ?? null, cur),
    text('balance_check_note', 'why a balance was not checked, or what the bridge spans', (r) => r.balance_check_note ?? null, 50),
  ],
};
