/**
 * payments.csv / sheet "Payments": one row per payment created in the window
 * (docs/contracts.md#required-columns). Contract columns keep their names; the rest make the row
 * readable on its own (display amounts, both time columns, fee terms, references, free text).
 */
import type { PaymentRow } from '../../model/rows.js';
import { quoteRatePerBtc } from '../../money/rate-display.js';
import { displayScale } from '../../money/units.js';
import { baseAmount, displayAmount, walletName, bps, code, decimal, displayCurrencyColumn, id, instant, json, list, text, type ColumnSpec, type SpecContext, type TableSpec } from '../column-spec.js';

const cur = (r: PaymentRow): string => r.currency;

function quoteRate(r: PaymentRow, ctx: SpecContext): string | null {
  if (r.quote_rate === null || r.quote_to === null) return null;
  const scale = displayScale(r.quote_to.toLowerCase(), ctx.assetDecimals);
  return scale === null ? null : quoteRatePerBtc(r.quote_rate, scale);
}

/** Columns shared by payments.csv and open-items.csv. */
export function paymentIdentityColumns(): ColumnSpec<PaymentRow>[] {
  return [
    id('payment_id', 'payment UUID (client generated)', (r) => r.payment_id),
    id('organization_id', 'organization UUID', (r) => r.organization_id),
    id('environment_id', 'environment UUID', (r) => r.environment_id),
    id('wallet_id', 'wallet UUID', (r) => r.wallet_id),
    code('direction', 'send or receive', (r) => r.direction),
    code('kind', 'payment type / rail: bolt11, onchain, bip21, taprootasset, usdbatch', (r) => r.kind),
    code('category', 'standard or treasury', (r) => r.category),
    code('route', 'sends: direct or swap; empty for receives', (r) => r.route),
    code('status', 'status as the service reports it', (r) => r.status),
    code('status_class', 'completed, failed (incl. expired), open (not terminal) or unknown', (r) => r.status_class),
    ...instant<PaymentRow>('created_at', 'when the payment was created', (r) => r.created_at),
    ...instant<PaymentRow>('updated_at', 'last change of the payment', (r) => r.updated_at),
    code('currency', 'wallet-side currency of the amounts: btc, usd or asset:<hex>', (r) => r.currency),
    code('unit', 'base unit of the *_base columns: msats, cents or base units', (r) => r.unit),
    displayCurrencyColumn<PaymentRow>((r) => r.currency),
  ];
}

/**
 * Column order is for a person reading the sheet (issue 18): when, which wallet, which way, how it
 * ended, how much, the fees and the memo first; the ids, UTC times and exact base units after.
 */
