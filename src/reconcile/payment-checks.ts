/**
 * The checks of one payment against its own figures and its ledger entries. Pure: a payment and
 * the entries the ledger index found for it in, findings out. Checks driven by normalization
 * flags (fee unknown, treasury fee, legacy disagreement, ...) live in data-checks.ts.
 */
import { absBig } from '../money/rounding.js';
import { feeWithinRounding, feeWithinUnitRounding } from '../money/bps.js';
import type { PaymentRow } from '../model/rows.js';
import type { CheckId } from './catalogue.js';
import { finding } from './findings.js';
import type { CompactEntry } from './ledger-index.js';
import type { Finding } from '../model/results.js';
import { settlementUnitMsats } from './settlement-unit.js';

export interface PaymentCheckContext {
  /** btc / usd currencies the wallet holds balances in (empty: unknown, not tested) */
  walletCurrencies: ReadonlySet<string>;
}

export interface PaymentCheckOutcome {
  findings: Finding[];
  /** the checks this payment was actually tested against (for CheckResult.evaluated) */
  evaluated: CheckId[];
}

export function checkPayment(p: PaymentRow, entries: readonly CompactEntry[], ctx: PaymentCheckContext): PaymentCheckOutcome {
  const findings: Finding[] = [];
  const evaluated: CheckId[] = [];
  const subject = { subject_kind: 'payment' as const, subject_id: p.payment_id, wallet_id: p.wallet_id, currency: p.currency };
  const report = (check: CheckId, fields: { expected?: bigint | null; actual?: bigint | null; difference?: bigint | null; message: string }): void => {
    findings.push(finding(check, { ...subject, ...fields }));
  };

  if ((p.currency === 'btc' || p.currency === 'usd') && ctx.walletCurrencies.size > 0) {
    evaluated.push('data.currency_mismatch');
    if (!ctx.walletCurrencies.has(p.currency)) {
      report('data.currency_mismatch', { message: `payment in ${p.currency}, but the wallet holds ${[...ctx.walletCurrencies].sort().join(', ')}` });
    }
  }

  const direction = p.direction === 'send' || p.direction === 'receive' ? p.direction : null;
  const moneyType = direction === 'send' ? 'captured' : 'credited';

  if (p.status_class === 'completed' && direction !== null) {
    checkLedger(p, direction, entries, report, evaluated);
    checkFees(p, direction, report, evaluated);
  }

  if (p.status_class === 'failed' && direction !== null) {
    evaluated.push('payment.failed_moved_money');
    const moved = entries.filter((e) => e.entry_type === moneyType);
    if (moved.length > 0) {
      const sum = moved.reduce((acc, e) => acc + (e.amount_base ?? 0n), 0n);
      report('payment.failed_moved_money', {
        expected: 0n,
        actual: sum,
        difference: sum,
        message: `${p.status} ${direction} has ${moved.length} ${moneyType} ledger entr${moved.length === 1 ? 'y' : 'ies'} (${list(moved)})`,
      });
    }
    if (direction === 'send') {
      evaluated.push('payment.failed_hold_open');
      const closed = new Set(entries.filter((e) => e.entry_type === 'released' || e.entry_type === 'captured').map((e) => e.entry_id));
      const open = entries.filter((e) => e.entry_type === 'held' && !closed.has(e.entry_id));
      if (open.length > 0) report('payment.failed_hold_open', { message: `failed send's hold ${list(open)} was never released` });
    }
  }
  return { findings, evaluated };
}

type Report = (check: CheckId, fields: { expected?: bigint | null; actual?: bigint | null; difference?: bigint | null; message: string }) => void;

