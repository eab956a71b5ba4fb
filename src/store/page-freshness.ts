import type { Checkpoint, WriteStats } from '../model/ports.js';

/**
 * Whether a stream's next page is expected to hold new rows only, so that it is tried as new
 * (page-writer.ts skips the lookup of stored hashes for it). A stream's last page decides for the
 * stream; a stream's first page goes as the last page of its table went, whichever stream wrote
 * it: in a first pull every wallet's ledger is new from its first page on.
 */
export class PageFreshness {
  private readonly streams = new Map<string, boolean>();
  private readonly tables = new Map<string, boolean>();

  expectsNew(page: { readonly checkpoint: Checkpoint; readonly spec: { readonly table: string } }): boolean {
    return this.streams.get(page.checkpoint.stream) ?? this.tables.get(page.spec.table) ?? false;
  }

  /** What a committed page turned out to be. */
  remember(page: { readonly checkpoint: Checkpoint; readonly spec: { readonly table: string }; readonly rows: readonly unknown[] }, written: WriteStats): void {
    // an empty page (a stream's end) says nothing either way
    if (page.rows.length === 0) return;
    const allNew = written.updated === 0 && written.unchanged === 0;
    this.streams.set(page.checkpoint.stream, allNew);
    this.tables.set(page.spec.table, allNew);
  }
}
