/**
 * The checks of the service's bills against the payments they charge for (bill-checks.ts).
 * Part of the catalogue of checks (../catalogue.ts assembles it, in this order).
 */
import type { CheckDefinition } from './check-definition.js';

export const BILL_CHECKS = [
  {
    id: 'bill.line_amounts',
    severity: 'error',
    subject_kind: 'bill_line_item',
    description: "A bill line item's gross debits and credits equal the wallet's payments",
    rule:
      "For each line item of a bill this window ties (it holds the midpoint and at least half of [start_time, end_time)): amount_sent equals the sum of total_base (principal + network fee + " +
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
    description: 'A bill the window overlaps is tied by the report whose window holds the larger part of its period',
    rule:
      "A bill whose [start_time, end_time) overlaps the window is tied by the report whose window holds the period's midpoint and at least half of it, against the payments of " +
      'the whole period (those outside that window are pulled beside it). Here it is listed, not checked: the note names the midpoint. A period that cannot be read is tied by no report.',
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
