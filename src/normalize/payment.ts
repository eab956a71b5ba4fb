/**
 * Wire Payment → PaymentRow. Pure and total: any input gives a row; every quirk met is a flag.
 * The money rules are in fees.ts and docs/reconciliation.md.
 */
import { PAYMENT_CATEGORIES, PAYMENT_DIRECTIONS, PAYMENT_KINDS, PAYMENT_ROUTES, PAYMENT_STATUSES } from '../api/wire/enums.js';
import { msatsToQuoted } from '../money/rate.js';
import { unitOf } from '../money/units.js';
import { preferModern, readAmount, readCurrency, type WireMoney } from './amount.js';
import { computeFees } from './fees.js';
import { Flags, token } from './flags.js';
import { PAYMENT_DATA_FIELDS, PAYMENT_ERROR_FIELDS, PAYMENT_FIELDS } from './known-fields.js';
import { readBreakdown, readExchanges, readLegacyAmounts, readTerms, usdBatchAmount, type Exchanges, type LegacyAmounts, type LegacyValue } from './payment-amounts.js';
import { CONVERSION_ROUNDING, inCurrency, quotedCurrency, readQuoteDetail, readTaggedQuote, type PaymentQuote } from './quote.js';
import { asObject, flagUnknownFields, isAbsent, pushUnique, readArray, readInstant, readString, readStringMap, type WireObject } from './read.js';
import { collectReceipts, emptyReferences } from './references.js';
import type { PaymentRow, StatusClass } from '../model/rows.js';

/** Where the record was listed: fills fields an old record omits, and catches a record that names another scope. */
export interface PaymentContext {
  organization_id: string;
  environment_id: string;
}

const KINDS: ReadonlySet<string> = new Set(PAYMENT_KINDS);
const CATEGORIES: ReadonlySet<string> = new Set(PAYMENT_CATEGORIES);
const ROUTES: ReadonlySet<string> = new Set(PAYMENT_ROUTES);
const STATUSES: ReadonlySet<string> = new Set(PAYMENT_STATUSES);

/**
 * `approved` is terminal only for a policy check, which moves no money; model/rows.ts keeps it open.
 * `expired` is a receive that was never paid: failed for accounting.
 */
const STATUS_CLASS: Readonly<Record<string, StatusClass>> = {
  completed: 'completed',
  failed: 'failed',
  expired: 'failed',
  sending: 'open',
  approved: 'open',
  generating: 'open',
  receiving: 'open',
};

export function normalizePayment(raw: unknown, ctx: PaymentContext): PaymentRow {
  const flags = new Flags();
  let p = asObject(raw);
  if (!p) {
    flags.add('malformed_value', 'payment');
    p = {};
  }
  flagUnknownFields(p, PAYMENT_FIELDS, '', flags);
  // the parts are read in the record's order, so its flags come out in the same order every time
  const head = readHead(p, ctx, flags);
  let data = asObject(p['data']);
  if (!data) {
    flags.add(isAbsent(p['data']) ? 'missing_field' : 'malformed_value', 'data');
    data = {};
  }
  flagUnknownFields(data, PAYMENT_DATA_FIELDS, 'data', flags);
  const { refs, exchanges, quote } = readReferencesAndQuote(p, data, flags);
  const money = readMoney(p, data, head, { refs, quote }, flags);
  const fees = computeFees(
    { direction: head.direction, category: head.category, kind: head.kind, status_class: head.status_class, amount: money.amount, breakdown: money.breakdown, terms: money.terms, reported_fees: money.reportedFees },
    flags,
  );
  const rail = readRail(head.currency, money, { refs, exchanges, quote });
  const requested_amount_base =
    head.direction === 'receive' ? (inCurrency(readAmount(p['requested_amount'], 'requested_amount', flags), money.target, quote, 'requested_amount', flags) ?? null) : null;
  const frozen = p['frozen'];
  if (Array.isArray(frozen) && frozen.length > 0) flags.add('frozen_funds');
  const error = readError(p, flags);
  return {
    payment_id: head.payment_id,
    organization_id: head.organization_id,
    environment_id: head.environment_id,
    wallet_id: head.wallet_id,
    direction: head.directionText,
    kind: head.kind,
    category: head.category,
    route: head.route,
    status: head.status,
    status_class: head.status_class,
    created_at: head.created_at,
    updated_at: head.updated_at,
    currency: head.currency,
    unit: unitOf(head.currency),
    ...fees,
    max_fee_base: money.max_fee_base,
    reported_fees_base: money.reportedFees ?? null,
    quote_rate: quote?.rateText ?? null,
    quote_from: quote?.from ?? null,
    quote_to: quote?.to ?? null,
    rail_currency: rail.rail_currency,
    rail_amount_base: rail.rail_amount_base,
    rail_fee_base: rail.rail_fee_base,
    ledger_ids: refs.ledger_ids,
    tx_ids: refs.tx_ids,
    payment_hashes: refs.payment_hashes,
    swap_steps: refs.swap_steps,
    offset_payment_ids: refs.offset_payment_ids,
    error_type: error.type,
    error_code: error.code,
    error_detail: error.detail,
    requested_amount_base,
    quote_id: quote?.quoteId ?? exchanges.quoteId,
    quote_principal_base: rail.quote_principal_base,
    description: firstString(data, ['memo', 'description', 'label']),
    metadata: readStringMap(p, 'metadata', '', flags),
    flags: flags.toArray(),
    raw,
  };
}

