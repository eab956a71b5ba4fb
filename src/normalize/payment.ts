/**
 * Wire Payment → PaymentRow. Pure and total: any input gives a row; every quirk met is a flag.
 * The money rules are in fees.ts and docs/reconciliation.md.
 */
import { PAYMENT_CATEGORIES, PAYMENT_DIRECTIONS, PAYMENT_KINDS, PAYMENT_ROUTES, PAYMENT_STATUSES } from '../api/wire/enums.js';
import { msatsToQuoted } from '../money/rate.js';
import { satsToMsats, unitOf } from '../money/units.js';
import { preferModern, readAmount, readCurrency, type WireMoney } from './amount.js';
import { computeFees } from './fees.js';
import { Flags, token } from './flags.js';
import {
  EXCHANGE_FIELDS,
  PAYMENT_BREAKDOWN_FIELDS,
  PAYMENT_DATA_FIELDS,
  PAYMENT_ERROR_FIELDS,
  PAYMENT_FIELDS,
  PROCESSING_FEE_TERMS_FIELDS,
  USD_TRANSFER_FIELDS,
} from './known-fields.js';
import { CONVERSION_ROUNDING, inCurrency, quotedCurrency, readQuoteDetail, readTaggedQuote, type PaymentQuote } from './quote.js';
import {
  asObject,
  at,
  flagUnknownFields,
  index,
  isAbsent,
  pushUnique,
  readArray,
  readCount,
  readInstant,
  readLegacyInteger,
  readString,
  readStringMap,
  type WireObject,
} from './read.js';
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

  let data = asObject(p['data']);
  if (!data) {
    flags.add(isAbsent(p['data']) ? 'missing_field' : 'malformed_value', 'data');
    data = {};
  }
  flagUnknownFields(data, PAYMENT_DATA_FIELDS, 'data', flags);

  // --- references and the quote --------------------------------------------------------------
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
  const target = currency === '' ? null : currency;

  // --- amounts: the Amount objects, their deprecated twins, the receipts ----------------------
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

  const fees = computeFees(
    { direction, category, kind, status_class, amount, breakdown, terms, reported_fees: reportedFees },
    flags,
  );

  // --- cross-currency: the BTC rail beside the wallet-currency figures ------------------------
  let rail_currency: string | null = null;
  let rail_amount_base: bigint | null = null;
  let rail_fee_base: bigint | null = null;
  let quote_principal_base: bigint | null = null;
  if (!btcPayment && currency !== '') {
    rail_amount_base =
      legacy.amount?.value ?? refs.receipts_msats ?? exchanges.btcMsats ?? (modernAmount?.currency === 'btc' ? modernAmount.base : null);
    rail_fee_base = legacy.fee?.value ?? null;
    if (rail_amount_base !== null || rail_fee_base !== null) rail_currency = 'btc';
    if (rail_amount_base !== null && quote?.rate && quotedCurrency(quote) === currency) {
      quote_principal_base = msatsToQuoted(rail_amount_base, quote.rate, CONVERSION_ROUNDING);
    }
  }

  const requested_amount_base =
    direction === 'receive' ? (inCurrency(readAmount(p['requested_amount'], 'requested_amount', flags), target, quote, 'requested_amount', flags) ?? null) : null;

  const frozen = p['frozen'];
  if (Array.isArray(frozen) && frozen.length > 0) flags.add('frozen_funds');

  const error = readError(p, flags);

  return {
    payment_id,
    organization_id,
    environment_id,
    wallet_id,
    direction: directionText,
    kind,
    category,
    route,
    status,
    status_class,
    created_at,
    updated_at,
    currency,
    unit: unitOf(currency),
    ...fees,
    max_fee_base,
    reported_fees_base: reportedFees ?? null,
    quote_rate: quote?.rateText ?? null,
    quote_from: quote?.from ?? null,
    quote_to: quote?.to ?? null,
    rail_currency,
    rail_amount_base,
    rail_fee_base,
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
    quote_principal_base,
    description: firstString(data, ['memo', 'description', 'label']),
    metadata: readStringMap(p, 'metadata', '', flags),
    flags: flags.toArray(),
    raw,
  };
}

/** A scope id from the record, or the context's when the record omits it; a disagreement is flagged. */
function fromContext(p: WireObject, key: string, fallback: string, flags: Flags): string {
  const value = readString(p, key, '', flags);
  if (value === null) return fallback;
  if (fallback !== '' && value !== fallback) flags.add('context_mismatch', key);
  return value;
}

interface LegacyValue {
  /** msats (whole-sat fields already multiplied by 1,000); null = malformed */
  value: bigint | null;
  path: string;
  /** how far a whole-sat field may sit from the msat Amount and still agree: < 1 sat */
  tolerance: bigint;
}

/**
 * The deprecated fields: Lightning/BIP21 `amount_msats`, `max_fee_msats`, `fee_msats` in msats;
 * on-chain `amount_sats`, `max_fee_sats`, `fee_sats` in WHOLE sats; a taproot-asset receive's
 * `btc_amount` in msats.
 */
