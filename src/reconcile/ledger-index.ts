/**
 * One wallet's compact ledger state for joining payments to their entries: only what the payment
 * checks need (type, ids, currency, amount) of the entries effective from the window start on.
 * Entries before the window cannot belong to a payment created in it; they feed only the
 * roll-forward (rollforward.ts). Memory: one wallet's entries since the window start.
 */
import type { LedgerRow, UtcInstant } from '../model/rows.js';

export interface CompactEntry {
  entry_type: string;
  entry_id: string;
  payment_id: string | null;
  currency: string;
  amount_base: bigint | null;
  effective_time: UtcInstant;
  /** the entry's own payment_breakdown fees, when it carries one */
  network_fee_base: bigint | null;
  processing_fee_base: bigint | null;
}

export class LedgerIndex {
  private readonly byPayment = new Map<string, CompactEntry[]>();
  private readonly byEntryId = new Map<string, CompactEntry[]>();

  constructor(private readonly from: UtcInstant) {}

  add(row: LedgerRow): void {
    // An unreadable time ('' sorts first) is kept: better a join than a false "missing entry".
    if (row.effective_time !== '' && row.effective_time < this.from) return;
    const entry: CompactEntry = {
      entry_type: row.entry_type,
      entry_id: row.entry_id,
      payment_id: row.payment_id,
      currency: row.currency,
      amount_base: row.amount_base,
      effective_time: row.effective_time,
      network_fee_base: row.network_fee_base,
      processing_fee_base: row.processing_fee_base,
    };
    if (row.payment_id) push(this.byPayment, row.payment_id, entry);
    if (row.entry_id) push(this.byEntryId, row.entry_id, entry);
  }

  /**
   * The entries of a payment: those whose hold_id / credit_id is one of the payment's ledger_ids
   * (receipts, outflows, exchanges), plus those naming its payment_id. Each entry once.
   */
  entriesFor(paymentId: string, ledgerIds: readonly string[]): CompactEntry[] {
    const found = new Set<CompactEntry>();
    for (const id of ledgerIds) for (const entry of this.byEntryId.get(id) ?? []) found.add(entry);
    for (const entry of this.byPayment.get(paymentId) ?? []) found.add(entry);
    return [...found];
  }
}

function push<K, V>(map: Map<K, V[]>, key: K, value: V): void {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}
