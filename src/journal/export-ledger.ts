/**
 * The port to the record of exported journal entries (the snapshot's journal_entries and
 * journal_lines; src/journal/journal-exports.ts). The spool of `--no-db` has none: without a
 * snapshot there is no memory of what was exported, and every run emits its whole journal.
 */
import { createHash } from 'node:crypto';
import type { JournalEntry, JournalLine } from './model.js';

export interface ExportedEntry {
  entryNo: string;
  contentHash: string;
  corrections: number;
  lines: JournalLine[];
}

export interface JournalExports {
  /** the exported record of these entry numbers */
  find(organizationId: string, entryNos: readonly string[]): Promise<Map<string, ExportedEntry>>;
  /** drops pending rows a failed run left for the organization */
  clearPending(organizationId: string): Promise<void>;
  /** records entries as pending for this run (with the corrections count they carry) */
  stage(organizationId: string, runId: string, period: string, entries: ReadonlyArray<{ entry: JournalEntry; hash: string; corrections: number }>): Promise<void>;
  /** the run's pending entries replace their exported versions; returns how many */
  confirm(runId: string): Promise<number>;
  /** the end of the latest closed period of the organization (the first open instant), or null */
  firstOpenInstant(organizationId: string): Promise<string | null>;
}

/** What decides "the figures changed": the date and every line's account, side, component, source and amount. */
export function contentHash(entry: JournalEntry): string {
  const lines = entry.lines.map((l) => [l.account, l.side, l.component, l.source?.currency ?? '', (l.source?.amount ?? '').toString(), (l.amount ?? '').toString()].join('|'));
  return createHash('sha256').update([entry.date, ...lines].join('\n'), 'utf8').digest('hex');
}