function checkLedger(p: PaymentRow, direction: 'send' | 'receive', entries: readonly CompactEntry[], report: Report, evaluated: CheckId[]): void {
  const type = direction === 'send' ? 'captured' : 'credited';
  const booked = entries.filter((e) => e.entry_type === type);
  evaluated.push('completeness.payment_without_ledger');
  if (booked.length === 0) {
    const others = entries.length > 0 ? ` (only ${list(entries)})` : '';
    report('completeness.payment_without_ledger', {
      expected: p.total_base,
      message: `completed ${direction} has no ${type} ledger entry${others}; joined by ledger ids [${p.ledger_ids.join(', ')}] and payment id`,
    });
    return;
  }
  evaluated.push('payment.ledger_match');
  const foreign = booked.filter((e) => e.currency !== p.currency);
  if (foreign.length > 0) {
    report('payment.ledger_match', { message: `${type} entr${foreign.length === 1 ? 'y' : 'ies'} ${list(foreign)} in ${foreign[0]?.currency}, payment in ${p.currency}` });
    return;
  }
  if (booked.some((e) => e.amount_base === null)) {
    report('payment.ledger_match', { expected: p.total_base, message: `${type} entry amount unknown (${list(booked)}): the payment cannot be tied` });
    return;
  }
  checkLedgerBreakdown(p, booked, report, evaluated);
  if (p.total_base === null) return; // reported by payment.fee_unknown
  const ledger = booked.reduce((acc, e) => acc + (e.amount_base ?? 0n), 0n);
  if (ledger !== p.total_base) {
    const what = direction === 'send' ? 'principal + network fee + processing fee' : 'principal';
    report('payment.ledger_match', {
      expected: p.total_base,
      actual: ledger,
      difference: ledger - p.total_base,
      message: `${what} = ${p.total_base} ${p.unit}, but the ledger ${type} ${ledger} (${list(booked)})`,
    });
  }
}

/** The fees the ledger entries state in their own payment_breakdown (when every entry has one) vs the payment's. */
function checkLedgerBreakdown(p: PaymentRow, booked: readonly CompactEntry[], report: Report, evaluated: CheckId[]): void {
  if (!booked.every((e) => e.network_fee_base !== null && e.processing_fee_base !== null)) return; // historical entries omit it
  evaluated.push('payment.ledger_breakdown');
  const network = booked.reduce((acc, e) => acc + (e.network_fee_base ?? 0n), 0n);
  const processing = booked.reduce((acc, e) => acc + (e.processing_fee_base ?? 0n), 0n);
  const parts: string[] = [];
  if (p.network_fee_base !== null && network !== p.network_fee_base) parts.push(`network fee ${network} vs ${p.network_fee_base}`);
  if (p.processing_fee_base !== null && processing !== p.processing_fee_base) parts.push(`processing fee ${processing} vs ${p.processing_fee_base}`);
  if (parts.length === 0) return;
  report('payment.ledger_breakdown', {
    expected: p.processing_fee_base,
    actual: processing,
    difference: p.processing_fee_base === null ? null : processing - p.processing_fee_base,
    message: `the ledger's own breakdown (${list(booked)}) disagrees with the payment: ${parts.join(', ')} ${p.unit}`,
  });
}

