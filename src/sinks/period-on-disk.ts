/**
 * The folder is the authority (docs/reports.md#the-folder-is-the-authority): before a run publishes
 * `<job>/<period>/`, it reads the manifests of the versions already there — whatever snapshot it
 * uses, a Postgres server, the embedded engine or the spool, and whatever that snapshot remembers.
 *
 *   a version's manifest says closed, or an amendment exists  → the period is closed: never
 *                                                               replaced, the next `amended-N`
 *   a version without a readable manifest                     → exit 73, nothing written
 *   a version of another scope                                → exit 78 (one scope per root)
 *   none of these                                             → an open period, replaced in place
 *
 * Amendment numbers come from the folders on disk, so an `amended-1` another snapshot wrote is
 * never overwritten.
 */
import { join } from 'node:path';
import { amendmentNumber, existingVersions } from './folder-paths.js';
import { manifestSaysClosed, readFolderManifest, unreadableFolderError } from './folder-manifest.js';
import { sameScope, scopeOfManifest, scopeRefusal, type OutputScope } from './output-scope.js';

export interface PeriodVersion {
  /** `2026-10` or `2026-10.amended-N` */
  name: string;
  manifest: Record<string, unknown>;
}

export interface PeriodOnDisk {
  /** the base folder first, then the amendments in order */
  versions: PeriodVersion[];
  /** the period is closed on disk */
  closed: boolean;
  /** the first version that says so, and the run that wrote it (null when not closed, or closed only by an amendment's existence) */
  closedBy: { folder: string; runId: string | null; window: { from: string; to: string; tz: string } | null } | null;
}

export interface PublishTarget {
  name: string;
  amendment: number | null;
  /** an open period's folder is replaced in place; anything else must not exist yet */
  replace: boolean;
}

/**
 * Reads every version of `period` under `jobDir`. `scope`: the run's; a version of another scope
 * stops the run (null: not checked).
 */
export async function readPeriodOnDisk(jobDir: string, period: string, scope: OutputScope | null): Promise<PeriodOnDisk> {
  const versions: PeriodVersion[] = [];
  let closedBy: PeriodOnDisk['closedBy'] = null;
  for (const name of await existingVersions(jobDir, period)) {
    const dir = join(jobDir, name);
    const read = await readFolderManifest(dir);
    if (read.kind !== 'manifest') throw unreadableFolderError(dir, read.why);
    if (scope !== null) assertSameScope(dir, read.manifest, scope);
    versions.push({ name, manifest: read.manifest });
    if (closedBy === null && manifestSaysClosed(read.manifest)) {
      const runId = read.manifest['run_id'];
      closedBy = { folder: dir, runId: typeof runId === 'string' ? runId : null, window: windowOf(read.manifest) };
    }
  }
  // an amendment is written only for a closed period: its existence says so even if the base is gone
  const closed = closedBy !== null || versions.some((v) => v.name !== period);
  return { versions, closed, closedBy };
}

/**
 * Where this run publishes: the period itself while it is open everywhere, else the next
 * amendment after the last one on disk. `closedBySnapshot`: the snapshot records the close.
 */
export function publishTarget(period: string, onDisk: PeriodOnDisk, closedBySnapshot: boolean): PublishTarget {
  const closed = closedBySnapshot || onDisk.closed;
  const last = onDisk.versions[onDisk.versions.length - 1];
  if (!closed || last === undefined) return { name: period, amendment: null, replace: !closed };
  const n = (amendmentNumber(period, last.name) ?? 0) + 1;
  return { name: `${period}.amended-${n}`, amendment: n, replace: false };
}

function assertSameScope(dir: string, manifest: Record<string, unknown>, scope: OutputScope): void {
  const theirs = scopeOfManifest(manifest);
  // a period's versions are one set of books: never amended with another scope's files
  if (theirs === null || !sameScope(theirs.scope, scope)) throw scopeRefusal(`the report folder ${dir}`, theirs?.scope ?? null, scope, false);
}

function windowOf(manifest: Record<string, unknown>): { from: string; to: string; tz: string } | null {
  const w = manifest['window'] as { from?: unknown; to?: unknown; tz?: unknown } | undefined;
  return w !== undefined && typeof w.from === 'string' && typeof w.to === 'string' && typeof w.tz === 'string' ? { from: w.from, to: w.to, tz: w.tz } : null;
}
