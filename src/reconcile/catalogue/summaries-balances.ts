/**
 * The checks of counts (the API's summaries against the payments listed) and of balances (the
 * roll-forward over the window and the API's own balance).
 * Part of the catalogue of checks (../catalogue.ts assembles it, in this order).
 */
import type { CheckDefinition } from './check-definition.js';

export const SUMMARY_AND_BALANCE_CHECKS = [
  {
    id: 'summary.total',
    severity: 'error',
    subject_kind: 'summary_bucket',
    description: "A summary's total count equals the payments listed",
    rule:
      'For the environment, each line of credit and each wallet: the API total_count (asked with the same filters: created in the window, ' +
      'include_inactive) equals the number of payments listed for that scope.',
  },
  {
    id: 'summary.bucket',
    severity: 'error',
    subject_kind: 'summary_bucket',
    description: "A summary bucket's count equals the payments listed",
    rule: 'For every (direction, status, currency, kind) bucket of a line of credit or wallet: API count = count of listed payments (an absent bucket counts 0).',
  },
  {
    id: 'summary.missing',
    severity: 'warning',
    subject_kind: 'wallet',
    description: 'Every wallet has a summary',
    rule: 'When summaries were pulled for the window, every wallet in scope has a wallet summary.',
  },
  // --- balances ---------------------------------------------------------------------------------------
  {
    id: 'balance.rollforward',
    severity: 'error',
    subject_kind: 'wallet',
    description: 'The balance rolls forward over the window',
    rule:
      'Per wallet and currency: opening (ledger before the window) + credits − debits (in the window) = closing (ledger before the window end), ' +
      'and no entry up to the window end has an unknown amount or effect.',
  },
  {
    id: 'balance.api_total',
    severity: 'error',
    subject_kind: 'wallet',
    description: "The closing balance agrees with the wallet's API balance (directly, or by a bridge for a past period)",
    rule:
      "Per wallet and currency: when the API balance was read inside the window, closing = the API balance `total` (difference = closing − api_balance); " +
      "for a past period, closing + the ledger movements from the window end up to the API balance's effective_time = the API balance now (the bridge). " +
      'A currency the API does not list must come to zero; a wallet listing no balances, or an unknown entry in the bridge span, is not checked (balance_check not_checked).',
  },
] as const satisfies readonly CheckDefinition[];
