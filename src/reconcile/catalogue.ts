/**
 * The catalogue of reconciliation checks: id, severity, what it looks at, and the rule it applies.
 * The report's Definitions sheet, the README and docs/reconciliation.md list exactly these.
 * Severity `error` makes the job exit 65 (hasErrors in findings.ts); `warning` and `info` do not.
 */
import type { Severity, SubjectKind } from '../model/results.js';

export interface CheckDefinition {
  id: string;
  severity: Severity;
  subject_kind: SubjectKind;
  /** one line for the Overview sheet */
  description: string;
  /** the rule, precise enough for an accountant to re-perform it */
  rule: string;
}

export const CHECKS = [
  // --- a payment against the wallet ledger ---------------------------------------------------------
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
  // --- fees -------------------------------------------------------------------------------------------
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
  // --- summaries --------------------------------------------------------------------------------------
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
  // --- data that cannot be booked ---------------------------------------------------------------------
  // --- the processing-fee rate in force over time (fee-rate-history.ts) --------------------------------
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
  // --- the service's bills against the payments they charge for (bill-checks.ts) -------------------
  {
    id: 'bill.line_amounts',
    severity: 'error',
    subject_kind: 'bill_line_item',
    description: "A bill line item's gross debits and credits equal the wallet's payments",
    rule:
      "For each line item of a bill whose [start_time, end_time) lies inside the window: amount_sent equals the sum of total_base (principal + network fee + " +
      "processing fee) of the wallet's completed sends created in the period, and amount_received the sum of total_base (the credited principal) of its completed receives.",
  },
  {
    id: 'bill.line_counts',
    severity: 'error',
    subject_kind: 'bill_line_item',
    description: "A bill line item's transaction counts equal the wallet's payments",
    rule: 'total_transactions_sent / total_transactions_received equal the number of completed sends / receives of the wallet created in the period.',
  },
  {
    id: 'bill.line_processing_fees',
    severity: 'error',
    subject_kind: 'bill_line_item',
    description: "A bill line item's processing fees equal the fees its payments settled",
    rule:
      'processing_fees.send and processing_fees.receive equal the sums of processing_fee_base (the settled fee of payment_breakdown; the terms when a payment ' +
      'carries no breakdown) of the completed sends and receives of the wallet created in the period.',
  },
  {
    id: 'bill.line_activity',
    severity: 'warning',
    subject_kind: 'bill_line_item',
    description: "A bill line item's activity by category matches the payments",
    rule:
      'When the invoice carries payment_activity: for standard and treasury, send and receive, count equals the completed payments of that category and direction ' +
      'created in the period, and volume their principal (sends) or credited principal (receives). Historical invoices without it are not tested.',
  },
  {
    id: 'bill.starting_balance',
    severity: 'error',
    subject_kind: 'bill_line_item',
    description: "A bill line item's starting balance equals the ledger roll-forward",
    rule: "starting_balance equals the wallet's ledger summed (credits and deposits − captures and withdrawals) over every entry effective before start_time.",
  },
  {
    id: 'bill.line_item_missing',
    severity: 'error',
    subject_kind: 'bill_line_item',
    description: 'Every wallet with activity in a billed period has a line item',
    rule: "A wallet of the bill's line of credit with at least one completed payment created in the period has a line item on the bill's invoice.",
  },
  {
    id: 'bill.internal_totals',
    severity: 'error',
    subject_kind: 'bill',
    description: 'A bill adds up to its own totals',
    rule:
      'Per line item: processing_fees.total = send + receive and amount_total = |amount_sent − amount_received|. Per bill: wallet_ids lists exactly the line items\' wallets, and ' +
      'amt_due with settlement_type equals |Σ (amount_received − amount_sent − volume_fee − interest_fee) − service_fee| (Collection when negative).',
  },
  {
    id: 'bill.not_recomputable',
    severity: 'warning',
    subject_kind: 'bill_line_item',
    description: 'A billed figure could be recomputed',
    rule: 'A line item figure whose payments include one with an unknown amount or fee, or a currency other than the bill\'s, is not compared (unknown is never 0); reported once per line item.',
  },
  {
    id: 'bill.period_outside_window',
    severity: 'info',
    subject_kind: 'bill',
    description: 'A bill overlapping the window is checked only when its period lies inside it',
    rule: "A bill whose [start_time, end_time) overlaps the window without lying inside it is listed but not checked: the payments outside the window were not pulled. Reconcile the window that covers its period.",
  },
  {
    id: 'bill.summary_count',
    severity: 'warning',
    subject_kind: 'run',
    description: 'The bill list is complete',
    rule: "Per line of credit, the bills summary's bill_total_count equals the number of distinct bills the bill list returned in the same run.",
  },
  {
    id: 'data.malformed_amount',
    severity: 'error',
    subject_kind: 'payment',
    description: 'Amounts follow the strict integer grammar',
    rule: 'Every amount is an integer in base units (safe JSON integer, big integer or canonical digit string) within u64; anything else is null and reported with its field path.',
  },
  {
    id: 'data.missing_field',
    severity: 'error',
    subject_kind: 'payment',
    description: 'Required fields are present',
    rule: 'id, wallet_id, direction, type, status, currency, created_at, updated_at, data (payments); the event id, payment_id, amount and effective_time (ledger).',
  },
  {
    id: 'data.malformed_value',
    severity: 'error',
    subject_kind: 'payment',
    description: 'Non-amount fields are well formed',
    rule: 'Instants are RFC 3339 with an offset; ids are strings; basis_points is an integer 0–10,000; quote rates match <coefficient>e<scale>; counts are integers.',
  },
  {
    id: 'data.currency_mismatch',
    severity: 'error',
    subject_kind: 'payment',
    description: 'Amounts are in the currency and unit of their record and wallet',
    rule:
      "An amount's currency equals its payment's (or converts through the payment's quote), its unit belongs to its currency " +
      "(msats/cents/base units), and a payment's currency is one of its wallet's balance currencies.",
  },
  {
    id: 'data.unknown_currency',
    severity: 'error',
    subject_kind: 'payment',
    description: 'Currencies are btc, usd or asset:<hex>',
    rule: 'Any other currency code cannot be booked (kept lowercased in the row).',
  },
  {
    id: 'data.unknown_direction',
    severity: 'error',
    subject_kind: 'payment',
    description: 'Direction is send or receive',
    rule: 'A payment of another direction cannot be totalled (kept verbatim, totals null).',
  },
  {
    id: 'data.unknown_entry_type',
    severity: 'error',
    subject_kind: 'ledger_entry',
    description: 'Ledger event types are known',
    rule: 'credited, captured, held, released, deposited, withdrawn. Another type has an unknown effect on the balance.',
  },
  {
    id: 'data.unknown_enum',
    severity: 'warning',
    subject_kind: 'payment',
    description: 'Enum values are known',
    rule: 'status, kind, category, route, network, receipt type and swap step values outside the OpenAPI lists are kept verbatim and reported.',
  },
  {
    id: 'data.negative_amount',
    severity: 'error',
    subject_kind: 'payment',
    description: 'Amounts are positive where the API says so',
    rule: 'Payment amounts and ledger event amounts are non-negative; a negative one (negative: true, or a negative integer) contradicts its direction or event type, so the books cannot take it as it stands: it is kept as signed and reported as an error.',
  },
  {
    id: 'data.context_mismatch',
    severity: 'warning',
    subject_kind: 'payment',
    description: 'Records belong to the scope they were listed under',
    rule: 'A record naming another organization, environment or wallet than the one it was listed for is reported.',
  },
  {
    id: 'data.unknown_field',
    severity: 'info',
    subject_kind: 'run',
    description: 'Fields are documented',
    rule: 'A field the OpenAPI document does not list is kept in the raw record; reported once per field path with the number of records.',
  },
] as const satisfies readonly CheckDefinition[];

