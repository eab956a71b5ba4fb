/**
 * The checks of a payment against the wallet ledger, and of each side's completeness.
 * Part of the catalogue of checks (../catalogue.ts assembles it, in this order).
 */
import type { CheckDefinition } from './check-definition.js';

export const LEDGER_CHECKS = [
  {
    id: 'payment.ledger_match',
    severity: 'error',
    subject_kind: 'payment',
    description: 'A completed payment ties to its ledger entry',
    rule:
      'For every completed payment created in the window: total_base (send: principal + network fee + processing fee; receive: principal) ' +
      'equals the sum of its ledger entries — captures for a send, credits for a receive — in the same currency. Entries are joined by the ' +
      "ledger_id of the payment's receipts, outflows and exchanges (= hold_id / credit_id) and by payment_id.",
  },
  {
    id: 'payment.ledger_breakdown',
    severity: 'warning',
    subject_kind: 'payment',
    description: "The ledger's own fee breakdown agrees with the payment",
    rule:
      'When every capture/credit tied to a completed payment carries a payment_breakdown: the sum of their network fees equals ' +
      "network_fee_base and the sum of their processing fees equals processing_fee_base. Historical entries without one are not tested.",
  },
  {
    id: 'completeness.payment_without_ledger',
    severity: 'error',
    subject_kind: 'payment',
    description: 'A completed payment has a ledger entry',
    rule: 'Every completed send has at least one capture and every completed receive at least one credit, found as in payment.ledger_match.',
  },
  {
    id: 'completeness.ledger_without_payment',
    severity: 'error',
    subject_kind: 'payment',
    description: 'A ledger entry belongs to a known payment',
    rule:
      "Every ledger entry effective in the window that names a payment_id names a payment that is either among this window's payments " +
      'of the wallet or already in the snapshot (created earlier). Deposits and withdrawals name no payment and are not tested.',
  },
  {
    id: 'payment.failed_moved_money',
    severity: 'error',
    subject_kind: 'payment',
    description: 'A failed or expired payment moved no money',
    rule: 'A failed send has no capture and a failed or expired receive has no credit. A hold followed by its release is fine.',
  },
  {
    id: 'payment.failed_hold_open',
    severity: 'warning',
    subject_kind: 'payment',
    description: 'A failed send released its hold',
    rule: 'Every hold of a failed send is followed by a release or a capture with the same hold_id; otherwise the funds stay reserved.',
  },
] as const satisfies readonly CheckDefinition[];
