/**
 * One report folder onto a file tree (SFTP, a mounted share) so that a reader never sees half of
 * it: every file goes into the hidden sibling `.<folder>.payexport-part/` (tree-leftovers.ts), is
 * read back and checked against the manifest's sha256, manifest.json goes in last, and only then
 * is the sibling renamed to `<folder>` — one rename, the reader sees nothing or everything.
 *
 * The rule is the one every destination follows (docs/delivery.md): the destination receives
 * exactly the files whose sha256 differs from what it holds. What it holds is read, never assumed:
 * a file in the partial folder that an earlier attempt left whole is kept; a file the published
 * folder already holds with the same bytes (the job run again, a new manifest over the same data)
 * gets a second name by a hard link, no byte sent; everything else is uploaded. A folder already
 * delivered with the same manifest and every file intact is left alone. A closed period already
 * delivered with other contents is never replaced (an amendment arrives as `<period>.amended-N/`).
 * Once the folder is published (or found unchanged), what earlier attempts left beside it is removed.
 */
import { DeliveryError } from '../util/delivery-error.js';
import { FAULTS_ARMED, faultPoint } from '../util/fault-points.js';
import { closedPeriod } from './closed-manifest.js';
import { inTurns } from './in-turns.js';
import type { FileToDeliver, ReportToDeliver } from './report-to-deliver.js';
import type { RemoteTree } from './remote-tree.js';
import { oldName, partName, removeLeftovers } from './tree-leftovers.js';
import { noTransfer, type TransferStats } from './transfer-stats.js';

/** Files moved or read at once: one file's round trips (open, stat, close) overlap another's bytes (bench/delivery). */
export const FILES_IN_FLIGHT = 3;

export async function deliverToTree(tree: RemoteTree, root: string, report: ReportToDeliver, runId: string): Promise<TransferStats> {
  const stats = noTransfer();
  const jobDir = tree.join(root, report.job);
  const final = tree.join(jobDir, report.folder);
  const delivered = await tree.read(tree.join(final, 'manifest.json'));
  const sameManifest = delivered !== null && delivered.equals(report.manifestBytes);
  if (sameManifest && (await intact(tree, final, report.files))) {
    stats.unchanged = true;
    stats.warnings.push(...(await removeLeftovers(tree, jobDir, report.folder)));
    return stats;
  }
  if (delivered !== null && !sameManifest && closedPeriod(delivered)) {
    throw new DeliveryError(`${tree.label}: ${report.job}/${report.folder} is a closed period already delivered with other contents; it is not overwritten (an amendment is delivered as its own .amended-N folder)`, false);
  }
  const part = tree.join(jobDir, partName(report.folder));
  await tree.mkdirp(part);
  await removeStrangers(tree, part, report);
  for (const dir of subfolders(report)) await tree.mkdirp(tree.join(part, ...dir.split('/')));
  const published = delivered !== null ? final : null;
  await inTurns(report.files, FILES_IN_FLIGHT, (file) => place(tree, part, published, file, stats));
  await place(tree, part, published, report.manifest, stats);
  if (await tree.exists(final)) {
    // the old version steps aside for the one rename that publishes the new one
    await tree.rename(final, tree.join(jobDir, oldName(report.folder, runId)));
    if (FAULTS_ARMED) faultPoint('deliver:renamed', { to: tree.kind });
  }
  await tree.rename(part, final);
  stats.warnings.push(...(await removeLeftovers(tree, jobDir, report.folder)));
  return stats;
}

/** One file into the partial folder: kept, linked or uploaded — whichever leaves the manifest's bytes there without sending what the server holds. */
async function place(tree: RemoteTree, part: string, published: string | null, file: FileToDeliver, stats: TransferStats): Promise<void> {
  const segments = file.path.split('/');
  const target = tree.join(part, ...segments);
  const held = await tree.digest(target, file.bytes);
  // a resumed delivery keeps what an earlier attempt already put there whole
  if (held === file.sha256) return;
  // never written through: the name may be a link to a published file
  if (held !== null) await tree.removeFile(target);
  if (published !== null && (await tree.link(tree.join(published, ...segments), target))) {
    if ((await tree.digest(target, file.bytes)) === file.sha256) return;
    await tree.removeFile(target);
  }
  await tree.upload(file.local, target);
  stats.filesSent++;
  stats.bytesSent += file.bytes;
  const got = await tree.digest(target, file.bytes);
  if (got !== file.sha256) {
    throw new DeliveryError(`${tree.label}: ${file.path} arrived with ${got === null ? 'nothing' : /^[0-9a-f]{64}$/.test(got) ? `sha256 ${got}` : got}, the manifest says ${file.sha256}`, true);
  }
  if (FAULTS_ARMED) faultPoint('deliver:uploaded', { to: tree.kind, files: stats.filesSent });
}

/** Whether every file of the published folder holds the manifest's bytes (read back in full). */
async function intact(tree: RemoteTree, dir: string, files: readonly FileToDeliver[]): Promise<boolean> {
  let whole = true;
  const differs = new Error('differs');
  try {
    await inTurns(files, FILES_IN_FLIGHT, async (file) => {
      if ((await tree.digest(tree.join(dir, ...file.path.split('/')), file.bytes)) === file.sha256) return;
      whole = false;
      throw differs;
    });
  } catch (error) {
    if (error !== differs) throw error;
  }
  return whole;
}

/** The folders the manifest's files sit in (`journal` for `journal/entries.beancount`), parents first. */
function subfolders(report: ReportToDeliver): string[] {
  const dirs = new Set<string>();
  for (const file of report.files) {
    const segments = file.path.split('/');
    for (let i = 1; i < segments.length; i++) dirs.add(segments.slice(0, i).join('/'));
  }
  return [...dirs].sort();
}

/** What an attempt for another manifest left in the partial folder that this manifest does not list: the published folder holds exactly its files. */
async function removeStrangers(tree: RemoteTree, part: string, report: ReportToDeliver): Promise<void> {
  const files = new Set([...report.files.map((f) => f.path), report.manifest.path]);
  const dirs = new Set(subfolders(report));
  const walk = async (rel: string): Promise<void> => {
    for (const entry of await tree.list(rel === '' ? part : tree.join(part, ...rel.split('/')))) {
      const path = rel === '' ? entry.name : `${rel}/${entry.name}`;
      const full = tree.join(part, ...path.split('/'));
      if (entry.dir && dirs.has(path)) await walk(path);
      else if (entry.dir) await tree.removeTree(full);
      else if (!files.has(path)) await tree.removeFile(full);
    }
  };
  await walk('');
}