/**
 * The journal's checks (docs/journal.md): run by the journal pass of the report stage, and only
 * with a `journal` mapping in the config, so they are listed in a run's checks only then.
 */
export const JOURNAL_CHECKS = [
  {
    id: 'journal.wallet_unmapped',
    severity: 'error',
    subject_kind: 'wallet',
    description: 'Every wallet has an asset account',
    rule: 'Every wallet in scope is listed under journal.wallets with its asset account; the movements of an unlisted wallet are not journaled (never silently dropped: this finding names it).',
  },
  {
    id: 'journal.needs_price',
    severity: 'error',
    subject_kind: 'ledger_entry',
    description: "Every movement has a price in the books' currency",
    rule:
      "A movement is valued by, in order: the books' own currency, the payment's quote, the price file's last price at or before the movement " +
      'within its maximum staleness. Without any, the entry is listed here and left out of the Beancount, hledger, QuickBooks and Xero files.',
  },
  {
    id: 'journal.price_fetch_failed',
    severity: 'error',
    subject_kind: 'run',
    description: "The window's prices could be fetched",
    rule:
      'With prices.autoFetch, nightly and month-end first fill the price cache for their window (docs/prices.md); when no source of the policy covers it ' +
      '(rate limited, no data, source gone, wrong currency, unavailable), this finding names each failure, and the run values only what the cache and the price file hold.',
  },
  {
    id: 'journal.price_gap',
    severity: 'warning',
    subject_kind: 'run',
    description: 'The price sources have a close for every interval of the window',
    rule: 'A source that answered without a close for some intervals of the window leaves a gap; the gaps are listed here, never filled or interpolated (a later source of the policy may still price those movements).',
  },
  {
    id: 'journal.unbalanced',
    severity: 'error',
    subject_kind: 'ledger_entry',
    description: 'Every journal entry balances',
    rule: 'Σ debits = Σ credits of every entry, in source base units and in books minor units, checked before any file is written; an unbalanced entry is written nowhere.',
  },
  {
    id: 'journal.unposted',
    severity: 'error',
    subject_kind: 'ledger_entry',
    description: 'Every balance movement can be posted',
    rule: 'A ledger entry that moves the balance (credited, captured, deposited, withdrawn, or an unknown type with an effect) has a known amount.',
  },
  {
    id: 'journal.breakdown_unknown',
    severity: 'warning',
    subject_kind: 'ledger_entry',
    description: 'The fee split of a posted send is known',
    rule:
      "A capture's principal, network fee and processing fee come from its own payment_breakdown, else from its payment when they sum to the " +
      'captured amount; otherwise the whole amount is posted to the counter account and listed here.',
  },
  {
    id: 'journal.wallet_tieout',
    severity: 'error',
    subject_kind: 'wallet',
    description: 'The journal moves each wallet by its roll-forward',
    rule: "Per wallet and currency: Σ debits − Σ credits on the wallet's asset account, in source base units, = credits − debits of the balance roll-forward (balances.csv).",
  },
  {
    id: 'journal.fee_tieout',
    severity: 'error',
    subject_kind: 'wallet',
    description: 'The journal fee accounts tie to fees.csv',
    rule:
      'Per wallet, currency and fee account (network, processing), sends only, in source base units: the journal total − fees of payments created ' +
      "before the window + fees of completed sends created in the window and posted after it = fees.csv's sum.",
  },
] as const satisfies readonly CheckDefinition[];

