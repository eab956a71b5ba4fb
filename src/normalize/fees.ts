/**
 * The fee breakdown of one payment, in the payment's (wallet-side) currency. Pure; the rules are
 * listed in docs/reconciliation.md "Fee breakdown" and restated here where they are applied.
 *
 * Sources, best first (docs/service-facts.md#amounts-and-fees):
 *   payment_breakdown  — what SETTLED; authoritative               → processing_fee_source `settled`
 *   processing_fee     — the TERMS fixed at approval                → `terms`
 *   neither            — "omitted when no fee applies"              → `none`, processing fee 0
 */
import type { PaymentRow, ProcessingFeeSource, StatusClass } from '../model/rows.js';
import type { Flags } from './flags.js';

export interface FeeInputs {
  /** null = a direction we do not know: nothing can be totalled */
  direction: 'send' | 'receive' | null;
  category: string;
  kind: string;
  status_class: StatusClass;
  /** data.amount (or its deprecated twin, or the receipts), in the payment currency */
  amount: bigint | null;
  /** payment_breakdown, when the object is present (components null when malformed/unconvertible) */
  breakdown: { principal: bigint | null; network: bigint | null; processing: bigint | null } | null;
  /** processing_fee terms, when the object is present */
  terms: { bps: number | null; amount: bigint | null } | null;
  /** data.fees (or fee_msats / fee_sats): sends = network + processing; receives = processing. undefined = absent */
  reported_fees: bigint | null | undefined;
}

export type FeeColumns = Pick<
  PaymentRow,
  | 'principal_base'
  | 'network_fee_base'
  | 'processing_fee_base'
  | 'processing_fee_source'
  | 'processing_fee_bps'
  | 'processing_fee_terms_base'
  | 'processing_fee_settled_base'
  | 'processing_fee_diff_base'
  | 'total_base'
>;

export function computeFees(input: FeeInputs, flags: Flags): FeeColumns {
  const { breakdown, terms } = input;

  // The breakdown's principal is the settled one (partial/excess receives differ from data.amount).
  let principal = input.amount;
  if (breakdown && breakdown.principal !== null) {
    if (input.amount !== null && input.amount !== breakdown.principal) flags.add('breakdown_principal_differs');
    principal = breakdown.principal;
  }

  const settled = breakdown ? breakdown.processing : null;
  const termsBase = terms ? terms.amount : null;
  let source: ProcessingFeeSource;
  let processing: bigint | null;
  if (breakdown) {
    source = 'settled';
    processing = settled;
  } else if (terms) {
    source = 'terms';
    processing = termsBase;
  } else {
    // "Both fee objects are omitted when no fee applies" (docs/service-facts.md#amounts-and-fees): none means zero. A historical
    // payment that did pay one has it inside data.fees, so the send's total still ties.
    source = 'none';
    processing = 0n;
  }

  const network = networkFee(input, processing, flags);
  const total = totalOf(input.direction, principal, network, processing);

  if (input.status_class === 'completed') {
    if (principal === null) flags.add('unknown_principal');
    if (network === null || processing === null) flags.add('unknown_fee');
  }
  if (input.category === 'treasury' && ((processing ?? 0n) > 0n || (settled ?? 0n) > 0n || (termsBase ?? 0n) > 0n)) {
    // Treasury movements assess no processing fee (docs/service-facts.md#amounts-and-fees): keep what the service says, flag it.
    flags.add('treasury_processing_fee');
  }
  if (input.direction === 'receive' && breakdown && (breakdown.network ?? 0n) !== 0n) flags.add('receive_network_fee');

  return {
    principal_base: principal,
    network_fee_base: network,
    processing_fee_base: processing,
    processing_fee_source: source,
    processing_fee_bps: terms ? terms.bps : null,
    processing_fee_terms_base: termsBase,
    processing_fee_settled_base: settled,
    processing_fee_diff_base: breakdown && terms && settled !== null && termsBase !== null ? settled - termsBase : null,
    total_base: total,
  };
}

function networkFee(input: FeeInputs, processing: bigint | null, flags: Flags): bigint | null {
  if (input.breakdown) return input.breakdown.network;
  if (input.direction === null) return null;
  // Receives carry no network-fee field (the payer pays routing and mining), and an ACH batch has
  // none: zero by definition, not unknown.
  if (input.direction === 'receive' || input.kind === 'usdbatch') return 0n;
  // A send's data.fees is network + processing (OpenAPI `fees`): the network part is the rest.
  const reported = input.reported_fees;
  if (reported === undefined || reported === null || processing === null) return null; // unknown ≠ 0
  const network = reported - processing;
  if (network < 0n) flags.add('network_fee_negative');
  return network;
}

/**
 * Sends: the wallet is debited principal + network + processing (docs/service-facts.md#amounts-and-fees:
 * the processing fee is part of the amount debited, together with the network fee).
 * Receives: the wallet is credited the principal — a fixed-amount receive's processing fee is paid
 * by the payer on top (docs/service-facts.md#amounts-and-fees), any-amount receives must have a zero rate, treasury has none.
 */
function totalOf(direction: FeeInputs['direction'], principal: bigint | null, network: bigint | null, processing: bigint | null): bigint | null {
  if (direction === 'send') return principal !== null && network !== null && processing !== null ? principal + network + processing : null;
  if (direction === 'receive') return principal;
  return null;
}
