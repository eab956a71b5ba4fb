/**
 * The checks of a payment's fees: the breakdown, the ceiling, the processing-fee terms.
 * Part of the catalogue of checks (../catalogue.ts assembles it, in this order).
 */
import type { CheckDefinition } from './check-definition.js';

export const FEE_CHECKS = [
  {
    id: 'payment.fee_unknown',
    severity: 'error',
    subject_kind: 'payment',
    description: 'The fees of a completed payment are known',
    rule:
      'A completed payment whose principal, network fee or processing fee cannot be determined is left out of the fee rollup sums ' +
      '(unknown is never 0). Typical cause: a send with neither payment_breakdown nor data.fees.',
  },
  {
    id: 'payment.max_fee_exceeded',
    severity: 'warning',
    subject_kind: 'payment',
    description: 'The network fee stayed within max_fee',
    rule: 'For a send: network_fee_base ≤ max_fee_base (processing fees do not count against max_fee, per the API).',
  },
  {
    id: 'payment.processing_fee_rate',
    severity: 'warning',
    subject_kind: 'payment',
    description: 'The processing fee matches its rate',
    rule:
      'processing_fee_base equals principal_base × basis_points / 10,000 rounded to a whole base unit in either direction (floor or ceil): ' +
      '|fee × 10,000 − principal × bps| < 10,000. One more base unit is allowed when the payment went through a quote (cross-currency). ' +
      'A BTC payment that settles on chain (onchain, or BIP21 with an on-chain receipt/outflow) may instead round to a whole sat in either direction, ' +
      'since on-chain amounts are whole sats: fee a multiple of 1,000 msats and |fee × 10,000 − principal × bps| < 10,000,000.',
  },
  {
    id: 'payment.fee_terms_vs_settled',
    severity: 'info',
    subject_kind: 'payment',
    description: 'The settled processing fee equals the terms',
    rule: 'payment_breakdown.processing_fee − processing_fee.amount = 0 when both exist (they may differ; the settled fee is booked).',
  },
  {
    id: 'payment.reported_fees',
    severity: 'warning',
    subject_kind: 'payment',
    description: "The payment's reported fees agree with its breakdown",
    rule:
      'Send with a settled breakdown: data.fees = network fee + processing fee. Receive: data.fees = processing fee. ' +
      'Send without a breakdown: data.fees ≥ the terms fee (else the derived network fee is negative).',
  },
  {
    id: 'payment.treasury_processing_fee',
    severity: 'warning',
    subject_kind: 'payment',
    description: 'A treasury movement carries no processing fee',
    rule: 'category = treasury ⇒ no processing fee (terms or settled) above zero; the service says none is assessed. The stated fee is still booked.',
  },
  {
    id: 'payment.receive_network_fee',
    severity: 'warning',
    subject_kind: 'payment',
    description: 'A receive reports no network fee',
    rule: 'A receive is credited its principal; a non-zero payment_breakdown.network_fee on a receive is reported for review.',
  },
  {
    id: 'payment.legacy_disagreement',
    severity: 'warning',
    subject_kind: 'payment',
    description: 'Deprecated amount fields agree with the Amount objects',
    rule:
      'amount_msats / fee_msats / max_fee_msats equal the Amount object; whole-sat amount_sats / fee_sats / max_fee_sats are within one sat ' +
      '(|msats − sats × 1,000| < 1,000). The Amount object is booked. Applies to BTC payments and ledger events.',
  },
  {
    id: 'payment.quote_conversion',
    severity: 'warning',
    subject_kind: 'payment',
    description: 'The BTC rail amount converts to the principal at the quote',
    rule:
      'Cross-currency payment: |rail msats × rate (half-even) − principal_base| ≤ 1 base unit, with rate = coefficient / 10^scale base units per BTC. ' +
      'When the breakdown settled another principal than data.amount (an over-paid or partial receive), the rail amount — the twin of data.amount — is compared with requested_amount_base instead.',
  },
  {
    id: 'payment.frozen_funds',
    severity: 'warning',
    subject_kind: 'payment',
    description: 'A receive has no frozen funds',
    rule: 'A receive listing `frozen` entries (compliance holds) is reported for review.',
  },
] as const satisfies readonly CheckDefinition[];