function readLegacyAmounts(data: WireObject, flags: Flags): { amount?: LegacyValue; maxFee?: LegacyValue; fee?: LegacyValue } {
  const msats = (key: string): LegacyValue | undefined => {
    const value = readLegacyInteger(data, key, 'data', flags);
    return value === undefined ? undefined : { value, path: at('data', key), tolerance: 0n };
  };
  const sats = (key: string): LegacyValue | undefined => {
    const value = readLegacyInteger(data, key, 'data', flags);
    return value === undefined ? undefined : { value: value === null ? null : satsToMsats(value), path: at('data', key), tolerance: 999n };
  };
  const result: { amount?: LegacyValue; maxFee?: LegacyValue; fee?: LegacyValue } = {};
  const amount = msats('amount_msats') ?? sats('amount_sats') ?? msats('btc_amount');
  const maxFee = msats('max_fee_msats') ?? sats('max_fee_sats');
  const fee = msats('fee_msats') ?? sats('fee_sats');
  if (amount) result.amount = amount;
  if (maxFee) result.maxFee = maxFee;
  if (fee) result.fee = fee;
  return result;
}

/** A `usdbatch` payment's amount: Σ of its ACH transfers, in cents (OpenAPI `UsdPayment.amount`). */
function usdBatchAmount(data: WireObject, flags: Flags): WireMoney | undefined {
  const transfers = data['payments'];
  if (!Array.isArray(transfers)) {
    flags.add('missing_field', 'data.payments');
    return undefined;
  }
  let total = 0n;
  let ok = true;
  transfers.forEach((transfer, i) => {
    const path = index('data.payments', i);
    const t = asObject(transfer);
    if (!t) {
      flags.add('malformed_value', path);
      ok = false;
      return;
    }
    flagUnknownFields(t, USD_TRANSFER_FIELDS, path, flags);
    const cents = readLegacyInteger(t, 'amount', path, flags);
    if (cents === undefined) flags.add('missing_field', at(path, 'amount'));
    if (cents === undefined || cents === null) ok = false;
    else total += cents;
  });
  return { currency: 'usd', base: ok ? total : null };
}

interface Exchanges {
  quote: PaymentQuote | null;
  quoteId: string | null;
  ledgerIds: string[];
  /** Σ of the BTC side of every exchange; null when any exchange has no BTC side */
  btcMsats: bigint | null;
}

function readExchanges(p: WireObject, flags: Flags): Exchanges {
  const out: Exchanges = { quote: null, quoteId: null, ledgerIds: [], btcMsats: null };
  const items = readArray(p, 'exchanges', '', flags);
  let btc = 0n;
  let complete = items.length > 0;
  items.forEach((item, i) => {
    const path = index('exchanges', i);
    const e = asObject(item);
    if (!e) {
      flags.add('malformed_value', path);
      complete = false;
      return;
    }
    flagUnknownFields(e, EXCHANGE_FIELDS, path, flags);
    pushUnique(out.ledgerIds, e['ledger_id']);
    if (out.quoteId === null && typeof e['quote_id'] === 'string') out.quoteId = e['quote_id'];
    const quote = readTaggedQuote(e['quote'], at(path, 'quote'), flags);
    if (out.quote === null) out.quote = quote;
    const from = readAmount(e['from_amount'], at(path, 'from_amount'), flags);
    const to = readAmount(e['to_amount'], at(path, 'to_amount'), flags);
    const side = from?.currency === 'btc' ? from : to?.currency === 'btc' ? to : undefined;
    if (side?.base === null || side === undefined) complete = false;
    else btc += side.base;
  });
  if (complete) out.btcMsats = btc;
  return out;
}

function readBreakdown(p: WireObject, target: string | null, quote: PaymentQuote | null, flags: Flags): { principal: bigint | null; network: bigint | null; processing: bigint | null } | null {
  const value = p['payment_breakdown'];
  if (isAbsent(value)) return null;
  const b = asObject(value);
  if (!b) {
    // Present but unreadable: the settled fee exists and is unknown — not "no fee".
    flags.add('malformed_value', 'payment_breakdown');
    return { principal: null, network: null, processing: null };
  }
  flagUnknownFields(b, PAYMENT_BREAKDOWN_FIELDS, 'payment_breakdown', flags);
  const part = (key: string): bigint | null => {
    const path = at('payment_breakdown', key);
    const amount = readAmount(b[key], path, flags);
    if (amount === undefined) flags.add('missing_field', path);
    const base = inCurrency(amount, target, quote, path, flags) ?? null;
    if (base !== null && base < 0n) flags.add('negative_amount', path);
    return base;
  };
  return { principal: part('principal'), network: part('network_fee'), processing: part('processing_fee') };
}

function readTerms(p: WireObject, target: string | null, quote: PaymentQuote | null, flags: Flags): { bps: number | null; amount: bigint | null } | null {
  const value = p['processing_fee'];
  if (isAbsent(value)) return null;
  const t = asObject(value);
  if (!t) {
    flags.add('malformed_value', 'processing_fee');
    return { bps: null, amount: null };
  }
  flagUnknownFields(t, PROCESSING_FEE_TERMS_FIELDS, 'processing_fee', flags);
  const bps = readCount(t, 'basis_points', 'processing_fee', flags, { min: 0n, max: 10_000n }, true);
  const amount = readAmount(t['amount'], 'processing_fee.amount', flags);
  if (amount === undefined) flags.add('missing_field', 'processing_fee.amount');
  // The terms are "in the principal's assessment currency", which for a USD wallet paying a BTC
  // invoice is BTC: converted at the payment's quote (flagged), or unknown without one.
  const base = inCurrency(amount, target, quote, 'processing_fee.amount', flags) ?? null;
  return { bps: bps === null ? null : Number(bps), amount: base };
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
