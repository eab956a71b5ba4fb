/**
 * payments.csv / sheet "Payments": one row per payment created in the window
 * (docs/contracts.md#required-columns). Contract columns keep their names; the rest make the row
 * readable on its own (display amounts, both time columns, fee terms, references, free text).
 */
import type { PaymentRow } from '../../model/rows.js';
import { quoteRatePerBtc } from '../../money/rate-display.js';
import { displayScale } from '../../money/units.js';
import { decimal, displayCurrencyColumn, fieldColumns, walletName, type ColumnSpec, type SpecContext, type TableSpec } from '../../model/column-spec.js';

const cur = (r: PaymentRow): string => r.currency;
const railCurrency = (r: PaymentRow): string | null => r.rail_currency;

function quoteRate(r: PaymentRow, ctx: SpecContext): string | null {
  if (r.quote_rate === null || r.quote_to === null) return null;
  const scale = displayScale(r.quote_to.toLowerCase(), ctx.assetDecimals);
  return scale === null ? null : quoteRatePerBtc(r.quote_rate, scale);
}

// Each payment column once; the tables below only choose and order them.
const field = fieldColumns<PaymentRow>();
const paymentId = field.id('payment_id', 'payment UUID (client generated)');
const organizationId = field.id('organization_id', 'organization UUID');
const environmentId = field.id('environment_id', 'environment UUID');
const walletId = field.id('wallet_id', 'wallet UUID');
const direction = field.code('direction', 'send or receive');
const kind = field.code('kind', 'payment type / rail: bolt11, onchain, bip21, taprootasset, usdbatch');
const category = field.code('category', 'standard or treasury');
const route = field.code('route', 'sends: direct or swap; empty for receives');
const status = field.code('status', 'status as the service reports it');
const statusClass = field.code('status_class', 'completed, failed (incl. expired), open (not terminal) or unknown');
const [createdAt, createdAtUtc] = field.instant('created_at', 'when the payment was created');
const updatedAt = field.instant('updated_at', 'last change of the payment');
const currency = field.code('currency', 'wallet-side currency of the amounts: btc, usd or asset:<hex>');
const unit = field.code('unit', 'base unit of the *_base columns: msats, cents or base units');
const displayCurrency = displayCurrencyColumn<PaymentRow>(cur);
/** The four amounts a person reads first, as [base units, display units]. */
export const paymentPrincipal = field.amount('principal', 'amount sent or received, before fees', cur);
const [networkFeeBase, networkFee] = field.amount('network_fee', 'network / routing fee', cur);
const [processingFeeBase, processingFee] = field.amount('processing_fee', 'processing fee charged by the service', cur);
const [totalBase, total] = field.amount('total', 'amount debited (sends: principal + network + processing) or credited (receives)', cur);

/** Columns shared by payments.csv and open-items.csv. */
export function paymentIdentityColumns(): ColumnSpec<PaymentRow>[] {
  return [paymentId, organizationId, environmentId, walletId, direction, kind, category, route, status, statusClass, createdAt, createdAtUtc, ...updatedAt, currency, unit, displayCurrency];
}

/**
 * Column order is for a person reading the sheet: when, which wallet, which way, how it
 * ended, how much, the fees and the memo first; the ids, UTC times and exact base units after.
 */
export const PAYMENTS_TABLE: TableSpec<PaymentRow> = {
  id: 'payments',
  file: 'payments.csv',
  sheet: 'Payments',
  rowIs: 'payment created in the window',
  // printed one page across: when, which wallet, which way, how it ended and how much; the fees, the memo, ids, UTC times and base units stay on screen and in the CSV
  printColumns: ['created_at', 'wallet_name', 'direction', 'status', 'display_currency', 'principal', 'total'],
  columns: [
    { ...createdAt, width: 20 },
    walletName<PaymentRow>((r) => r.wallet_id),
    direction,
    status,
    displayCurrency,
    paymentPrincipal[1],
    networkFee,
    processingFee,
    total,
    field.text('description', 'memo / label / description from the payer or payee (free text)', 40),
    kind,
    category,
    route,
    statusClass,
    paymentId,
    walletId,
    organizationId,
    environmentId,
    createdAtUtc,
    ...updatedAt,
    currency,
    unit,
    paymentPrincipal[0],
    networkFeeBase,
    processingFeeBase,
    totalBase,
    field.code('processing_fee_source', 'where processing_fee comes from: settled (actual), terms (quoted before settlement) or none'),
    field.bps('processing_fee_bps', 'processing fee rate of the terms in basis points (100 = 1 %)'),
    field.baseAmount('processing_fee_terms', 'processing fee quoted in the terms', cur),
    field.baseAmount('processing_fee_settled', 'processing fee actually settled', cur),
    field.baseAmount('processing_fee_diff', 'settled − terms, when both are known', cur),
    field.baseAmount('max_fee', 'fee ceiling of a send', cur),
    field.baseAmount('reported_fees', 'total fees as the service reports them (data.fees)', cur),
    field.text('quote_rate', 'quote rate verbatim: <coefficient>e<scale> = coefficient / 10^scale base units of quote_to per 1 BTC'),
    decimal('quote_rate_per_btc', 'the quote rate in display units of quote_to per 1 BTC (exact)', quoteRate),
    field.code('quote_from', 'currency the quote converts from'),
    field.code('quote_to', 'currency the quote converts to'),
    field.code('rail_currency', 'currency of the Bitcoin rail amounts (cross-currency payments)'),
    field.baseAmount('rail_amount', 'amount on the Bitcoin rail', railCurrency),
    field.baseAmount('rail_fee', 'fee on the Bitcoin rail', railCurrency),
    field.list('ledger_ids', 'ledger ids of receipts/outflows/exchanges (join to ledger.csv entry_id)'),
    field.list('tx_ids', 'on-chain transaction ids'),
    field.list('payment_hashes', 'Lightning payment hashes'),
    field.list('swap_steps', 'swap steps in the order reported'),
    field.list('offset_payment_ids', 'payments this one offsets'),
    field.code('error_type', 'error type of a failed payment'),
    field.code('error_code', 'error code of a failed payment'),
    field.text('error_detail', 'error detail of a failed payment', 40),
    field.json('metadata', 'metadata key/values as JSON text'),
    field.list('flags', 'quirks met while normalizing (legacy field used, unknown value, ...)'),
  ],
};
