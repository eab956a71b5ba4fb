/**
 * The parts of a wire payment that carry money, each read on its own: the deprecated msat/sat
 * twins of the Amount objects, a USD batch's transfers, the exchanges of a cross-currency payment,
 * the settled fee breakdown and the fee terms at approval. payment.ts puts them together.
 */
import { satsToMsats } from '../money/units.js';
import { readAmount, type WireMoney } from './amount.js';
import type { Flags } from './flags.js';
import { EXCHANGE_FIELDS, PAYMENT_BREAKDOWN_FIELDS, PROCESSING_FEE_TERMS_FIELDS, USD_TRANSFER_FIELDS } from './known-fields.js';
import { inCurrency, readTaggedQuote, type PaymentQuote } from './quote.js';
import { asObject, at, flagUnknownFields, index, isAbsent, pushUnique, readArray, readCount, readLegacyInteger, type WireObject } from './read.js';

export interface LegacyAmounts {
  amount?: LegacyValue;
  maxFee?: LegacyValue;
  fee?: LegacyValue;
}

export interface LegacyValue {
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
export function readLegacyAmounts(data: WireObject, flags: Flags): LegacyAmounts {
  const msats = (key: string): LegacyValue | undefined => {
    const value = readLegacyInteger(data, key, 'data', flags);
    return value === undefined ? undefined : { value, path: at('data', key), tolerance: 0n };
  };
  const sats = (key: string): LegacyValue | undefined => {
    const value = readLegacyInteger(data, key, 'data', flags);
    return value === undefined ? undefined : { value: value === null ? null : satsToMsats(value), path: at('data', key), tolerance: 999n };
  };
  const result: LegacyAmounts = {};
  const amount = msats('amount_msats') ?? sats('amount_sats') ?? msats('btc_amount');
  const maxFee = msats('max_fee_msats') ?? sats('max_fee_sats');
  const fee = msats('fee_msats') ?? sats('fee_sats');
  if (amount) result.amount = amount;
  if (maxFee) result.maxFee = maxFee;
  if (fee) result.fee = fee;
  return result;
}

/** A `usdbatch` payment's amount: Σ of its ACH transfers, in cents (OpenAPI `UsdPayment.amount`). */
export function usdBatchAmount(data: WireObject, flags: Flags): WireMoney | undefined {
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

export interface Exchanges {
  quote: PaymentQuote | null;
  quoteId: string | null;
  ledgerIds: string[];
  /** Σ of the BTC side of every exchange; null when any exchange has no BTC side */
  btcMsats: bigint | null;
}

export function readExchanges(p: WireObject, flags: Flags): Exchanges {
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

export function readBreakdown(p: WireObject, target: string | null, quote: PaymentQuote | null, flags: Flags): { principal: bigint | null; network: bigint | null; processing: bigint | null } | null {
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

export function readTerms(p: WireObject, target: string | null, quote: PaymentQuote | null, flags: Flags): { bps: number | null; amount: bigint | null } | null {
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