function checkFees(p: PaymentRow, direction: 'send' | 'receive', report: Report, evaluated: CheckId[]): void {
  if (direction === 'send' && p.network_fee_base !== null && p.max_fee_base !== null) {
    evaluated.push('payment.max_fee_exceeded');
    if (p.network_fee_base > p.max_fee_base) {
      report('payment.max_fee_exceeded', {
        expected: p.max_fee_base,
        actual: p.network_fee_base,
        difference: p.network_fee_base - p.max_fee_base,
        message: `network fee ${p.network_fee_base} ${p.unit} above max_fee ${p.max_fee_base}`,
      });
    }
  }

  if (p.processing_fee_source !== 'none' && p.processing_fee_bps !== null && p.principal_base !== null && p.processing_fee_base !== null) {
    evaluated.push('payment.processing_fee_rate');
    // A fee that went through a quote may be one base unit further off.
    const slack = p.rail_currency !== null || p.quote_rate !== null || p.flags.some((f) => f.startsWith('converted_amount')) ? 1n : 0n;
    const settlementUnit = settlementUnitMsats(p);
    const withinRounding =
      feeWithinRounding(p.processing_fee_base, p.principal_base, p.processing_fee_bps, slack) ||
      (settlementUnit !== null && feeWithinUnitRounding(p.processing_fee_base, p.principal_base, p.processing_fee_bps, settlementUnit));
    if (!withinRounding) {
      const exact = `${p.principal_base} × ${p.processing_fee_bps} / 10000`;
      const unit = p.unit === 'base units' ? 'base unit' : p.unit.replace(/s$/, '');
      report('payment.processing_fee_rate', {
        actual: p.processing_fee_base,
        message: `processing fee (${p.processing_fee_source}) ${p.processing_fee_base} ${p.unit} is not ${exact} rounded to a whole ${unit}${settlementUnit !== null ? ' or sat' : ''}`,
      });
    }
  }

  if (p.processing_fee_diff_base !== null) {
    evaluated.push('payment.fee_terms_vs_settled');
    if (p.processing_fee_diff_base !== 0n) {
      report('payment.fee_terms_vs_settled', {
        expected: p.processing_fee_terms_base,
        actual: p.processing_fee_settled_base,
        difference: p.processing_fee_diff_base,
        message: `settled processing fee ${p.processing_fee_settled_base} differs from the terms ${p.processing_fee_terms_base} (the settled fee is booked)`,
      });
    }
  }

  if (p.reported_fees_base !== null) {
    // A send's data.fees is network + processing: it can be tested only against a settled breakdown
    // (otherwise the network fee was derived from it). A receive's data.fees is its processing fee.
    const expected = direction === 'send' ? (p.processing_fee_source === 'settled' && p.network_fee_base !== null && p.processing_fee_base !== null ? p.network_fee_base + p.processing_fee_base : null) : p.processing_fee_base;
    if (expected !== null) {
      evaluated.push('payment.reported_fees');
      if (expected !== p.reported_fees_base) {
        report('payment.reported_fees', {
          expected,
          actual: p.reported_fees_base,
          difference: p.reported_fees_base - expected,
          message: `data.fees ${p.reported_fees_base} ${p.unit}, but ${direction === 'send' ? 'network + processing fee' : 'the processing fee'} = ${expected}`,
        });
      }
    }
  }

  const quoted = p.quote_principal_base ?? null;
  const stated = statedPrincipal(p);
  if (quoted !== null && stated !== null) {
    evaluated.push('payment.quote_conversion');
    const difference = stated.value - quoted;
    if (absBig(difference) > 1n) {
      report('payment.quote_conversion', {
        expected: quoted,
        actual: stated.value,
        difference,
        message: `rail ${p.rail_amount_base} msats at ${p.quote_rate} is ${quoted} ${p.unit}, but ${stated.label} is ${stated.value}`,
      });
    }
  }
}

/**
 * The principal the rail amount stands for. The deprecated BTC fields are twins of `data.amount`
 * (docs/service-facts.md#amounts-and-fees), which is the principal unless the breakdown settled another one — an over-paid or
 * partial receive — and then it is the requested amount ("`requested_amount` remains the
 * principal"). Null when neither is known.
 */
function statedPrincipal(p: PaymentRow): { value: bigint; label: string } | null {
  if (!p.flags.includes('breakdown_principal_differs')) return p.principal_base === null ? null : { value: p.principal_base, label: 'the principal' };
  return p.requested_amount_base === null ? null : { value: p.requested_amount_base, label: 'the requested amount' };
}

/** `captured:h1, released:h1` — at most three, then a count. */
function list(entries: readonly CompactEntry[]): string {
  const shown = entries.slice(0, 3).map((e) => `${e.entry_type}:${e.entry_id}`);
  return entries.length > 3 ? `${shown.join(', ')} and ${entries.length - 3} more` : shown.join(', ');
}
