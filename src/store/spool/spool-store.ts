/**
 * The snapshot when there is no database (`--no-db`): JSON-lines files under a state folder,
 * implementing the same seams as Postgres (src/model/ports.ts).
 *
 * Durability: a page is appended to its stream's file and fsynced, THEN its checkpoint (with the
 * file's new length) is appended to the checkpoint journal and fsynced (checkpoint-journal.ts; both
 * asynchronous, so other streams keep pulling meanwhile). A run killed between the two leaves rows
 * past the checkpoint; `beginRun` truncates every stream file back to its checkpointed length, so a
 * resumed run re-fetches that page and nothing is doubled. `state.json` holds the run itself.
 * Reads de-duplicate by natural key (last write wins), which is what the database's upsert does.
 *
 * Memory: reads hold one wallet's rows at a time (they are sorted per wallet, like the database).
 */
import { closeSync, fsyncSync, openSync, readdirSync, readFileSync, renameSync, rmSync, truncateSync, writeSync, existsSync, statSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { createHash, type Hash } from 'node:crypto';
import { join } from 'node:path';
import { ensureFolderSync } from '../../util/ensure-folder.js';
import { APPEND_NO_FOLLOW, assertNotLink, clearTemporary, CREATE_NEW } from '../../util/no-follow.js';
import type { AssetRow, BillRecord, BillSummaryRow, LedgerRow, PaymentRow, SummaryBucketRow, WalletRow } from '../../model/rows.js';
import type { Finding } from '../../model/results.js';
import type { Checkpoint, PaymentQuery, ReportSource, RunInfo, RunStatus, SnapshotWriter, WriteStats } from '../../model/ports.js';
import type { Window } from '../../model/window.js';
import { windowContains } from '../../model/window.js';
import { CheckpointJournal } from './checkpoint-journal.js';
import { decodeRow, encodeRow } from './row-codec.js';
import { ownCopy } from '../../util/own-copy.js';

interface StreamState {
  /** the run the checkpoint belongs to: a journal line of another run is not this run's position */
  run_key: string | null;
  checkpoint: Checkpoint;
  /** byte length of the stream's file at this checkpoint */
  length: number;
  /** sha256 of those bytes: a resume trusts a file only if it still holds exactly what was checkpointed */
  sha256: string;
  file: string;
  /** wallets whose rows the file holds */
  wallets: string[];
}

interface SpoolState {
  run_key: string | null;
  run_id: string | null;
  status: RunStatus | null;
  window: Window | null;
  streams: Record<string, StreamState>;
  summaries_window: Window | null;
}

const BATCH = 1000;

export class SpoolStore implements SnapshotWriter, ReportSource {
  private state: SpoolState = { run_key: null, run_id: null, status: null, window: null, streams: {}, summaries_window: null };
  private knownIds: Set<string> | undefined;
  private readonly journal: CheckpointJournal;
  /**
   * What was found unusable and set aside (PROC-04): a state file or journal line that is not
   * this run's or does not parse, a stream whose file no longer holds what its checkpoint counts.
   * Each is a clean restart of what it covered — never a report built on it. The job logs them.
   */
  readonly setAside: string[] = [];
  /** each stream's running sha256 over its file's bytes (a chain's pages come one at a time) */
  private readonly hashes = new Map<string, Hash>();

  constructor(private readonly dir: string) {
    // the spool's own folders are never links: a planted one would carry every page elsewhere (SEC-09)
    assertNotLink(dir, 'the spool folder');
    ensureFolderSync(join(dir, 'streams'));
    assertNotLink(join(dir, 'streams'), 'the spool folder');
    this.journal = new CheckpointJournal(join(dir, 'checkpoints.jsonl'));
    const statePath = join(dir, 'state.json');
    if (existsSync(statePath)) {
      const read = readSpoolState(readFileSync(statePath));
      if (read) this.state = read;
      else this.setAside.push('state.json does not parse as a spool state: the run starts afresh');
    }
    this.state.streams = {};
    let foreign = 0;
    for (const line of this.journal.read<unknown>()) {
      const stream = readStreamState(line);
      if (stream === null || stream.run_key !== this.state.run_key) foreign++;
      else this.state.streams[stream.checkpoint.stream] = stream;
    }
    if (foreign > 0) this.setAside.push(`${foreign} checkpoint line(s) not of this run or of the wrong shape were ignored`);
    // summaries are read back for the run's window once any was written (also after a resume)
    if (Object.keys(this.state.streams).some((name) => name.startsWith('summary:'))) this.state.summaries_window ??= this.state.window;
  }

  // --- SnapshotWriter ---------------------------------------------------------------------

  async beginRun(run: RunInfo): Promise<Checkpoint[]> {
    // A failed run (503s beyond the budget, SIGTERM, a full disk) resumes like a killed one: every
    // checkpoint is a valid resume point, whatever ended the run (as in the Postgres snapshot).
    const resumable = this.state.run_key === run.run_key && (this.state.status === 'running' || this.state.status === 'failed');
    if (!resumable) {
      this.reset();
      this.state = { run_key: run.run_key, run_id: run.run_id, status: 'running', window: run.window, streams: {}, summaries_window: null };
      this.saveState();
      return [];
    }
    for (const stream of Object.values(this.state.streams)) {
      const path = join(this.dir, 'streams', stream.file);
      if (existsSync(path) && statSync(path).size > stream.length) truncateSync(path, stream.length);
      // a file shorter than its checkpoint, or rows that do not decode, lost what the checkpoint
      // counts: that stream alone starts again from its first page (the others still resume)
      const hash = hashOfFile(path, stream.length);
      if (hash && hash.copy().digest('hex') === stream.sha256) this.hashes.set(stream.checkpoint.stream, hash);
      else {
        delete this.state.streams[stream.checkpoint.stream];
        this.setAside.push(`stream ${stream.checkpoint.stream} does not hold what its checkpoint counts: pulled again from its start`);
      }
    }
    // A stream killed before its FIRST checkpoint has rows but no journal entry: nothing of it
    // counts, so its file goes (a summary read twice would otherwise be summed twice).
    const checkpointed = new Set(Object.values(this.state.streams).map((stream) => stream.file));
    for (const file of readdirSync(join(this.dir, 'streams'))) if (!checkpointed.has(file)) rmSync(join(this.dir, 'streams', file), { force: true });
    this.state.run_id = run.run_id;
    this.saveState();
    // a fresh journal holding the replayed checkpoints: appends must not follow a torn line
    writeAtomically(this.journal.path, Object.values(this.state.streams).map((stream) => `${JSON.stringify(stream)}\n`).join(''));
    return Object.values(this.state.streams).map((s) => s.checkpoint);
  }

  async upsertWallets(rows: readonly WalletRow[]): Promise<WriteStats> {
    return this.replaceKeyed('wallets.jsonl', rows, (r) => r.wallet_id);
  }

  async upsertAssets(rows: readonly AssetRow[]): Promise<WriteStats> {
    return this.replaceKeyed('assets.jsonl', rows, (r) => r.currency);
  }

  async writePaymentsPage(rows: readonly PaymentRow[], checkpoint: Checkpoint): Promise<WriteStats> {
    const stats = await this.appendPage(rows, checkpoint, (r) => r.wallet_id);
    // Ids only grow while a run writes (truncation happens in beginRun, before any write), so the
    // set is kept up to date rather than rebuilt from every file for each wallet's orphan check.
    // Each id is copied: the row's id is a view of the page's body, which it would keep for the run.
    if (this.knownIds) for (const row of rows) this.knownIds.add(ownCopy(row.payment_id));
    return stats;
  }

  async writeLedgerPage(rows: readonly LedgerRow[], checkpoint: Checkpoint): Promise<WriteStats> {
    return this.appendPage(rows, checkpoint, (r) => r.wallet_id);
  }

  async writeSummaries(_run_id: string, rows: readonly SummaryBucketRow[], checkpoint: Checkpoint): Promise<void> {
    this.state.summaries_window = this.state.window;
    await this.appendPage(rows, checkpoint, () => '');
  }

  /** Bills are few: they ride the same stream files and journal as every page (reads keep the last copy of each bill). */
  async writeBillsPage(records: readonly BillRecord[], checkpoint: Checkpoint): Promise<WriteStats> {
    return this.appendPage(records, checkpoint, () => '');
  }

  async writeBillSummary(_run_id: string, row: BillSummaryRow, checkpoint: Checkpoint): Promise<void> {
    await this.appendPage([row], checkpoint, () => '');
  }

  async writeFindings(_run_id: string, findings: readonly Finding[]): Promise<void> {
    writeAtomically(join(this.dir, 'findings.jsonl'), findings.map(encodeRow).join('\n'));
  }

  async finishRun(_run_id: string, status: RunStatus, _counts: Record<string, number>): Promise<void> {
    this.state.status = status;
    this.saveState();
    // A finished run leaves nothing to resume; the next run with the same key pulls afresh.
    if (status !== 'failed') this.reset();
  }

  // --- ReportSource -----------------------------------------------------------------------

  async wallets(_organization_id: string, wallet_ids?: readonly string[]): Promise<WalletRow[]> {
    const all = this.readKeyed<WalletRow>('wallets.jsonl', (r) => r.wallet_id);
    const wanted = wallet_ids && wallet_ids.length > 0 ? new Set(wallet_ids) : undefined;
    return [...all.values()].filter((w) => !wanted || wanted.has(w.wallet_id)).sort((a, b) => cmp(a.wallet_id, b.wallet_id));
  }

  async assets(): Promise<AssetRow[]> {
    return [...this.readKeyed<AssetRow>('assets.jsonl', (r) => r.currency).values()].sort((a, b) => cmp(a.currency, b.currency));
  }

  async summaries(_organization_id: string, window: Window): Promise<SummaryBucketRow[]> {
    const w = this.state.summaries_window;
    if (!w || w.from !== window.from || w.to !== window.to) return [];
    const rows = this.streamRows<SummaryBucketRow>((s) => s.checkpoint.stream.startsWith('summary:'));
    return rows;
  }

  async bills(_organization_id: string, window: Window): Promise<BillRecord[]> {
    const byId = new Map<string, BillRecord>();
    for (const record of this.streamRows<BillRecord>((s) => s.checkpoint.stream.startsWith('bills:'))) byId.set(record.bill.bill_id, record);
    return [...byId.values()]
      .filter((r) => r.bill.start_time < window.to && r.bill.end_time > window.from)
      .sort((a, b) => cmp(a.bill.line_of_credit_id, b.bill.line_of_credit_id) || cmp(a.bill.start_time, b.bill.start_time) || cmp(a.bill.bill_id, b.bill.bill_id));
  }

  /** The spool holds one run: its summaries are this window's when the run's window is. */
  async billSummaries(_organization_id: string, window: Window): Promise<BillSummaryRow[]> {
    const w = this.state.window;
    if (!w || w.from !== window.from || w.to !== window.to) return [];
    const byLoc = new Map<string, BillSummaryRow>();
    for (const row of this.streamRows<BillSummaryRow>((s) => s.checkpoint.stream.startsWith('bills-summary:'))) byLoc.set(row.line_of_credit_id, row);
    return [...byLoc.values()].sort((a, b) => cmp(a.line_of_credit_id, b.line_of_credit_id));
  }

  async *payments(query: PaymentQuery): AsyncIterable<PaymentRow[]> {
    const byId = new Map<string, PaymentRow>();
    for (const row of this.streamRows<PaymentRow>((s) => s.checkpoint.stream.startsWith('payments') && s.wallets.includes(query.wallet_id))) {
      if (row.wallet_id === query.wallet_id) byId.set(row.payment_id, row);
    }
    const rows = [...byId.values()]
      .filter((p) => windowContains(query.window, p.created_at) && (!query.openOnly || p.status_class === 'open' || p.status_class === 'unknown'))
      .sort((a, b) => cmp(a.created_at, b.created_at) || cmp(a.payment_id, b.payment_id));
    yield* batches(rows);
  }

  async *ledger(_organization_id: string, wallet_id: string): AsyncIterable<LedgerRow[]> {
    const byKey = new Map<string, LedgerRow>();
    for (const row of this.streamRows<LedgerRow>((s) => s.checkpoint.stream.startsWith('ledger') && s.wallets.includes(wallet_id))) {
      if (row.wallet_id === wallet_id) byKey.set(`${row.entry_type}\u0000${row.entry_id}`, row);
    }
    const rows = [...byKey.values()].sort(
      (a, b) => cmp(a.effective_time, b.effective_time) || cmp(a.entry_type, b.entry_type) || cmp(a.entry_id, b.entry_id),
    );
    yield* batches(rows);
  }

  async knownPaymentIds(_organization_id: string, payment_ids: readonly string[]): Promise<Set<string>> {
    if (!this.knownIds) {
      // every payment of the spool passes through here: one stream file at a time, only its ids kept
      this.knownIds = new Set();
      for (const rows of this.eachStreamRows<PaymentRow>((s) => s.checkpoint.stream.startsWith('payments'))) for (const row of rows) this.knownIds.add(ownCopy(row.payment_id));
    }
    return new Set(payment_ids.filter((id) => this.knownIds!.has(id)));
  }

  // --- what the pull asks (see ../sql/ledger-queries.ts for the database versions) -------------------

  /** In-window ledger entries of the wallet that name a payment the spool does not hold. */
  async orphanPaymentIds(organization_id: string, wallet_id: string, window: Window): Promise<string[]> {
    const named = new Set<string>();
    for await (const batch of this.ledger(organization_id, wallet_id)) {
      for (const row of batch) {
        if (row.payment_id !== null && windowContains(window, row.effective_time)) named.add(row.payment_id);
      }
    }
    const known = await this.knownPaymentIds(organization_id, [...named]);
    return [...named].filter((id) => !known.has(id)).sort();
  }

  // --- internals --------------------------------------------------------------------------

  /** One stream's pages come one at a time (a chain is sequential); different streams' overlap. */
  private async appendPage<T>(rows: readonly T[], checkpoint: Checkpoint, walletOf: (row: T) => string): Promise<WriteStats> {
    const existing = this.state.streams[checkpoint.stream];
    const file = existing?.file ?? fileNameFor(checkpoint.stream);
    const path = join(this.dir, 'streams', file);
    let length = existing?.length ?? 0;
    let hash = this.hashes.get(checkpoint.stream);
    if (!hash) {
      hash = createHash('sha256');
      this.hashes.set(checkpoint.stream, hash);
    }
    if (rows.length > 0) {
      const text = rows.map((r) => encodeRow(r) + '\n').join('');
      hash.update(text);
      const handle = await open(path, APPEND_NO_FOLLOW, 0o640);
      try {
        await handle.write(text);
        await handle.sync();
        length = (await handle.stat()).size;
      } finally {
        await handle.close();
      }
    }
    const wallets = new Set(existing?.wallets ?? []);
    // the state outlives the page: a wallet id kept as the row has it would keep the page's body for the run
    for (const row of rows) {
      const wallet = walletOf(row);
      if (!wallets.has(wallet)) wallets.add(ownCopy(wallet));
    }
    const state: StreamState = { run_key: this.state.run_key, checkpoint, length, sha256: hash.copy().digest('hex'), file, wallets: [...wallets].sort() };
    this.state.streams[checkpoint.stream] = state;
    await this.journal.append(JSON.stringify(state));
    // The spool cannot tell an insert from an update without reading back; reads de-duplicate.
    return { inserted: rows.length, updated: 0, unchanged: 0 };
  }

  private streamRows<T>(select: (s: StreamState) => boolean): T[] {
    const out: T[] = [];
    for (const rows of this.eachStreamRows<T>(select)) for (const row of rows) out.push(row);
    return out;
  }

  /** The selected streams' rows one stream file at a time, so a caller that keeps little holds one file, not all. */
  private *eachStreamRows<T>(select: (s: StreamState) => boolean): Generator<T[]> {
    const streams = Object.values(this.state.streams).filter(select).sort((a, b) => cmp(a.checkpoint.stream, b.checkpoint.stream));
    for (const stream of streams) {
      const path = join(this.dir, 'streams', stream.file);
      if (!existsSync(path)) continue;
      // `length` counts bytes, and pages of other streams may be landing meanwhile: cut the bytes, then decode
      const text = readFileSync(path).subarray(0, stream.length).toString('utf8');
      const rows: T[] = [];
      for (const line of text.split('\n')) if (line) rows.push(decodeRow<T>(line));
      yield rows;
    }
  }

  private replaceKeyed<T>(name: string, rows: readonly T[], keyOf: (row: T) => string): WriteStats {
    const all = this.readKeyed<T>(name, keyOf);
    let inserted = 0;
    let updated = 0;
    let unchanged = 0;
    for (const row of rows) {
      const key = keyOf(row);
      const before = all.get(key);
      if (before === undefined) inserted++;
      else if (encodeRow(before) === encodeRow(row)) unchanged++;
      else updated++;
      all.set(key, row);
    }
    const sorted = [...all.entries()].sort(([a], [b]) => cmp(a, b)).map(([, row]) => encodeRow(row));
    writeAtomically(join(this.dir, name), sorted.join('\n'));
    return { inserted, updated, unchanged };
  }

  private readKeyed<T>(name: string, keyOf: (row: T) => string): Map<string, T> {
    const path = join(this.dir, name);
    const map = new Map<string, T>();
    if (!existsSync(path)) return map;
    for (const line of readFileSync(path, 'utf8').split('\n')) {
      if (!line) continue;
      const row = decodeRow<T>(line);
      map.set(keyOf(row), row);
    }
    return map;
  }

  /** The run itself; the streams' checkpoints live in the journal. */
  private saveState(): void {
    writeAtomically(join(this.dir, 'state.json'), JSON.stringify({ ...this.state, streams: {} }));
  }

  private reset(): void {
    rmSync(join(this.dir, 'streams'), { recursive: true, force: true });
    rmSync(this.journal.path, { force: true });
    ensureFolderSync(join(this.dir, 'streams'));
    this.state.streams = {};
    this.hashes.clear();
    this.knownIds = undefined;
  }
}

const STATUSES: ReadonlySet<unknown> = new Set<RunStatus | null>(['running', 'succeeded', 'exceptions', 'failed', null]);

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isWindowOrNull(value: unknown): boolean {
  return value === null || (isRecord(value) && typeof value.from === 'string' && typeof value.to === 'string');
}

/** state.json as written by saveState, or null for anything else (garbage, cut short, another shape). */
function readSpoolState(bytes: Buffer): SpoolState | null {
  let value: unknown;
  try {
    value = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(bytes));
  } catch {
    return null;
  }
  if (!isRecord(value)) return null;
  const { run_key, run_id, status, window, summaries_window } = value;
  if (!(run_key === null || typeof run_key === 'string') || !(run_id === null || typeof run_id === 'string')) return null;
  if (!STATUSES.has(status) || !isWindowOrNull(window) || !isWindowOrNull(summaries_window ?? null)) return null;
  return { run_key, run_id, status: status as RunStatus | null, window: window as Window | null, streams: {}, summaries_window: (summaries_window ?? null) as Window | null };
}

