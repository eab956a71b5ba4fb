/**
 * Bills (OpenAPI `BillRead`) → BillRow + BillLineItemRow[], and `BillSummary` → BillSummaryRow.
 * Pure and total: every unreadable figure becomes null (unknown, never 0) with a flag; amounts go
 * through the same lossless Amount reader as payments (msats beyond 2^53 survive).
 */
import { unitOf } from '../money/units.js';
import { readAmount } from './amount.js';
import { Flags } from './flags.js';
import { asObject, at, index, readArray, readCount, readInstant, readString, WIRE_AMOUNT_MAX, type WireObject } from './read.js';
import type { BillLineItemRow, BillRecord, BillSummaryRow } from '../model/rows.js';

const COUNT = { min: 0n, max: WIRE_AMOUNT_MAX };

function money(value: unknown, path: string, flags: Flags, currency: { value: string | null }): bigint | null {
  const m = readAmount(value, path, flags);
  if (m === undefined) return null;
  if (currency.value === null) currency.value = m.currency;
  else if (m.currency !== null && m.currency !== currency.value) {
    flags.add('currency_mismatch', path);
    return null;
  }
  return m.base;
}

export function normalizeBill(raw: unknown): BillRecord {
  const flags = new Flags();
  const b: WireObject = asObject(raw) ?? {};
  if (!asObject(raw)) flags.add('malformed_value', 'bill');
  const invoice: WireObject = asObject(b['invoice']) ?? {};
  if (!asObject(b['invoice'])) flags.add('missing_field', 'invoice');
  const currency = { value: null as string | null };
  const amtDue = money(b['amt_due'], 'amt_due', flags, currency);
  const bill_id = readString(b, 'id', '', flags, true) ?? '';
  const organization_id = readString(b, 'organization_id', '', flags, true) ?? '';
  const line_items: BillLineItemRow[] = readArray(invoice, 'line_items', 'invoice', flags).map((value, position) =>
    normalizeLineItem(value, { bill_id, organization_id, position, path: index(at('invoice', 'line_items'), position) }),
  );
  const billCurrency = currency.value ?? line_items[0]?.currency ?? '';
  const wallets = readArray(b, 'wallet_ids', '', flags).filter((w): w is string => typeof w === 'string').map((w) => w.toLowerCase());
  const bill = {
    bill_id,
    organization_id,
    line_of_credit_id: readString(b, 'line_of_credit_id', '', flags, true) ?? '',
    start_time: readInstant(b, 'start_time', '', flags, true) ?? '',
    end_time: readInstant(b, 'end_time', '', flags, true) ?? '',
    period_length: readString(b, 'period_length', '', flags) ?? '',
    status: readString(b, 'status', '', flags, true) ?? '',
    settlement_type: readString(b, 'settlement_type', '', flags) ?? '',
    currency: billCurrency,
    unit: billCurrency === '' ? '' : unitOf(billCurrency),
    amt_due_base: amtDue,
    amt_paid_base: money(b['amt_paid'], 'amt_paid', flags, currency),
    service_fee_base: money(invoice['service_fee'], 'invoice.service_fee', flags, currency),
    settlement_fee_base: money(invoice['settlement_fee'], 'invoice.settlement_fee', flags, currency),
    wallet_ids: wallets,
    created_at: readInstant(b, 'created_at', '', flags, true) ?? '',
    updated_at: readInstant(b, 'updated_at', '', flags, true) ?? '',
    due_date: readInstant(invoice, 'due_date', 'invoice', flags),
    flags: flags.toArray(),
    raw,
  };
  return { bill, line_items };
}

