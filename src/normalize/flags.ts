/**
 * Flags: one short machine-readable string per quirk met while normalizing a record, `kind:detail`
 * (e.g. `legacy_amount:data.amount_msats`, `unknown_status:settling_v2`). A flag never stops the
 * run; reconcile/data-checks.ts turns the ones that matter into findings. The vocabulary is
 * FLAG_KINDS below (docs/reconciliation.md lists it).
 */

export const FLAG_KINDS = {
  // --- cannot be booked (error findings) ---
  malformed_amount: 'an amount failed the strict integer grammar or is out of range; the value is null',
  missing_field: 'a required field is absent',
  malformed_value: 'a non-amount field has the wrong type or shape (instant, id, bps, rate, ...)',
  unknown_currency: 'a currency outside btc | usd | asset:<hex>; kept lowercased',
  unknown_direction: 'direction is neither send nor receive; fees and totals stay unknown',
  unknown_entry_type: 'a ledger event type we do not know; its effect on the balance is unknown',
  currency_mismatch: 'an amount is in another currency than its record and no quote converts it; the value is null',
  unit_mismatch: 'an amount states a unit that does not belong to its currency; the value is null',
  // --- accepted with a warning ---
  unknown_status: 'a status value the service added; kept verbatim, status_class unknown',
  unknown_kind: 'a payment type (kind) we do not know; kept verbatim',
  unknown_category: 'a payment_category we do not know; kept verbatim',
  unknown_route: 'a send route we do not know; kept verbatim',
  unknown_network: 'a wallet network we do not know; kept verbatim',
  unknown_receipt_type: 'a receipt/outflow type we do not know; its references are not read',
  unknown_swap_step: 'a swap step we do not know; kept in swap_steps',
  amount_disagreement: 'a deprecated field disagrees with the Amount object; the Amount object wins',
  negative_amount: 'an amount is negative where the API documents a positive one',
  unknown_fee: 'a completed payment whose network or processing fee cannot be determined (null, not 0)',
  unknown_principal: 'a completed payment whose principal cannot be determined',
  network_fee_negative: 'data.fees is below the processing fee, so the derived network fee is negative',
  treasury_processing_fee: 'a treasury movement carries a processing fee (the service says it assesses none)',
  receive_network_fee: 'a receive reports a network fee; the wallet is still taken to be credited the principal',
  context_mismatch: 'the record names another organization/environment/wallet than the one it was listed under',
  // --- informational (no finding) ---
  unknown_field: 'a field the OpenAPI document does not list; kept in raw',
  legacy_amount: 'the amount came from a deprecated field (amount_msats / amount_sats / fee_* / max_fee_*)',
  uppercase_currency: 'an old record spelled the currency in uppercase (BTC); lowercased',
  converted_amount: 'an amount in another currency was converted at the payment quote (half-even)',
  principal_from_receipts: 'the principal was summed from the receipts (on-chain amount_sats in whole sats)',
  breakdown_principal_differs: 'payment_breakdown.principal differs from data.amount; the breakdown wins',
  missing_category: 'payment_category absent (old record); booked as standard',
  frozen_funds: 'a receive has frozen (compliance-held) funds',
} as const;

export type FlagKind = keyof typeof FLAG_KINDS;

/** A flag's kind (the part before the first `:`). */
export function flagKind(flag: string): string {
  const colon = flag.indexOf(':');
  return colon < 0 ? flag : flag.slice(0, colon);
}

/** A flag's detail (after the first `:`), or '' when it has none. */
export function flagDetail(flag: string): string {
  const colon = flag.indexOf(':');
  return colon < 0 ? '' : flag.slice(colon + 1);
}

/** Unknown values are echoed into flags; keep them short and free of separators and control characters. */
export function token(value: unknown): string {
  const text = typeof value === 'string' ? value : JSON.stringify(value) ?? String(value);
  const cleaned = text.replace(/[^A-Za-z0-9_.\-/@+]/g, '_');
  return cleaned.length > 64 ? `${cleaned.slice(0, 64)}…` : cleaned;
}

/** An ordered, de-duplicated collection of flags for one record. */
export class Flags {
  private readonly items: string[] = [];
  private readonly seen = new Set<string>();

  add(kind: FlagKind, detail?: string): void {
    const flag = detail === undefined || detail === '' ? kind : `${kind}:${detail}`;
    if (this.seen.has(flag)) return;
    this.seen.add(flag);
    this.items.push(flag);
  }

  has(kind: FlagKind): boolean {
    return this.items.some((flag) => flagKind(flag) === kind);
  }

  toArray(): string[] {
    return [...this.items];
  }
}
