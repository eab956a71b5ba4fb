/** ledger.csv / sheet "Ledger": one row per wallet ledger event effective in the window. */
import type { LedgerRow } from '../../model/rows.js';
import { amount, bps, code, displayCurrencyColumn, id, instant, list, type TableSpec } from '../column-spec.js';

const cur = (r: LedgerRow): string => r.currency;

export const LEDGER_TABLE: TableSpec<LedgerRow> = {
  id: 'ledger',
  file: 'ledger.csv',
  sheet: 'Ledger',
  rowIs: 'wallet ledger event effective in the window',
  columns: [
    id('entry_id', 'the event id: credit_id, hold_id, deposit_id or withdraw_id', (r) => r.entry_id),
    code('entry_type', 'credited, captured, held, released, deposited or withdrawn', (r) => r.entry_type),
    code('effect', 'credit or debit of the total balance; memo for holds and releases (available balance only)', (r) => r.effect),
    id('wallet_id', 'wallet UUID', (r) => r.wallet_id),
    id('environment_id', 'environment UUID', (r) => r.environment_id),
    id('organization_id', 'organization UUID', (r) => r.organization_id),
    id('payment_id', 'payment the event belongs to (join to payments.csv)', (r) => r.payment_id),
    ...instant<LedgerRow>('effective_time', 'when the event took effect', (r) => r.effective_time),
    code('currency', 'currency: btc, usd or asset:<hex>', (r) => r.currency),
    code('unit', 'base unit of the *_base columns', (r) => r.unit),
    displayCurrencyColumn<LedgerRow>((r) => r.currency),
    ...amount<LedgerRow>('amount', 'the amount as the ledger states it (negative only when the API says so); empty for released', (r) => r.amount_base, cur),
    ...amount<LedgerRow>('balance_effect', 'signed effect on the total balance: + credit, − debit, 0 memo', (r) => r.balance_effect_base, cur),
    ...amount<LedgerRow>('principal', 'principal from the event\'s payment breakdown', (r) => r.principal_base, cur),
    ...amount<LedgerRow>('network_fee', 'network fee from the payment breakdown', (r) => r.network_fee_base, cur),
    ...amount<LedgerRow>('processing_fee', 'processing fee from the payment breakdown', (r) => r.processing_fee_base, cur),
    bps('processing_fee_bps', 'processing fee rate in basis points', (r) => r.processing_fee_bps),
    list('flags', 'quirks met while normalizing', (r) => r.flags),
  ],
};
