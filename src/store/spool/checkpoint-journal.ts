/**
 * The spool's checkpoints as an append-only journal (one JSON line per saved page, the last line of
 * a stream wins), written with group commit: the pages that arrive while an fsync runs share the
 * next one. Saving a checkpoint costs O(1) whatever the number of streams, and never blocks the
 * event loop — rewriting one state file per page did both, growing with the streams and all of it
 * synchronous: the pull could not keep its requests in flight.
 *
 * A line cut short by a crash is ignored when the journal is read back.
 */
import { existsSync, readFileSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { APPEND_NO_FOLLOW } from '../../util/no-follow.js';

interface Waiter {
  line: string;
  resolve(): void;
  reject(error: unknown): void;
}

export class CheckpointJournal {
  private queue: Waiter[] = [];
  private running = false;

  constructor(readonly path: string) {}

  /** Resolves once the line is durably on disk. */
  append(line: string): Promise<void> {
    return new Promise((resolve, reject) => {
      this.queue.push({ line, resolve, reject });
      if (!this.running) void this.drain();
    });
  }

  /** Every complete line, in order (a torn last line is dropped). */
  read<T>(): T[] {
    if (!existsSync(this.path)) return [];
    const out: T[] = [];
    for (const line of readFileSync(this.path, 'utf8').split('\n')) {
      if (line === '') continue;
      try {
        out.push(JSON.parse(line) as T);
      } catch {
        // the tail of a write interrupted by a crash
      }
    }
    return out;
  }

  private async drain(): Promise<void> {
    this.running = true;
    try {
      while (this.queue.length > 0) {
        const batch = this.queue.splice(0);
        try {
          const file = await open(this.path, APPEND_NO_FOLLOW, 0o640);
          try {
            await file.write(batch.map((w) => `${w.line}\n`).join(''));
            await file.sync();
          } finally {
            await file.close();
          }
          for (const waiter of batch) waiter.resolve();
        } catch (error) {
          for (const waiter of batch) waiter.reject(error);
        }
      }
    } finally {
      this.running = false;
    }
  }
}