/** One journal line as appendPage writes it; its file name must be the one its stream maps to (no path of its own). */
function readStreamState(value: unknown): StreamState | null {
  if (!isRecord(value) || !isRecord(value.checkpoint)) return null;
  const { run_key, checkpoint, length, sha256, file, wallets } = value;
  if (typeof run_key !== 'string' || typeof checkpoint.stream !== 'string' || typeof sha256 !== 'string') return null;
  if (typeof length !== 'number' || !Number.isSafeInteger(length) || length < 0) return null;
  if (file !== fileNameFor(checkpoint.stream) || !Array.isArray(wallets) || !wallets.every((w) => typeof w === 'string')) return null;
  return value as unknown as StreamState;
}

/** The sha256 state over the file's first `length` bytes, or null when the file is shorter. */
function hashOfFile(path: string, length: number): Hash | null {
  const hash = createHash('sha256');
  if (length === 0) return hash;
  if (!existsSync(path) || statSync(path).size < length) return null;
  return hash.update(readFileSync(path).subarray(0, length));
}

function writeAtomically(path: string, text: string): void {
  const temp = `${path}.tmp`;
  clearTemporary(temp);
  const fd = openSync(temp, CREATE_NEW, 0o640);
  try {
    writeSync(fd, text);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  renameSync(temp, path);
}

/** Stream names hold colons and UUIDs; file names get a safe form plus a short hash against collisions. */
function fileNameFor(stream: string): string {
  const safe = stream.replace(/[^A-Za-z0-9._-]/g, '-').slice(0, 120);
  const hash = createHash('sha256').update(stream).digest('hex').slice(0, 8);
  return `${safe}.${hash}.jsonl`;
}

function* batches<T>(rows: T[]): Generator<T[]> {
  for (let i = 0; i < rows.length; i += BATCH) yield rows.slice(i, i + BATCH);
}

function cmp(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