function normalizeLineItem(raw: unknown, ctx: { bill_id: string; organization_id: string; position: number; path: string }): BillLineItemRow {
  const flags = new Flags();
  const { path } = ctx;
  const item: WireObject = asObject(raw) ?? {};
  if (!asObject(raw)) flags.add('malformed_value', path);
  const currency = { value: null as string | null };
  const declared = readString(item, 'currency', path, flags, true);
  currency.value = declared === null ? null : declared.toLowerCase();
  const m = (value: unknown, name: string): bigint | null => money(value, at(path, name), flags, currency);
  const fees = asObject(item['processing_fees']);
  const activity = asObject(item['payment_activity']);
  const bucket = (category: string, direction: string): { count: bigint | null; volume: bigint | null } => {
    const d = asObject(asObject(activity?.[category])?.[direction]);
    const p = at(at(at(path, 'payment_activity'), category), direction);
    if (!activity) return { count: null, volume: null };
    if (!d) {
      flags.add('missing_field', p);
      return { count: null, volume: null };
    }
    return { count: readCount(d, 'count', p, flags, COUNT, true), volume: m(d['volume'], `payment_activity.${category}.${direction}.volume`) };
  };
  const ss = bucket('standard', 'send');
  const sr = bucket('standard', 'receive');
  const ts = bucket('treasury', 'send');
  const tr = bucket('treasury', 'receive');
  // VolumeFee: one Amount (flat rate) or {total, send, receive} (directional rates)
  const volume = asObject(item['volume_fee']);
  const volumeFee = volume && asObject(volume['total']) ? m(volume['total'], 'volume_fee.total') : m(item['volume_fee'], 'volume_fee');
  const row: BillLineItemRow = {
    organization_id: ctx.organization_id,
    bill_id: ctx.bill_id,
    position: ctx.position,
    wallet_id: (readString(item, 'wallet_id', path, flags, true) ?? '').toLowerCase(),
    currency: currency.value ?? '',
    unit: currency.value ? unitOf(currency.value) : '',
    starting_balance_base: m(item['starting_balance'], 'starting_balance'),
    amount_total_base: m(item['amount_total'], 'amount_total'),
    settlement_type: readString(item, 'settlement_type', path, flags) ?? '',
    transactions_sent: readCount(item, 'total_transactions_sent', path, flags, COUNT, true),
    amount_sent_base: m(item['amount_sent'], 'amount_sent'),
    transactions_received: readCount(item, 'total_transactions_received', path, flags, COUNT, true),
    amount_received_base: m(item['amount_received'], 'amount_received'),
    processing_fee_total_base: fees ? m(fees['total'], 'processing_fees.total') : null,
    processing_fee_send_base: fees ? m(fees['send'], 'processing_fees.send') : null,
    processing_fee_receive_base: fees ? m(fees['receive'], 'processing_fees.receive') : null,
    has_payment_activity: activity !== undefined,
    standard_send_count: ss.count,
    standard_send_volume_base: ss.volume,
    standard_receive_count: sr.count,
    standard_receive_volume_base: sr.volume,
    treasury_send_count: ts.count,
    treasury_send_volume_base: ts.volume,
    treasury_receive_count: tr.count,
    treasury_receive_volume_base: tr.volume,
    volume_fee_base: volumeFee,
    interest_fee_base: m(item['interest_fee'], 'interest_fee'),
    payout_holdback_base: m(item['payout_holdback'], 'payout_holdback'),
    flags: [],
  };
  row.flags = flags.toArray();
  return row;
}

export function normalizeBillSummary(raw: unknown, lineOfCreditId: string, listedCount: number | null): BillSummaryRow {
  const flags = new Flags();
  const s: WireObject = asObject(raw) ?? {};
  if (!asObject(raw)) flags.add('malformed_value', 'bill_summary');
  const byCurrency = asObject(s['by_currency']) ?? {};
  const totalDue: Record<string, string> = {};
  for (const currency of Object.keys(byCurrency).sort()) {
    const c = asObject(byCurrency[currency]);
    const due = c ? readCount(c, 'total_due_base_units', at('by_currency', currency), flags, { min: -WIRE_AMOUNT_MAX, max: WIRE_AMOUNT_MAX }, true) : null;
    if (due !== null) totalDue[currency.toLowerCase()] = due.toString();
  }
  return {
    organization_id: readString(s, 'organization_id', '', flags, true) ?? '',
    line_of_credit_id: lineOfCreditId,
    bill_total_count: readCount(s, 'bill_total_count', '', flags, COUNT, true),
    listed_count: listedCount,
    total_due_base: totalDue,
    flags: flags.toArray(),
    raw,
  };
}
