/**
 * Wire ledger event → LedgerRow. Both shapes (docs/service-facts.md#ledger-events): the modern `amount`
 * Amount object, and older records' `amount_msats` + `currency`.
 */
import type { LEDGER_EVENT_TYPES } from '../api/wire/ledger.js';
import { unitOf } from '../money/units.js';
import { preferModern, readAmount, readCurrency, type WireMoney } from './amount.js';
import { Flags, token } from './flags.js';
import { LEDGER_EVENT_FIELDS, LEDGER_PROCESSING_FEE_FIELDS, PAYMENT_BREAKDOWN_FIELDS } from './known-fields.js';
import { asObject, at, flagUnknownFields, isAbsent, readCount, readInstant, readLegacyInteger, readString, type WireObject } from './read.js';
import type { LedgerEffect, LedgerRow } from '../model/rows.js';

/** Ledger events carry no wallet, environment or organization: the wallet they were listed under. */
export interface LedgerContext {
  organization_id: string;
  environment_id: string;
  wallet_id: string;
}

type EventType = (typeof LEDGER_EVENT_TYPES)[number];

/** Which id names the entry: captures, holds and releases share their hold's id. */
const ENTRY_ID: Readonly<Record<EventType, string>> = {
  credited: 'credit_id',
  captured: 'hold_id',
  held: 'hold_id',
  released: 'hold_id',
  deposited: 'deposit_id',
  withdrawn: 'withdraw_id',
};

/**
 * Effect on the wallet's total balance. A hold reserves funds and a release returns them: both
 * only move `available`. The capture is the debit (its amount is the total debited: principal +
 * network + processing); a credit's amount is the net credited.
 */
export const LEDGER_EFFECT: Readonly<Record<EventType, LedgerEffect>> = {
  credited: 'credit',
  deposited: 'credit',
  captured: 'debit',
  withdrawn: 'debit',
  held: 'memo',
  released: 'memo',
};

const WITH_PAYMENT: ReadonlySet<string> = new Set(['credited', 'captured', 'held', 'released']);

function isEventType(value: string): value is EventType {
  return Object.hasOwn(ENTRY_ID, value);
}

export function normalizeLedgerEvent(raw: unknown, ctx: LedgerContext): LedgerRow {
  const flags = new Flags();
  let e = asObject(raw);
  if (!e) {
    flags.add('malformed_value', 'ledger_event');
    e = {};
  }
  flagUnknownFields(e, LEDGER_EVENT_FIELDS, '', flags);

  const type = readString(e, 'type', '', flags, true) ?? '';
  const known = isEventType(type);
  if (!known && type !== '') flags.add('unknown_entry_type', token(type));

  const entry_id = known ? (readString(e, ENTRY_ID[type], '', flags, true) ?? '') : firstId(e);
  const payment_id = readString(e, 'payment_id', '', flags, WITH_PAYMENT.has(type));
  const effective_time = readInstant(e, 'effective_time', '', flags, true) ?? '';

  const { currency, base } = readEventAmount(e, type, flags);
  if (base !== null && base < 0n) flags.add('negative_amount', 'amount');

  const effect: LedgerEffect = known ? LEDGER_EFFECT[type] : 'memo';
  const breakdown = readEventBreakdown(e, currency, flags);

  return {
    entry_id,
    entry_type: type,
    wallet_id: ctx.wallet_id,
    environment_id: ctx.environment_id,
    organization_id: ctx.organization_id,
    payment_id,
    effective_time,
    currency: currency ?? '',
    unit: unitOf(currency ?? ''),
    amount_base: base,
    effect,
    // Unknown (null) amounts add nothing here and are flagged; the roll-forward reports them.
    balance_effect_base: base === null ? 0n : effect === 'credit' ? base : effect === 'debit' ? -base : 0n,
    principal_base: breakdown.principal,
    network_fee_base: breakdown.network,
    processing_fee_base: breakdown.processing,
    processing_fee_bps: breakdown.bps,
    flags: flags.toArray(),
    raw,
  };
}

