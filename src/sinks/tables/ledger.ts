/** ledger.csv / sheet "Ledger": one row per wallet ledger event effective in the window. */
import type { LedgerRow } from '../../model/rows.js';
import { displayCurrencyColumn, fieldColumns, type TableSpec } from '../../model/column-spec.js';

const field = fieldColumns<LedgerRow>();
const cur = (r: LedgerRow): string => r.currency;

export const LEDGER_TABLE: TableSpec<LedgerRow> = {
  id: 'ledger',
  file: 'ledger.csv',
  sheet: 'Ledger',
  rowIs: 'wallet ledger event effective in the window',
  // printed one page across (docs/reports.md#printing-8-pt-or-more-on-a4-and-letter): when, which wallet, what and how much
  printColumns: ['effective_time', 'wallet_name', 'entry_type', 'effect', 'display_currency', 'amount', 'balance_effect'],
  columns: [
    field.id('entry_id', 'the event id: credit_id, hold_id, deposit_id or withdraw_id'),
    field.code('entry_type', 'credited, captured, held, released, deposited or withdrawn'),
    field.code('effect', 'credit or debit of the total balance; memo for holds and releases (available balance only)'),
    field.id('wallet_id', 'wallet UUID'),
    field.id('environment_id', 'environment UUID'),
    field.id('organization_id', 'organization UUID'),
    field.id('payment_id', 'payment the event belongs to (join to payments.csv)'),
    ...field.instant('effective_time', 'when the event took effect'),
    field.code('currency', 'currency: btc, usd or asset:<hex>'),
    field.code('unit', 'base unit of the *_base columns'),
    displayCurrencyColumn<LedgerRow>((r) => r.currency),
    ...field.amount('amount', 'the amount as the ledger states it (negative only when the API says so); empty for released', cur),
    ...field.amount('balance_effect', 'signed effect on the total balance: + credit, − debit, 0 memo', cur),
    ...field.amount('principal', 'principal from the event\'s payment breakdown', cur),
    ...field.amount('network_fee', 'network fee from the payment breakdown', cur),
    ...field.amount('processing_fee', 'processing fee from the payment breakdown', cur),
    field.bps('processing_fee_bps', 'processing fee rate in basis points'),
    field.list('flags', 'quirks met while normalizing'),
  ],
};
