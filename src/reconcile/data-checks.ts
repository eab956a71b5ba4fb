/**
 * Turns normalization flags into findings: data that cannot be booked (errors), unknown values and
 * disagreements (warnings). Flags that only document a handled quirk (legacy field used, uppercase
 * BTC, converted amount, ...) stay in the rows' `flags` column and raise nothing.
 */
import { flagDetail, flagKind, type FlagKind } from '../normalize/flags.js';
import type { CheckId } from './catalogue.js';
import { finding } from './findings.js';
import type { Finding, SubjectKind } from '../model/results.js';

const CHECK_OF_FLAG: Partial<Record<FlagKind, CheckId>> = {
  malformed_amount: 'data.malformed_amount',
  missing_field: 'data.missing_field',
  malformed_value: 'data.malformed_value',
  unknown_currency: 'data.unknown_currency',
  unknown_direction: 'data.unknown_direction',
  unknown_entry_type: 'data.unknown_entry_type',
  currency_mismatch: 'data.currency_mismatch',
  unit_mismatch: 'data.currency_mismatch',
  unknown_status: 'data.unknown_enum',
  unknown_kind: 'data.unknown_enum',
  unknown_category: 'data.unknown_enum',
  unknown_route: 'data.unknown_enum',
  unknown_network: 'data.unknown_enum',
  unknown_receipt_type: 'data.unknown_enum',
  unknown_swap_step: 'data.unknown_enum',
  negative_amount: 'data.negative_amount',
  context_mismatch: 'data.context_mismatch',
  amount_disagreement: 'payment.legacy_disagreement',
  unknown_fee: 'payment.fee_unknown',
  unknown_principal: 'payment.fee_unknown',
  network_fee_negative: 'payment.reported_fees',
  treasury_processing_fee: 'payment.treasury_processing_fee',
  receive_network_fee: 'payment.receive_network_fee',
  frozen_funds: 'payment.frozen_funds',
};

const MESSAGE: Partial<Record<FlagKind, (detail: string) => string>> = {
  malformed_amount: (d) => `malformed amount at ${d}: not an integer in base units (value left unknown)`,
  missing_field: (d) => `required field ${d} is missing`,
  malformed_value: (d) => `malformed value at ${d}`,
  unknown_currency: (d) => `unknown currency ${d}: cannot be booked`,
  unknown_direction: (d) => `unknown direction ${d}: cannot be totalled`,
  unknown_entry_type: (d) => `unknown ledger event type ${d}: its effect on the balance is unknown`,
  currency_mismatch: (d) => `amount at ${d} is in another currency than its record and cannot be converted`,
  unit_mismatch: (d) => `unit at ${d} does not belong to the amount's currency (msats/cents/base units)`,
  unknown_status: (d) => `unknown status ${d} (kept verbatim)`,
  unknown_kind: (d) => `unknown payment kind ${d} (kept verbatim)`,
  unknown_category: (d) => `unknown payment category ${d} (kept verbatim)`,
  unknown_route: (d) => `unknown route ${d} (kept verbatim)`,
  unknown_network: (d) => `unknown network ${d} (kept verbatim)`,
  unknown_receipt_type: (d) => `unknown receipt/outflow type ${d}: its references were not read`,
  unknown_swap_step: (d) => `unknown swap step ${d} (kept in swap_steps)`,
  negative_amount: (d) => `negative amount at ${d} where the API documents a positive one (booked as signed)`,
  context_mismatch: (d) => `${d} differs from the scope the record was listed under`,
  amount_disagreement: (d) => `deprecated field ${d} disagrees with the Amount object (the Amount object is booked)`,
  unknown_fee: () => 'completed payment with an unknown network or processing fee: left out of the fee sums',
  unknown_principal: () => 'completed payment with an unknown principal: left out of the sums',
  network_fee_negative: () => 'data.fees is below the processing fee: the derived network fee is negative',
  treasury_processing_fee: () => 'treasury movement with a processing fee (the service assesses none on treasury)',
  receive_network_fee: () => 'receive with a non-zero network fee in its breakdown (booked as credited the principal)',
  frozen_funds: () => 'receive with frozen funds (compliance hold): the credited amount may differ',
};

export interface FlagSubject {
  subject_kind: SubjectKind;
  subject_id: string;
  wallet_id: string | null;
  currency: string | null;
}

/** One finding per flag that maps to a check; `unknown_field` flags are returned apart for aggregation. */
export function findingsFromFlags(flags: readonly string[], subject: FlagSubject): { findings: Finding[]; unknownFields: string[] } {
  const findings: Finding[] = [];
  const unknownFields: string[] = [];
  for (const flag of flags) {
    const kind = flagKind(flag) as FlagKind;
    if (kind === 'unknown_field') {
      unknownFields.push(flagDetail(flag));
      continue;
    }
    const check = CHECK_OF_FLAG[kind];
    if (!check) continue;
    const message = MESSAGE[kind]?.(flagDetail(flag)) ?? flag;
    findings.push(finding(check, { ...subject, message }));
  }
  return { findings, unknownFields };
}

/** Aggregates unknown fields across the run: one info finding per field path. */
export class UnknownFieldTally {
  private readonly seen = new Map<string, { count: number; first: string }>();

  add(paths: readonly string[], recordKind: string, recordId: string): void {
    for (const path of paths) {
      const key = `${recordKind}:${path}`;
      const entry = this.seen.get(key);
      if (entry) entry.count += 1;
      else this.seen.set(key, { count: 1, first: recordId });
    }
  }

  findings(): Finding[] {
    return [...this.seen].map(([key, { count, first }]) =>
      finding('data.unknown_field', {
        subject_kind: 'run',
        subject_id: key,
        wallet_id: null,
        actual: BigInt(count),
        message: `undocumented field ${key} on ${count} record(s), first ${first || '(no id)'}; kept in the raw record`,
      }),
    );
  }
}
