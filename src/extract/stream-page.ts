/**
 * The page step every paginated stream shares (payments, ledger, their time slices): drop the
 * items this sweep already saw (counted, not exported twice), normalize the rest, advance the
 * stream's progress; then, once the caller knows the position to resume from, write the rows with
 * their checkpoint while the next page is read (write-behind.ts).
 */
import type { SweepDeduper } from '../api/paginate.js';
import type { Checkpoint } from '../model/ports.js';
import type { ExtractContext, StreamProgress } from './context.js';
import type { WriteBehind } from './write-behind.js';

export function acceptPage<Raw, Row>(
  progress: StreamProgress,
  deduper: SweepDeduper,
  page: { readonly items: readonly Raw[]; readonly next: unknown },
  keyOf: (raw: Raw) => string,
  normalize: (raw: Raw) => Row,
): Row[] {
  const unique = deduper.unique(page.items, keyOf);
  progress.duplicates += page.items.length - unique.length;
  const rows = unique.map(normalize);
  progress.pages++;
  progress.rows += rows.length;
  progress.done = page.next === null;
  return rows;
}

/** Writes the page's rows with a checkpoint at `position` and the progress as it is now. */
export function writePageBehind<Row>(
  ctx: ExtractContext,
  writes: WriteBehind,
  progress: StreamProgress,
  position: string,
  rows: readonly Row[],
  write: (rows: readonly Row[], checkpoint: Checkpoint) => Promise<unknown>,
): Promise<void> {
  const checkpoint: Checkpoint = { run_key: ctx.runKey, stream: progress.stream, position, pages: progress.pages, rows: progress.rows, done: progress.done };
  const reported = { ...progress };
  return writes.write(async () => {
    await write(rows, checkpoint);
    ctx.onProgress?.(reported);
  });
}
