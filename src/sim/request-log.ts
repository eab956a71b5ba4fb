import { createWriteStream, type WriteStream } from 'node:fs';
import type { Writable } from 'node:stream';

/**
 * One line per request (JSON lines): what a test needs to assert both the items AND the requests
 * made (docs/style.md#10-tests). Never a header, a body or a key: only method, path, query, status.
 */
export interface RequestLogEntry {
  /** arrival order, from 1 */
  seq: number;
  /** arrival time, RFC 3339 */
  at: string;
  method: string;
  path: string;
  /** the raw query string without `?` ('' when none) */
  query: string;
  status: number;
  /** requests in flight when this one arrived, itself included */
  in_flight: number;
  duration_ms: number;
  /** the fault injected, if any: 503, reset, dup, ... */
  fault?: string;
}

export interface RequestLogOptions {
  /** append JSON lines to this file */
  file?: string;
  /** or write them to this stream (e.g. process.stderr) */
  stream?: Writable;
  /** entries kept in memory (oldest dropped first); default 100,000 */
  capacity?: number;
}

export class RequestLog {
  private items: RequestLogEntry[] = [];
  private readonly capacity: number;
  private readonly sink: Writable | null;
  private readonly ownsSink: WriteStream | null;

  constructor(options: RequestLogOptions = {}) {
    this.capacity = options.capacity ?? 100_000;
    this.ownsSink = options.file ? createWriteStream(options.file, { flags: 'a' }) : null;
    this.sink = this.ownsSink ?? options.stream ?? null;
  }

  add(entry: RequestLogEntry): void {
    this.items.push(entry);
    if (this.items.length > this.capacity) this.items.splice(0, this.items.length - this.capacity);
    this.sink?.write(`${JSON.stringify(entry)}\n`);
  }

  /** Entries in arrival order of completion. */
  entries(): readonly RequestLogEntry[] {
    return this.items;
  }

  /** Entries whose path matches (substring or RegExp), optionally with a method. */
  filter(path: string | RegExp, method?: string): RequestLogEntry[] {
    return this.items.filter((e) => (method === undefined || e.method === method) && (typeof path === 'string' ? e.path.includes(path) : path.test(e.path)));
  }

  /** The highest `in_flight` seen: the client's effective concurrency. */
  maxInFlight(): number {
    return this.items.reduce((m, e) => Math.max(m, e.in_flight), 0);
  }

  clear(): void {
    this.items = [];
  }

  async close(): Promise<void> {
    const sink = this.ownsSink;
    if (sink) await new Promise<void>((resolve) => sink.end(resolve));
  }
}