/** An unknown event type's own id: a known id key, else the first `*_id` that is not the payment's. */
function firstId(e: WireObject): string {
  const keys = ['credit_id', 'hold_id', 'deposit_id', 'withdraw_id', 'id', ...Object.keys(e).filter((k) => k.endsWith('_id') && k !== 'payment_id').sort()];
  for (const key of keys) {
    const value = e[key];
    if (typeof value === 'string' && value !== '') return value;
  }
  return '';
}

function readEventAmount(e: WireObject, type: string, flags: Flags): WireMoney {
  const stated = readCurrency(e['currency'], 'currency', flags, false);
  if (type === 'released') {
    // A release names only its currency: it returns the hold to `available`, the total is untouched.
    if (stated === null) flags.add('missing_field', 'currency');
    return { currency: stated, base: null };
  }
  const modern = readAmount(e['amount'], 'amount', flags);
  const legacyMsats = readLegacyInteger(e, 'amount_msats', '', flags);
  if (modern !== undefined) {
    if (stated !== null && modern.currency !== null && stated !== modern.currency) flags.add('currency_mismatch', 'currency');
    // Both shapes on one record: the Amount object wins, a disagreement is flagged.
    if (legacyMsats !== undefined && modern.currency === 'btc') preferModern(modern.base, legacyMsats, 'amount_msats', 0n, flags);
    return modern;
  }
  if (legacyMsats !== undefined) {
    // Older records: `amount_msats` + `currency` (docs/service-facts.md#ledger-events). Millisatoshis only mean something for btc;
    // a legacy record in another currency is not guessed at.
    flags.add('legacy_amount', 'amount_msats');
    if (stated === null) {
      flags.add('missing_field', 'currency');
      return { currency: null, base: null };
    }
    if (stated !== 'btc') {
      flags.add('currency_mismatch', 'amount_msats');
      return { currency: stated, base: null };
    }
    return { currency: stated, base: legacyMsats };
  }
  flags.add('missing_field', 'amount');
  return { currency: stated, base: null };
}

interface EventBreakdown {
  principal: bigint | null;
  network: bigint | null;
  processing: bigint | null;
  bps: number | null;
}

function readEventBreakdown(e: WireObject, currency: string | null, flags: Flags): EventBreakdown {
  const none: EventBreakdown = { principal: null, network: null, processing: null, bps: null };
  const value = e['payment_breakdown'];
  if (isAbsent(value)) return none; // "Omitted for historical entries"
  const b = asObject(value);
  if (!b) {
    flags.add('malformed_value', 'payment_breakdown');
    return none;
  }
  flagUnknownFields(b, PAYMENT_BREAKDOWN_FIELDS, 'payment_breakdown', flags);
  // "All amounts use the same settlement currency" (OpenAPI WalletPaymentBreakdown): the entry's.
  const sameCurrency = (amount: WireMoney | undefined, path: string): bigint | null => {
    if (amount === undefined) {
      flags.add('missing_field', path);
      return null;
    }
    if (amount.currency !== null && currency !== null && amount.currency !== currency) {
      flags.add('currency_mismatch', path);
      return null;
    }
    return amount.base;
  };
  let processing: bigint | null = null;
  let bps: number | null = null;
  const fee = asObject(b['processing_fee']);
  const feePath = 'payment_breakdown.processing_fee';
  if (fee) {
    flagUnknownFields(fee, LEDGER_PROCESSING_FEE_FIELDS, feePath, flags);
    processing = sameCurrency(readAmount(fee['amount'], at(feePath, 'amount'), flags), at(feePath, 'amount'));
    const points = readCount(fee, 'basis_points', feePath, flags, { min: 0n, max: 10_000n }, true);
    bps = points === null ? null : Number(points);
  } else {
    flags.add(isAbsent(b['processing_fee']) ? 'missing_field' : 'malformed_value', feePath);
  }
  return {
    principal: sameCurrency(readAmount(b['principal'], 'payment_breakdown.principal', flags), 'payment_breakdown.principal'),
    network: sameCurrency(readAmount(b['network_fee'], 'payment_breakdown.network_fee', flags), 'payment_breakdown.network_fee'),
    processing,
    bps,
  };
}
