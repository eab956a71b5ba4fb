/**
 * The two seams between the pipeline stages (docs/design.md#boundaries: `pull` and `report` can run apart).
 *
 *   extract ──pages──► SnapshotWriter  (Postgres snapshot, or a spool under the output folder with --no-db)
 *   ReportSource ──rows──► reconcile + sinks  (the same snapshot, read back in a stable order)
 *
 * and `Snapshot`, the one face a job holds: both seams plus the run lock, the incremental reads,
 * closed periods and the journal's record. src/store/snapshot.ts opens one (database or spool).
 *
 * A live `export` pulls into the snapshot and then reports from it, so `payexport report` over the
 * same window rebuilds byte-identical files by construction.
 */
import type { JournalExports } from './journal-record.js';
import type { LotsRecord } from './lots-record.js';
import type { AssetRow, BillRecord, BillSummaryRow, LedgerRow, PaymentRow, SummaryBucketRow, UtcInstant, WalletRow } from './rows.js';
import type { Finding } from './results.js';
import type { Window } from './window.js';

/**
 * One resumable position of one stream of one run. `run_key` identifies "the same arguments"
 * (command, window, organization, scope, shard), so a killed run started again resumes; `stream`
 * names the stream, e.g. `payments:wallet:<uuid>`, `ledger:wallet:<uuid>`, `summary:env:<uuid>`.
 */
export interface Checkpoint {
  run_key: string;
  stream: string;
  /** opaque to the store: a cursor, an offset, a time-slice bound — JSON text */
  position: string;
  pages: number;
  rows: number;
  done: boolean;
}

export interface RunInfo {
  run_id: string;
  run_key: string;
  command: string;
  organization_id: string;
  window: Window | null;
  /** parameters without secrets */
  parameters: Record<string, unknown>;
  started_at: UtcInstant;
}

export type RunStatus = 'running' | 'succeeded' | 'exceptions' | 'failed';

export interface WriteStats {
  inserted: number;
  updated: number;
  /** rows that matched the stored row exactly, were older than it, or repeated a key within the page */
  unchanged: number;
  /** payment pages on the Postgres snapshot: history rows appended (first sightings + changes of status/amounts/fees) */
  history?: number;
}

export interface SnapshotWriter {
  /** Records the run; returns the checkpoints left by an unfinished run with the same run_key. */
  beginRun(run: RunInfo): Promise<Checkpoint[]>;
  /** Saved state beginRun found unusable and set aside, each a clean restart of what it covered (docs/reliability.md PROC-04). */
  readonly setAside?: readonly string[];
  upsertWallets(rows: readonly WalletRow[]): Promise<WriteStats>;
  upsertAssets(rows: readonly AssetRow[]): Promise<WriteStats>;
  /** One atomic step: the page's rows are upserted AND its checkpoint saved, or neither. */
  writePaymentsPage(rows: readonly PaymentRow[], checkpoint: Checkpoint): Promise<WriteStats>;
  writeLedgerPage(rows: readonly LedgerRow[], checkpoint: Checkpoint): Promise<WriteStats>;
  writeSummaries(run_id: string, rows: readonly SummaryBucketRow[], checkpoint: Checkpoint): Promise<void>;
  /** One page of a line of credit's bills (each with its line items) and the stream's checkpoint, atomically. */
  writeBillsPage(records: readonly BillRecord[], checkpoint: Checkpoint): Promise<WriteStats>;
  /** A line of credit's bill summary for this run (replacing one written before by the same run). */
  writeBillSummary(run_id: string, row: BillSummaryRow, checkpoint: Checkpoint): Promise<void>;
  /** Findings of the report stage, kept per run for history. */
  writeFindings(run_id: string, findings: readonly Finding[]): Promise<void>;
  /** Ends the run; a succeeded run clears its run_key's checkpoints so the next run pulls afresh. */
  finishRun(run_id: string, status: RunStatus, counts: Record<string, number>): Promise<void>;
}

export interface PaymentQuery {
  organization_id: string;
  wallet_id: string;
  window: Window;
  /** only payments not yet settled (status class open or unknown): the Open items sheet */
  openOnly?: boolean;
  /** `raw` left out (null): the report renders no raw object, and decoding it is the costliest part of a read */
  withoutRaw?: boolean;
}

export interface LedgerQuery {
  /** `raw` left out (null), as for payments */
  withoutRaw?: boolean;
}

export interface ReportSource {
  /** Wallets in scope, sorted by wallet_id (inactive included). */
  wallets(organization_id: string, wallet_ids?: readonly string[]): Promise<WalletRow[]>;
  assets(): Promise<AssetRow[]>;
  /**
   * Summary buckets stored for the newest run that pulled exactly this window, or [] if none.
   * (Postgres snapshot: the newest such run per summary — each environment's own, and each
   * wallet's — so a resumed run or sharded pulls that each fetched some of them still yield all.)
   */
  summaries(organization_id: string, window: Window): Promise<SummaryBucketRow[]>;
  /** Payments of one wallet created in the window, sorted by (created_at, payment_id), in batches. */
  payments(query: PaymentQuery): AsyncIterable<PaymentRow[]>;
  /** Every ledger entry of one wallet (all time), sorted by (effective_time, entry_type, entry_id), in batches. */
  ledger(organization_id: string, wallet_id: string, options?: LedgerQuery): AsyncIterable<LedgerRow[]>;
  /** Bills whose [start_time, end_time) overlaps the window, with their line items, by (line_of_credit_id, start_time, bill_id). */
  bills(organization_id: string, window: Window): Promise<BillRecord[]>;
  /** The bill summaries of the newest run that pulled exactly this window, by line_of_credit_id ([] when none). */
  billSummaries(organization_id: string, window: Window): Promise<BillSummaryRow[]>;
  /** Which of these payment ids the snapshot holds at all (any window): for "ledger entry of an unknown payment". */
  knownPaymentIds(organization_id: string, payment_ids: readonly string[]): Promise<Set<string>>;
}

export interface ClosePeriodInput {
  organizationId: string;
  /** e.g. `2026-10` */
  period: string;
  window: Window;
  runId: string | null;
  note?: string | null;
}

/** Where a run keeps its snapshot, behind one face: a Postgres server, the embedded engine, or the `--no-db` spool. */
export interface Snapshot {
  readonly kind: 'postgres' | 'embedded' | 'spool';
  /** where it lives, safe to print (password redacted) */
  readonly target: string;
  writer(): SnapshotWriter;
  readonly source: ReportSource;
  /** one run at a time per (organization, job); exit 75 when held */
  lock(organizationId: string, job: string): Promise<{ release(): Promise<void> }>;
  /** the ledger read's start for a wallet: the stored high-water mark minus the look-back, or null */
  ledgerStart(organizationId: string, wallet: WalletRow, lookbackDays: number): Promise<string | null>;
  orphanPaymentIds(organizationId: string, wallet: WalletRow, window: Window): Promise<string[]>;
  openPaymentIds(organizationId: string, wallet: WalletRow): Promise<string[]>;
  isPeriodClosed(organizationId: string, period: string): Promise<boolean>;
  /** false when the period was already closed (the first close is kept) */
  closePeriod(input: ClosePeriodInput): Promise<boolean>;
  /** what was exported of closed periods' journals (null on the spool: no record) */
  readonly journalExports: JournalExports | null;
  /** the subledger's record of closed periods (null on the spool: no record) */
  readonly lotsRecord: LotsRecord | null;
  close(): Promise<void>;
}
