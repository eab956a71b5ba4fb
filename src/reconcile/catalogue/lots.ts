/**
 * The crypto subledger's checks (docs/lots.md): run by the lots pass of the report stage, and only
 * with a `lots` section in the config.
 */
import type { CheckDefinition } from './check-definition.js';

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
  {
    id: 'lots.price_stale',
    severity: 'warning',
    subject_kind: 'run',
    description: 'Each fair value uses a price from the period’s end',
    rule:
      'Per crypto currency held: the price behind its closing fair value (the last price at or before the period’s end) is no older than lots.disclosure.priceMaxAgeSeconds ' +
      '(default one day) at the period’s end; an older one is listed with the asset, the price’s time and its source.',
  },
  {
    id: 'lots.restrictions_unstated',
    severity: 'warning',
    subject_kind: 'run',
    description: 'The configuration says whether any crypto asset is under a sale restriction',
    rule: 'lots.disclosure.restrictions is "none" or lists each contractual sale restriction (ASC 350-60-50-5); when it says nothing, the Crypto assets note says it was not stated.',
  },
] as const satisfies readonly CheckDefinition[];
