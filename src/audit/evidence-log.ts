/**
 * The evidence of a pull (docs/audit.md#completeness-on-record): one JSON line per request the run
 * made — endpoint, parameters, cursor, status, item count, the sha256 of the body as received — then
 * one line per stream with what the run kept of it, and the run's totals. It is written to a file
 * as the requests happen (one small write per request, nothing held), so memory does not grow with
 * the payments, and it survives a kill: a resumed run appends to the same file, so the pages read
 * before the kill stay on record. The report copies it into the folder as `evidence.jsonl`, where
 * the signed manifest covers it.
 *
 * A run that never received a page of a wallet's streams (refused credentials, a malformed wallet
 * list, a stop during the first backoff) has nothing a resume could build on: its lines stay in
 * memory (a handful of discovery requests) and are dropped, so a refused run leaves nothing under the
 * output root. The file is created at the first wallet page the service answered with a 2xx, before
 * that page can be checkpointed.
 *
 * No header, key, token or password is ever in it: the request's path and query only (the
 * credential travels in a header), and every line passes the run's scrubber on its way out.
 */
import { closeSync, mkdirSync, openSync, rmSync, writeSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { ApiExchange } from '../api/client.js';
import type { LosslessJson } from '../api/json.js';

export const EVIDENCE_FILE = 'evidence.jsonl';
export const EVIDENCE_SCHEMA_VERSION = 1;

/** Where a run's evidence is gathered while it pulls: under the output root, by run key (a resumed run finds it). */
export function evidenceJournalPath(root: string, runKey: string): string {
  return join(root, '.audit', 'runs', `${runKey.replace(/[^A-Za-z0-9._-]/g, '_')}.jsonl`);
}

export interface EvidenceRun {
  run_id: string;
  run_key: string;
  command: string;
  window: { from: string; to: string; tz: string } | null;
  /** the run resumed an interrupted one: the lines above this one are that run's */
  resumed: boolean;
  /** whose books: a report after shards finds its shards' journals by it */
  organization_id?: string;
  /** `K/N` for a shard's pull (a report after the shards copies its journal in), else null */
  shard?: string | null;
}

export interface EvidenceStream {
  stream: string;
  pages: number;
  rows: number;
  duplicates: number;
  done: boolean;
}

const UUID_AFTER_WALLETS = /\/wallets\/([0-9a-f-]{36})(?:\/|$)/i;

export class EvidenceLog {
  /** the open file; null before the first wallet page (lines wait in `pending`) and after close */
  private fd: number | null = null;
  /** lines written before the file exists; null once it does (or the log is closed) */
  private pending: string[] | null = [];
  private requests = 0;
  private retries = 0;
  private bytes = 0;

  private constructor(
    readonly path: string,
    private readonly resumed: boolean,
    private readonly runId: string,
    private readonly scrub: (line: string) => string,
    private readonly clock: () => Date,
  ) {}

  /** set by `open`: what to do when the file cannot be written (absent: the error stops the run) */
  private onUnwritable: ((error: Error) => void) | undefined;

  /**
   * Starts (or, for a resumed run, continues at once) the journal at `path`. With `onUnwritable`,
   * a file that cannot be made or written is told to it once and the evidence dropped — a shard's
   * (its output root may not be writable where it runs; its pull goes on, docs/audit.md#sharded-pulls).
   */
  static open(path: string, run: EvidenceRun, options: { scrub: (line: string) => string; clock: () => Date; onUnwritable?: (error: Error) => void }): EvidenceLog {
    const log = new EvidenceLog(path, run.resumed, run.run_id, options.scrub, options.clock);
    log.onUnwritable = options.onUnwritable;
    log.line({ t: 'run', schema_version: EVIDENCE_SCHEMA_VERSION, ...run, at: options.clock().toISOString() });
    // a resumed run's file holds the pages before the kill: it is continued, whatever this run reads
    if (run.resumed) log.materialize();
    return log;
  }

  /** the file exists (a resume could build on it) */
  get written(): boolean {
    return this.pending === null && this.fd !== null;
  }

  request(exchange: ApiExchange): void {
    this.requests++;
    if (exchange.attempt > 1) this.retries++;
    this.bytes += exchange.bytes;
    const wallet = UUID_AFTER_WALLETS.exec(exchange.path)?.[1] ?? exchange.query.find(([k]) => k === 'wallet_id')?.[1] ?? null;
    if (wallet !== null && exchange.status !== null && exchange.status >= 200 && exchange.status < 300) this.materialize();
    this.line({
      t: 'request',
      run: this.runId,
      at: this.clock().toISOString(),
      path: exchange.path,
      params: exchange.query,
      wallet: wallet === null ? null : wallet.toLowerCase(),
      attempt: exchange.attempt,
      status: exchange.status,
      outcome: exchange.outcome,
      bytes: exchange.bytes,
      sha256: exchange.sha256,
      ...pageFields(exchange.body),
    });
  }

  stream(stream: EvidenceStream): void {
    this.line({ t: 'stream', run: this.runId, ...stream });
  }

  /** The run's totals, the figures the manifest's `api_requests`, `api_retries` and `api_bytes` repeat; closes the file. */
  end(): void {
    this.materialize();
    this.line({ t: 'end', run: this.runId, requests: this.requests, retries: this.retries, bytes: this.bytes });
    this.close();
  }

  /** Closes the file; lines still waiting for a wallet page are dropped (nothing to resume from). */
  close(): void {
    this.pending = null;
    if (this.fd === null) return;
    closeSync(this.fd);
    this.fd = null;
  }

  /** Creates (or, resumed, appends to) the file and writes the lines that waited for it. */
  private materialize(): void {
    if (this.pending === null) return;
    const waiting = this.pending;
    this.pending = null;
    this.guarded(() => {
      mkdirSync(dirname(this.path), { recursive: true, mode: 0o750 });
      this.fd = openSync(this.path, this.resumed ? 'a' : 'w', 0o640);
      if (waiting.length > 0) writeSync(this.fd, waiting.join(''));
    });
  }

  private line(record: Record<string, unknown>): void {
    const text = `${this.scrub(JSON.stringify(record))}\n`;
    if (this.pending !== null) this.pending.push(text);
    else if (this.fd !== null) this.guarded(() => writeSync(this.fd as number, text));
  }

  /** Runs a write; with `onUnwritable`, a failure is told once and the journal given up. */
  private guarded(write: () => void): void {
    if (this.onUnwritable === undefined) return write();
    try {
      write();
    } catch (error) {
      const tell = this.onUnwritable;
      this.onUnwritable = () => undefined;
      this.close();
      // a part of the journal would read as a pull cut short: none is better than that
      try {
        rmSync(this.path, { force: true });
      } catch {
        // the folder is not writable: nothing was written there either
      }
      tell(error as Error);
    }
  }
}

/** What pagination reads from a list page: its item count and where the service said the list goes on. */
function pageFields(body: LosslessJson | null): Record<string, unknown> {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) return { items: null };
  const page = body as Record<string, LosslessJson>;
  if (!Array.isArray(page['items'])) return { items: null };
  const out: Record<string, unknown> = { items: page['items'].length };
  if (Object.hasOwn(page, 'next_cursor')) out['next_cursor'] = typeof page['next_cursor'] === 'string' ? page['next_cursor'] : null;
  for (const field of ['has_more', 'total', 'limit', 'offset'] as const) {
    const value = page[field];
    if (typeof value === 'boolean' || typeof value === 'number') out[field] = value;
  }
  return out;
}
