/**
 * The snapshot's record of exported journal entries, as a port (tables journal_entries and
 * journal_lines, migration 005). The journal (src/journal/) builds its entries from these lines
 * and decides what to export against this record; the store implements it in SQL
 * (src/store/sql/journal-exports.ts). The spool of `--no-db` has none: without a snapshot there is
 * no memory of what was exported, and every run emits its whole journal.
 */

export type Side = 'debit' | 'credit';

/** What a line stands for: the wallet leg, the principal's counter leg, a fee, or an adjustment. */
export type LineComponent = 'wallet' | 'principal' | 'network_fee' | 'processing_fee' | 'rounding' | 'remeasurement';

export interface SourceAmount {
  /** ≥ 0, in `unit` of `currency` */
  amount: bigint;
  /** btc | usd | asset:<hex> */
  currency: string;
  unit: string;
}

export interface JournalLine {
  account: string;
  side: Side;
  component: LineComponent;
  /** null on lines that have no source-currency amount (a remeasurement) */
  source: SourceAmount | null;
  /** books minor units; null until valued (and for an entry that needs a price) */
  amount: bigint | null;
  memo: string;
}

export type EntryKind = 'movement' | 'remeasurement';

/** The part of a journal entry (src/journal/model.ts `JournalEntry`) the record keeps. */
export interface RecordedEntry {
  entryNo: string;
  kind: EntryKind;
  /** YYYY-MM-DD in the books' (reporting) time zone */
  date: string;
  walletId: string;
  paymentId: string | null;
  ledgerRef: string | null;
  lines: readonly JournalLine[];
}

export interface ExportedEntry {
  entryNo: string;
  contentHash: string;
  corrections: number;
  lines: JournalLine[];
  /** the run that exported it (its closing run, or the later run that posted it late or corrected it) */
  runId?: string;
  /** posted as a late movement of a closed month (migration 014): numbered in the late series */
  late?: boolean;
}

export interface JournalExports {
  /** the exported record of these entry numbers */
  find(organizationId: string, entryNos: readonly string[]): Promise<Map<string, ExportedEntry>>;
  /** drops pending rows a failed run left for the organization */
  clearPending(organizationId: string): Promise<void>;
  /** records entries as pending for this run (with the corrections count they carry) */
  stage(organizationId: string, runId: string, period: string, entries: ReadonlyArray<{ entry: RecordedEntry; hash: string; corrections: number; late?: boolean }>): Promise<void>;
  /** the run's pending entries replace their exported versions; returns how many */
  confirm(runId: string): Promise<number>;
  /** the end of the latest closed period of the organization (the first open instant), or null */
  firstOpenInstant(organizationId: string): Promise<string | null>;
}
