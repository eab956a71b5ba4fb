import type { Checkpoint, WriteStats } from '../model/ports.js';
import { faultPoint } from '../util/fault-points.js';
import { createCommitGroup, type CommitGroup } from './commit-group.js';
import type { Db } from './db/db.js';
import type { StoreSchema } from './db/schema.js';
import { escapeText } from './encoding/text-escape.js';
import { PageFreshness } from './page-freshness.js';
import { saveCheckpoint } from './sql/checkpoints.js';
import { isUniqueViolation, loadRows, type LoadOptions } from './sql/load-rows.js';
import { dedupeByKey } from './sql/stage.js';
import type { TableSpec } from './sql/tables.js';

/** One page as a stream hands it in: its rows, the stream's checkpoint after it, its run. */
export interface PageWrite<R = unknown> {
  spec: TableSpec<R>;
  rows: readonly R[];
  checkpoint: Checkpoint;
  run: string;
  history?: LoadOptions['history'];
}

/**
 * Pages per group commit (commit-group.ts) and rows per group: a group is one transaction, so its
 * rows are held until it commits; eight streams' pages of 100 fit in one.
 */
const GROUP_PAGES = 16;
const GROUP_ROWS = 2000;

/** A group whose pages cannot go together: a key in two of its pages. Its transaction rolls back. */
class KeyInTwoPages extends Error {}

/**
 * A stream's pages into the snapshot (snapshot-writer.ts): each page in a transaction with its
 * checkpoint (sql/load-rows.ts: new rows COPied in, changed rows staged and upserted, unchanged
 * rows left alone), pages expected to be new grouped into one transaction when `groupPages`.
 */
export class PageWriter {
  private readonly freshness = new PageFreshness();
  /** pages committed by this writer: what the `store:commit` fault point counts */
  private pagesInTransaction = 0;
  private readonly group: CommitGroup<PageWrite, WriteStats>;

  constructor(
    private readonly db: Db,
    private readonly schema: StoreSchema,
    private readonly groupPages: boolean,
  ) {
    this.group = createCommitGroup<PageWrite, WriteStats>({
      writeGroup: (pages) => this.writeGroup(pages),
      writeOne: (page) => this.writeAlone(page),
      splitOn: (error) => error instanceof KeyInTwoPages || isUniqueViolation(error),
      maxItems: GROUP_PAGES,
      weight: (page) => page.rows.length,
      maxWeight: GROUP_ROWS,
    });
  }

  write<R>(ofTable: PageWrite<R>): Promise<WriteStats> {
    const page = ofTable as unknown as PageWrite;
    return this.groupPages && this.freshness.expectsNew(page) ? this.group.submit(page) : this.writeAlone(page);
  }

  /**
   * One page in one transaction with its checkpoint. A page of a stream whose previous page was
   * all new (a first pull, or the new end of a nightly one) skips the lookup of stored hashes and
   * is COPied as new; if one of its keys exists after all (unique violation), the transaction
   * rolls back and the page is written again the usual way, with the lookup. If a concurrent
   * writer inserted one of the page's new keys first (unique violation on that way too), the page
   * is retried once through staging + upsert, which merges with whatever is there.
   */
  private async writeAlone(page: PageWrite): Promise<WriteStats> {
    const ways = this.freshness.expectsNew(page) ? (['assumeNew', 'lookup', 'viaStaging'] as const) : (['lookup', 'viaStaging'] as const);
    let stats: WriteStats | undefined;
    for (const [index, way] of ways.entries()) {
      try {
        stats = await this.attempt(page, way);
        break;
      } catch (error) {
        if (!isUniqueViolation(error) || index === ways.length - 1) throw error;
      }
    }
    const written = stats as WriteStats;
    this.freshness.remember(page, written);
    return written;
  }

  private attempt(page: PageWrite, way: 'assumeNew' | 'lookup' | 'viaStaging'): Promise<WriteStats> {
    // A page commit need not wait for its WAL flush: it holds its own checkpoint, so a server
    // crash that loses the last pages' commits rewinds the stream to a checkpoint that is
    // still there, and the rerun reads those pages again (idempotent). The run's final
    // commit (finishRun) is synchronous and flushes all of them. Nothing else changes.
    return this.db.transaction(
      async (tx) => {
        const stats = await loadRows(tx, this.schema, page.spec, page.rows, { runId: escapeText(page.run), assumeNew: way === 'assumeNew', viaStaging: way === 'viaStaging', ...(page.history ? { history: page.history } : {}) });
        faultPoint('store:commit', { pages: ++this.pagesInTransaction });
        await saveCheckpoint(tx, this.schema, page.checkpoint, page.run);
        return stats;
      },
      { asyncCommit: true },
    );
  }

  /**
   * Pages expected to be new, several in one transaction: each table's rows in one COPY (with
   * their history rows), then each page's checkpoint in the order the pages came. A stored key
   * (unique violation) or a key in two of the group's pages rolls the group back, and each of its
   * pages is written alone (`writeAlone`, which finds out which rows are new).
   */
  private async writeGroup(pages: readonly PageWrite[]): Promise<WriteStats[]> {
    const written = await this.db.transaction(
      async (tx) => {
        const unique = pages.map((page) => dedupeByKey(page.spec, page.rows));
        for (const [spec, entries] of byTable(pages, unique)) {
          const rows = entries.flatMap((entry) => entry.rows);
          const history = entries[0]?.page.history;
          const stats = await loadRows(tx, this.schema, spec, rows, { runId: escapeText(entries[0]?.page.run ?? ''), assumeNew: true, ...(history ? { history } : {}) });
          if (stats.inserted !== rows.length) throw new KeyInTwoPages();
        }
        for (const page of pages) {
          faultPoint('store:commit', { pages: ++this.pagesInTransaction });
          await saveCheckpoint(tx, this.schema, page.checkpoint, page.run);
        }
        return pages.map((page, index) => {
          const inserted = (unique[index] as unknown[]).length;
          const stats: WriteStats = { inserted, updated: 0, unchanged: page.rows.length - inserted };
          if (page.history) stats.history = inserted;
          return stats;
        });
      },
      { asyncCommit: true },
    );
    // as for a page alone: what a page was is known once it is committed
    pages.forEach((page, index) => this.freshness.remember(page, written[index] as WriteStats));
    return written;
  }
}

/** A group's pages by table, in the order their tables first came, with each page's unique rows. */
function byTable(pages: readonly PageWrite[], unique: readonly (readonly unknown[])[]): Map<TableSpec<unknown>, { page: PageWrite; rows: unknown[] }[]> {
  const tables = new Map<TableSpec<unknown>, { page: PageWrite; rows: unknown[] }[]>();
  pages.forEach((page, index) => {
    const entries = tables.get(page.spec) ?? [];
    entries.push({ page, rows: unique[index] as unknown[] });
    tables.set(page.spec, entries);
  });
  return tables;
}