/** Who, what and when: the identity, the classification, the times and the currency of a record. */
interface PaymentHead {
  payment_id: string;
  wallet_id: string;
  organization_id: string;
  environment_id: string;
  directionText: string;
  direction: 'send' | 'receive' | null;
  kind: string;
  category: string;
  route: string | null;
  status: string;
  status_class: StatusClass;
  created_at: string;
  updated_at: string;
  currency: string;
}

function readHead(p: WireObject, ctx: PaymentContext, flags: Flags): PaymentHead {
  const payment_id = readString(p, 'id', '', flags, true) ?? '';
  const wallet_id = readString(p, 'wallet_id', '', flags, true) ?? '';
  const organization_id = fromContext(p, 'organization_id', ctx.organization_id, flags);
  const environment_id = fromContext(p, 'environment_id', ctx.environment_id, flags);

  const directionText = readString(p, 'direction', '', flags, true) ?? '';
  const direction = (PAYMENT_DIRECTIONS as readonly string[]).includes(directionText) ? (directionText as 'send' | 'receive') : null;
  if (direction === null && directionText !== '') flags.add('unknown_direction', token(directionText));

  const kind = readString(p, 'type', '', flags, true) ?? '';
  if (kind !== '' && !KINDS.has(kind)) flags.add('unknown_kind', token(kind));

  let category = readString(p, 'payment_category', '', flags) ?? '';
  if (category === '') {
    // Older records predate treasury movements: they are standard payments.
    category = 'standard';
    flags.add('missing_category');
  } else if (!CATEGORIES.has(category)) {
    flags.add('unknown_category', token(category));
  }

  let route: string | null = null;
  if (direction === 'send') {
    route = readString(p, 'route', '', flags);
    if (route !== null && !ROUTES.has(route)) flags.add('unknown_route', token(route));
  }

  const status = readString(p, 'status', '', flags, true) ?? '';
  let status_class: StatusClass = STATUS_CLASS[status] ?? 'unknown';
  if (status !== '' && !STATUSES.has(status)) {
    // The service adds statuses without notice (docs/service-facts.md#states-and-transitions): keep the value, flag it, classify unknown.
    flags.add('unknown_status', token(status));
    status_class = 'unknown';
  }

  const created_at = readInstant(p, 'created_at', '', flags, true) ?? '';
  const updated_at = readInstant(p, 'updated_at', '', flags, true) ?? '';
  const currency = readCurrency(p['currency'], 'currency', flags) ?? '';
  return { payment_id, wallet_id, organization_id, environment_id, directionText, direction, kind, category, route, status, status_class, created_at, updated_at, currency };
}

interface ReferencesAndQuote {
  refs: ReturnType<typeof emptyReferences>;
  exchanges: Exchanges;
  quote: PaymentQuote | null;
}

/** The receipts' and exchanges' references, and the quote that converts between the rail and the wallet's currency. */
function readReferencesAndQuote(p: WireObject, data: WireObject, flags: Flags): ReferencesAndQuote {
  const refs = emptyReferences();
  collectReceipts(readArray(data, 'outflows', 'data', flags), 'data.outflows', refs, flags);
  collectReceipts(readArray(data, 'receipts', 'data', flags), 'data.receipts', refs, flags);
  const exchanges = readExchanges(p, flags);
  for (const id of exchanges.ledgerIds) pushUnique(refs.ledger_ids, id);
  const quote =
    readQuoteDetail(data['market_quote'], 'data.market_quote', flags, false) ??
    exchanges.quote ??
    readTaggedQuote(data['quote'], 'data.quote', flags) ??
    readQuoteDetail(data['peer_quote'], 'data.peer_quote', flags, true);
  if (quote && quote.quoteId === null) quote.quoteId = exchanges.quoteId;
  return { refs, exchanges, quote };
}

interface PaymentMoney {
  /** the payment's currency, or null when it has none */
  target: string | null;
  legacy: LegacyAmounts;
  modernAmount: WireMoney | undefined;
  amount: bigint | null;
  max_fee_base: bigint | null;
  reportedFees: bigint | null | undefined;
  breakdown: ReturnType<typeof readBreakdown>;
  terms: ReturnType<typeof readTerms>;
}