export const PAYMENTS_TABLE: TableSpec<PaymentRow> = {
  id: 'payments',
  file: 'payments.csv',
  sheet: 'Payments',
  rowIs: 'payment created in the window',
  // printed: the person's columns (date … memo) and the rail; ids, UTC times and base units stay on screen and in the CSV
  printThrough: 'route',
  columns: [
    { ...instant<PaymentRow>('created_at', 'when the payment was created', (r) => r.created_at)[0], width: 20 },
    walletName<PaymentRow>((r) => r.wallet_id),
    code('direction', 'send or receive', (r) => r.direction),
    code('status', 'status as the service reports it', (r) => r.status),
    displayCurrencyColumn<PaymentRow>((r) => r.currency),
    displayAmount<PaymentRow>('principal', 'amount sent or received, before fees', (r) => r.principal_base, cur),
    displayAmount<PaymentRow>('network_fee', 'network / routing fee', (r) => r.network_fee_base, cur),
    displayAmount<PaymentRow>('processing_fee', 'processing fee charged by the service', (r) => r.processing_fee_base, cur),
    displayAmount<PaymentRow>('total', 'amount debited (sends: principal + network + processing) or credited (receives)', (r) => r.total_base, cur),
    text('description', 'memo / label / description from the payer or payee (free text)', (r) => r.description, 40),
    code('kind', 'payment type / rail: bolt11, onchain, bip21, taprootasset, usdbatch', (r) => r.kind),
    code('category', 'standard or treasury', (r) => r.category),
    code('route', 'sends: direct or swap; empty for receives', (r) => r.route),
    code('status_class', 'completed, failed (incl. expired), open (not terminal) or unknown', (r) => r.status_class),
    id('payment_id', 'payment UUID (client generated)', (r) => r.payment_id),
    id('wallet_id', 'wallet UUID', (r) => r.wallet_id),
    id('organization_id', 'organization UUID', (r) => r.organization_id),
    id('environment_id', 'environment UUID', (r) => r.environment_id),
    instant<PaymentRow>('created_at', 'when the payment was created', (r) => r.created_at)[1],
    ...instant<PaymentRow>('updated_at', 'last change of the payment', (r) => r.updated_at),
    code('currency', 'wallet-side currency of the amounts: btc, usd or asset:<hex>', (r) => r.currency),
    code('unit', 'base unit of the *_base columns: msats, cents or base units', (r) => r.unit),
    baseAmount<PaymentRow>('principal', 'amount sent or received, before fees', (r) => r.principal_base, cur),
    baseAmount<PaymentRow>('network_fee', 'network / routing fee', (r) => r.network_fee_base, cur),
    baseAmount<PaymentRow>('processing_fee', 'processing fee charged by the service', (r) => r.processing_fee_base, cur),
    baseAmount<PaymentRow>('total', 'amount debited (sends: principal + network + processing) or credited (receives)', (r) => r.total_base, cur),
    code('processing_fee_source', 'where processing_fee comes from: settled (actual), terms (quoted before settlement) or none', (r) => r.processing_fee_source),
    bps('processing_fee_bps', 'processing fee rate of the terms in basis points (100 = 1 %)', (r) => r.processing_fee_bps),
    baseAmount<PaymentRow>('processing_fee_terms', 'processing fee quoted in the terms', (r) => r.processing_fee_terms_base, cur),
    baseAmount<PaymentRow>('processing_fee_settled', 'processing fee actually settled', (r) => r.processing_fee_settled_base, cur),
    baseAmount<PaymentRow>('processing_fee_diff', 'settled − terms, when both are known', (r) => r.processing_fee_diff_base, cur),
    baseAmount<PaymentRow>('max_fee', 'fee ceiling of a send', (r) => r.max_fee_base, cur),
    baseAmount<PaymentRow>('reported_fees', 'total fees as the service reports them (data.fees)', (r) => r.reported_fees_base, cur),
    text('quote_rate', 'quote rate verbatim: <coefficient>e<scale> = coefficient / 10^scale base units of quote_to per 1 BTC', (r) => r.quote_rate),
    decimal('quote_rate_per_btc', 'the quote rate in display units of quote_to per 1 BTC (exact)', quoteRate),
    code('quote_from', 'currency the quote converts from', (r) => r.quote_from),
    code('quote_to', 'currency the quote converts to', (r) => r.quote_to),
    code('rail_currency', 'currency of the Bitcoin rail amounts (cross-currency payments)', (r) => r.rail_currency),
    baseAmount<PaymentRow>('rail_amount', 'amount on the Bitcoin rail', (r) => r.rail_amount_base, (r) => r.rail_currency),
    baseAmount<PaymentRow>('rail_fee', 'fee on the Bitcoin rail', (r) => r.rail_fee_base, (r) => r.rail_currency),
    list('ledger_ids', 'ledger ids of receipts/outflows/exchanges (join to ledger.csv entry_id)', (r) => r.ledger_ids),
    list('tx_ids', 'on-chain transaction ids', (r) => r.tx_ids),
    list('payment_hashes', 'Lightning payment hashes', (r) => r.payment_hashes),
    list('swap_steps', 'swap steps in the order reported', (r) => r.swap_steps),
    list('offset_payment_ids', 'payments this one offsets', (r) => r.offset_payment_ids),
    code('error_type', 'error type of a failed payment', (r) => r.error_type),
    code('error_code', 'error code of a failed payment', (r) => r.error_code),
    text('error_detail', 'error detail of a failed payment', (r) => r.error_detail, 40),
    json('metadata', 'metadata key/values as JSON text', (r) => r.metadata),
    list('flags', 'quirks met while normalizing (legacy field used, unknown value, ...)', (r) => r.flags),
  ],
};
