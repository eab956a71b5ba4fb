/**
 * The checks of the processing-fee rate in force over time (fee-rate-history.ts).
 * Part of the catalogue of checks (../catalogue.ts assembles it, in this order).
 */
import type { CheckDefinition } from './check-definition.js';

export const FEE_RATE_CHECKS = [
  {
    id: 'fee_rate.change',
    severity: 'info',
    subject_kind: 'wallet',
    description: "A wallet's processing-fee rate changed",
    rule:
      "Per wallet and direction, the standard payments' processing_fee.basis_points in created_at order: a new rate is one rate change (one note with " +
      'both rates and the payments on either side), not a finding per payment; a lone payment between two at the same rate is off-rate instead. The periods are listed in fee-rates.csv.',
  },
  {
    id: 'fee_rate.off_rate',
    severity: 'warning',
    subject_kind: 'payment',
    description: 'A payment carries the processing-fee rate in force at its time',
    rule: 'A single payment whose basis_points differ from the rate in force before and after it (the same rate on both sides) was charged off-rate.',
  },
  {
    id: 'fee_rate.policy_mismatch',
    severity: 'warning',
    subject_kind: 'wallet',
    description: "The latest payments carry the rate of the wallet's processing-fee policy",
    rule:
      "Per wallet and direction, the rate of the latest period (the payments' basis_points) equals the current rate of the wallet's processing-fee policy " +
      '(GET …/policies; the service shows no policy history). A difference is one warning with both rates, the period and whether the policy changed after it.',
  },
] as const satisfies readonly CheckDefinition[];