/** The amounts: the Amount objects, their deprecated twins, the receipts, the breakdown and the fee terms. */
function readMoney(p: WireObject, data: WireObject, head: PaymentHead, read: Pick<ReferencesAndQuote, 'refs' | 'quote'>, flags: Flags): PaymentMoney {
  const { refs, quote } = read;
  const { currency, kind } = head;
  const target = currency === '' ? null : currency;
  const legacy = readLegacyAmounts(data, flags);
  const btcPayment = currency === 'btc';
  const modernAmount = kind === 'usdbatch' ? usdBatchAmount(data, flags) : readAmount(data['amount'], 'data.amount', flags);
  const amountInCurrency = inCurrency(modernAmount, target, quote, 'data.amount', flags);
  // The deprecated msat/sat fields are always Bitcoin values: on a BTC payment they are the same
  // figure as the Amount object; on a USD (cross-currency) payment they are the BTC rail (docs/service-facts.md#cross-currency-payments).
  // An older cross-currency record with only the BTC fields: converted at its quote (flagged), when it has one.
  const fromRail = (value: LegacyValue | undefined): bigint | null | undefined =>
    btcPayment || value === undefined || value.value === null || !quote?.rate ? undefined : inCurrency({ currency: 'btc', base: value.value }, target, quote, value.path, flags);
  let amount = btcPayment
    ? preferModern(amountInCurrency, legacy.amount?.value, legacy.amount?.path ?? '', legacy.amount?.tolerance ?? 0n, flags)
    : (amountInCurrency ?? fromRail(legacy.amount) ?? null);
  if (amount === null && btcPayment && modernAmount === undefined && legacy.amount === undefined && refs.receipts_msats !== null) {
    amount = refs.receipts_msats;
    flags.add('principal_from_receipts');
  }
  if (amount !== null && amount < 0n) flags.add('negative_amount', 'data.amount');

  const maxFeeModern = inCurrency(readAmount(data['max_fee'], 'data.max_fee', flags), target, quote, 'data.max_fee', flags);
  const max_fee_base = btcPayment
    ? preferModern(maxFeeModern, legacy.maxFee?.value, legacy.maxFee?.path ?? '', legacy.maxFee?.tolerance ?? 0n, flags)
    : (maxFeeModern ?? fromRail(legacy.maxFee) ?? null);

  const feesModern = inCurrency(readAmount(data['fees'], 'data.fees', flags), target, quote, 'data.fees', flags);
  let reportedFees: bigint | null | undefined = feesModern ?? fromRail(legacy.fee);
  if (btcPayment && (feesModern !== undefined || legacy.fee !== undefined)) {
    reportedFees = preferModern(feesModern, legacy.fee?.value, legacy.fee?.path ?? '', legacy.fee?.tolerance ?? 0n, flags);
  }
  const breakdown = readBreakdown(p, target, quote, flags);
  const terms = readTerms(p, target, quote, flags);
  return { target, legacy, modernAmount, amount, max_fee_base, reportedFees, breakdown, terms };
}

/** Cross-currency: the BTC rail beside the wallet-currency figures (all null on a BTC payment). */
function readRail(currency: string, money: PaymentMoney, read: ReferencesAndQuote): Pick<PaymentRow, 'rail_currency' | 'rail_amount_base' | 'rail_fee_base' | 'quote_principal_base'> {
  const none = { rail_currency: null, rail_amount_base: null, rail_fee_base: null, quote_principal_base: null };
  if (currency === 'btc' || currency === '') return none;
  const { legacy, modernAmount } = money;
  const { refs, exchanges, quote } = read;
  const rail_amount_base = legacy.amount?.value ?? refs.receipts_msats ?? exchanges.btcMsats ?? (modernAmount?.currency === 'btc' ? modernAmount.base : null);
  const rail_fee_base = legacy.fee?.value ?? null;
  const rail_currency = rail_amount_base !== null || rail_fee_base !== null ? 'btc' : null;
  const quote_principal_base = rail_amount_base !== null && quote?.rate && quotedCurrency(quote) === currency ? msatsToQuoted(rail_amount_base, quote.rate, CONVERSION_ROUNDING) : null;
  return { rail_currency, rail_amount_base, rail_fee_base, quote_principal_base };
}

/** A scope id from the record, or the context's when the record omits it; a disagreement is flagged. */
function fromContext(p: WireObject, key: string, fallback: string, flags: Flags): string {
  const value = readString(p, key, '', flags);
  if (value === null) return fallback;
  if (fallback !== '' && value !== fallback) flags.add('context_mismatch', key);
  return value;
}

function readError(p: WireObject, flags: Flags): { type: string | null; code: string | null; detail: string | null } {
  const value = p['error'];
  if (isAbsent(value)) return { type: null, code: null, detail: null };
  const e = asObject(value);
  if (!e) {
    flags.add('malformed_value', 'error');
    return { type: null, code: null, detail: null };
  }
  flagUnknownFields(e, PAYMENT_ERROR_FIELDS, 'error', flags);
  return { type: readString(e, 'type', 'error', flags), code: readString(e, 'code', 'error', flags), detail: readString(e, 'detail', 'error', flags) };
}

function firstString(data: WireObject, keys: readonly string[]): string | null {
  for (const key of keys) {
    const value = data[key];
    if (typeof value === 'string') return value;
  }
  return null;
}