/**
 * The crypto subledger's checks (docs/lots.md): run by the lots pass of the report stage, and only
 * with a `lots` section in the config.
 */
export const LOTS_CHECKS = [
  {
    id: 'lots.basis_unknown',
    severity: 'error',
    subject_kind: 'wallet',
    description: 'Every unit held or disposed of has a known cost basis',
    rule:
      'Units with no known basis — a deposit or opening balance the opening-lots file does not cover, a receive with no price, a disposal of more ' +
      'than the wallet’s lots hold — form an unknown lot and are listed here; their cost is never taken as zero.',
  },
  {
    id: 'lots.identification_late',
    severity: 'warning',
    subject_kind: 'ledger_entry',
    description: 'Specific identifications are made before the disposal',
    rule: 'An identification recorded after its disposal is refused (Treas. Reg. 1.1012-1(j)(3)): the wallet’s standing order, else fifo, relieves the lots instead.',
  },
  {
    id: 'lots.units_tieout',
    severity: 'error',
    subject_kind: 'wallet',
    description: 'The lots held add up to each wallet’s closing balance',
    rule: 'Per tracked wallet and currency: Σ units of the lots held at the window end (lots.csv) = the closing balance of the roll-forward (balances.csv), to the base unit.',
  },
  {
    id: 'lots.cost_tieout',
    severity: 'error',
    subject_kind: 'wallet',
    description: 'Each wallet’s cost rolls forward',
    rule: 'Per tracked wallet and currency: cost of the lots held at the window start + cost of lots added − cost relieved (lot-reliefs.csv) − cost moved out by treasury transfers = cost of the lots held at the window end.',
  },
  {
    id: 'lots.gain_identity',
    severity: 'error',
    subject_kind: 'ledger_entry',
    description: 'Every relief line’s gain is proceeds − cost',
    rule: 'Per line of lot-reliefs.csv with a known basis and price: gain = proceeds − cost_basis.',
  },
  {
    id: 'lots.fair_value_tieout',
    severity: 'error',
    subject_kind: 'wallet',
    description: 'The Crypto assets fair value ties to the journal',
    rule:
      'Per currency: closing_fair_value of the Crypto assets sheet (the lots’ units at the period-end price) = the journal’s fair value of the wallets ' +
      '(wallet accounts + fair-value adjustment: round(closing balance × period-end price), summed over the wallets).',
  },
  {
    id: 'lots.withdrawal_unclassified',
    severity: 'warning',
    subject_kind: 'ledger_entry',
    description: 'Every withdrawal is classified: to the company’s own custody, or a disposal',
    rule:
      'A withdrawn ledger entry of a tracked wallet that lots.withdrawals does not classify (per wallet or per entry) is listed with its amount; ' +
      'it is booked as a disposal (proceeds, gain, a Form 8949 row) until it is classified own_custody (the lots move to that wallet with their dates and cost) or disposal.',
  },
  {
    id: 'lots.cumulative_tieout',
    severity: 'error',
    subject_kind: 'wallet',
    description: 'The cumulative realized gain is the sum of every period’s',
    rule:
      'Per tracked wallet and currency: the cumulative realized gain at the window end = the realized gain of every period since the first event ' +
      '(the recorded closes, each month the run replayed, what its events before the window realized, and the window), and each recorded close’s ' +
      'cumulative = the one before it + its own realized gain.',
  },
] as const satisfies readonly CheckDefinition[];

export type CheckId = (typeof CHECKS)[number]['id'] | (typeof JOURNAL_CHECKS)[number]['id'] | (typeof LOTS_CHECKS)[number]['id'];

const BY_ID: ReadonlyMap<string, CheckDefinition> = new Map([...CHECKS, ...JOURNAL_CHECKS, ...LOTS_CHECKS].map((check) => [check.id, check]));

export function checkDefinition(id: CheckId): CheckDefinition {
  const check = BY_ID.get(id);
  if (!check) throw new Error(`unknown check ${id}`);
  return check;
}
