/**
 * Building, ordering and judging findings. A finding never stops the run; `hasErrors` decides the
 * exit code (65 when any error-severity finding exists, docs/contracts.md#exit-codes).
 */
import { checkDefinition, type CheckId } from './catalogue.js';
import type { Finding, SubjectKind } from '../model/results.js';

export interface FindingInput {
  subject_kind: SubjectKind;
  subject_id: string;
  wallet_id: string | null;
  currency?: string | null;
  expected?: bigint | string | null;
  actual?: bigint | string | null;
  difference?: bigint | string | null;
  message: string;
}

const text = (value: bigint | string | null | undefined): string | null => (value === undefined || value === null ? null : value.toString());

/** A finding of `check`, with the severity the catalogue gives it. */
export function finding(check: CheckId, input: FindingInput): Finding {
  return {
    check_id: check,
    severity: checkDefinition(check).severity,
    subject_kind: input.subject_kind,
    subject_id: input.subject_id,
    wallet_id: input.wallet_id,
    currency: input.currency ?? null,
    expected: text(input.expected),
    actual: text(input.actual),
    difference: text(input.difference),
    message: input.message,
  };
}

/** True when any finding has severity `error`: the job then exits 65 (files are still written). */
export function hasErrors(findings: Iterable<Finding>): boolean {
  for (const f of findings) if (f.severity === 'error') return true;
  return false;
}

/** Code-unit order (never locale-dependent), for deterministic files. */
export function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
const cmp = compareText;

/** Deterministic order: check, wallet, subject, currency, message (code-unit order, never locale). */
export function compareFindings(a: Finding, b: Finding): number {
  return (
    cmp(a.check_id, b.check_id) ||
    cmp(a.wallet_id ?? '', b.wallet_id ?? '') ||
    cmp(a.subject_kind, b.subject_kind) ||
    cmp(a.subject_id, b.subject_id) ||
    cmp(a.currency ?? '', b.currency ?? '') ||
    cmp(a.message, b.message)
  );
}
