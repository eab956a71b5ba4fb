/**
 * The snapshot when there is no database (`--no-db`): JSON-lines files under a state folder,
 * implementing the same seams as Postgres (src/model/ports.ts).
 *
 * Durability: a page is appended to its stream's file and fsynced, THEN its checkpoint (with the
 * file's new length) is appended to the checkpoint journal and fsynced (checkpoint-journal.ts; both
 * asynchronous, so other streams keep pulling meanwhile). A run killed between the two leaves rows
 * past the checkpoint; `beginRun` truncates every stream file back to its checkpointed length, so a
 * resumed run re-fetches that page and nothing is doubled. `state.json` holds the run itself.
 * The reads are the base class's (spool-reader.ts).
 *
 * CPU: a line carries its wallet, status and key as hints and no raw payload (stream-line.ts), so
 * a read skips other wallets' rows unparsed, and Open items decode only open payments.
 */
import { readdirSync, readFileSync, rmSync, truncateSync, existsSync, statSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { createHash, type Hash } from 'node:crypto';
import { join } from 'node:path';
import { ensureFolderSync } from '../../util/ensure-folder.js';
import { APPEND_NO_FOLLOW, assertNotLink } from '../../util/no-follow.js';
import type { AssetRow, BillRecord, BillSummaryRow, LedgerRow, PaymentRow, SummaryBucketRow, WalletRow } from '../../model/rows.js';
import type { Finding } from '../../model/results.js';
import type { Checkpoint, RunInfo, RunStatus, SnapshotWriter, WriteStats } from '../../model/ports.js';
import { CheckpointJournal } from './checkpoint-journal.js';
import { replaceKeyed } from './keyed-files.js';
import { encodeRow } from './row-codec.js';
import { fileNameFor, hashOfFile, inEarlierFormat, writeAtomically } from './spool-files.js';
import { readSpoolState, readStreamState, type StreamState } from './spool-state.js';
import { encodeStreamPage, type LineHints } from './stream-line.js';
import { SpoolReader } from './spool-reader.js';
import { ownCopy } from '../../util/own-copy.js';
import { utf8Join } from '../../util/utf8-text.js';

export class SpoolStore extends SpoolReader implements SnapshotWriter {
  private readonly journal: CheckpointJournal;
  /**
   * What was found unusable and set aside (PROC-04): a state file or journal line that is not
   * this run's or does not parse, a stream whose file no longer holds what its checkpoint counts.
   * Each is a clean restart of what it covered — never a report built on it. The job logs them.
   */
  readonly setAside: string[] = [];
  /** each stream's running sha256 over its file's bytes (a chain's pages come one at a time) */
  private readonly hashes = new Map<string, Hash>();

  constructor(dir: string) {
    super(dir);
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
      if (inEarlierFormat(path)) {
        delete this.state.streams[stream.checkpoint.stream];
        this.setAside.push(`stream ${stream.checkpoint.stream} was written in an earlier line format: pulled again from its start`);
      } else if (hash && hash.copy().digest('hex') === stream.sha256) this.hashes.set(stream.checkpoint.stream, hash);
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
    return replaceKeyed(join(this.dir, 'wallets.jsonl'), rows, (r) => r.wallet_id);
  }

  async upsertAssets(rows: readonly AssetRow[]): Promise<WriteStats> {
    return replaceKeyed(join(this.dir, 'assets.jsonl'), rows, (r) => r.currency);
  }

  async writePaymentsPage(rows: readonly PaymentRow[], checkpoint: Checkpoint): Promise<WriteStats> {
    const stats = await this.appendPage(rows, checkpoint, (r) => ({ wallet: r.wallet_id, status: r.status_class, key: r.payment_id }));
    // Ids only grow while a run writes (truncation happens in beginRun, before any write), so the
    // set is kept up to date rather than rebuilt from every file for each wallet's orphan check.
    // (IdSet packs a UUID into its table and copies any other id: a row's id may be a view of the
    // page's body, which it would keep for the run.)
    if (this.knownIds) for (const row of rows) this.knownIds.add(row.payment_id);
    return stats;
  }

  async writeLedgerPage(rows: readonly LedgerRow[], checkpoint: Checkpoint): Promise<WriteStats> {
    // the effective time and the payment named: the orphan check reads them without decoding a row
    return this.appendPage(rows, checkpoint, (r) => ({ wallet: r.wallet_id, status: r.effective_time, key: r.payment_id ?? '' }));
  }

  async writeSummaries(_run_id: string, rows: readonly SummaryBucketRow[], checkpoint: Checkpoint): Promise<void> {
    this.state.summaries_window = this.state.window;
    await this.appendPage(rows, checkpoint, NO_HINTS);
  }

  /** Bills are few: they ride the same stream files and journal as every page (reads keep the last copy of each bill). */
  async writeBillsPage(records: readonly BillRecord[], checkpoint: Checkpoint): Promise<WriteStats> {
    return this.appendPage(records, checkpoint, NO_HINTS);
  }

  async writeBillSummary(_run_id: string, row: BillSummaryRow, checkpoint: Checkpoint): Promise<void> {
    await this.appendPage([row], checkpoint, NO_HINTS);
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

  // --- internals --------------------------------------------------------------------------

  /** One stream's pages come one at a time (a chain is sequential); different streams' overlap. */
  private async appendPage<T extends object>(rows: readonly T[], checkpoint: Checkpoint, hintsOf: (row: T) => LineHints): Promise<WriteStats> {
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
      const bytes = utf8Join(encodeStreamPage(rows, hintsOf));
      hash.update(bytes);
      const handle = await open(path, APPEND_NO_FOLLOW, 0o640);
      try {
        const { bytesWritten } = await handle.write(bytes);
        if (bytesWritten !== bytes.length) throw new Error(`spool stream ${checkpoint.stream}: ${bytesWritten} of ${bytes.length} bytes written`);
        await handle.sync();
      } finally {
        await handle.close();
      }
      // the file was `length` long (beginRun cut it to its checkpoint; a chain's pages come one at a
      // time): no stat needed, and a short write throws above, so the run never checkpoints past it
      length += bytes.length;
    }
    const wallets = new Set(existing?.wallets ?? []);
    // the state outlives the page: a wallet id kept as the row has it would keep the page's body for the run
    for (const row of rows) {
      const { wallet } = hintsOf(row);
      if (!wallets.has(wallet)) wallets.add(ownCopy(wallet));
    }
    const state: StreamState = { run_key: this.state.run_key, checkpoint, length, sha256: hash.copy().digest('hex'), file, wallets: [...wallets].sort() };
    this.state.streams[checkpoint.stream] = state;
    await this.journal.append(JSON.stringify(state));
    // The spool cannot tell an insert from an update without reading back; reads de-duplicate.
    return { inserted: rows.length, updated: 0, unchanged: 0 };
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

const NO_HINTS = (): LineHints => ({ wallet: '', status: '' });
