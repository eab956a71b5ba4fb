/**
 * One report folder onto a file tree (SFTP, a mounted share) so that a reader never sees half of
 * it: every file goes into a hidden sibling `.<folder>.part-<manifest sha>/`, is read back and
 * checked against the manifest's sha256, manifest.json goes in last, and only then is the sibling
 * renamed to `<folder>` — one rename, the reader sees nothing or everything.
 *
 * The partial folder is named after the manifest's hash, not the run: a delivery cut halfway is
 * resumed by the next attempt (or `payexport deliver`), which keeps each file already there whole
 * and checked, and sends only the rest. A folder already delivered with the same manifest and
 * every file intact is left alone: nothing is sent. A closed period already delivered with other
 * contents is never replaced (an amendment arrives as its own `<period>.amended-N/`).
 */
import { DeliveryError } from '../notify/delivery-error.js';
import { closedPeriod } from './closed-manifest.js';
import type { FileToDeliver, ReportToDeliver } from './report-to-deliver.js';
import type { RemoteTree } from './remote-tree.js';
import { noTransfer, type TransferStats } from './transfer-stats.js';


export function partName(report: ReportToDeliver): string {
  return `.${report.folder}.part-${report.manifest.sha256.slice(0, 16)}`;
}

export async function deliverToTree(tree: RemoteTree, root: string, report: ReportToDeliver, runId: string): Promise<TransferStats> {
  const stats = noTransfer();
  const jobDir = tree.join(root, report.job);
  const final = tree.join(jobDir, report.folder);
  const delivered = await tree.read(tree.join(final, 'manifest.json'));
  if (delivered !== null && delivered.equals(report.manifestBytes) && (await intact(tree, final, report.files))) {
    stats.unchanged = true;
    return stats;
  }
  if (delivered !== null && !delivered.equals(report.manifestBytes) && closedPeriod(delivered)) {
    throw new DeliveryError(`${tree.label}: ${report.job}/${report.folder} is a closed period already delivered with other contents; it is not overwritten (an amendment is delivered as its own .amended-N folder)`, false);
  }
  const part = tree.join(jobDir, partName(report));
  await tree.mkdirp(part);
  for (const file of [...report.files, report.manifest]) {
    const remote = tree.join(part, ...file.path.split('/'));
    // a resumed delivery keeps what an earlier attempt already put there whole
    if ((await tree.hashOf(remote)) === file.sha256) continue;
    const slash = file.path.lastIndexOf('/');
    if (slash > 0) await tree.mkdirp(tree.join(part, ...file.path.slice(0, slash).split('/')));
    await tree.upload(file.local, remote);
    stats.filesSent++;
    stats.bytesSent += file.bytes;
    await checkDelivered(tree, remote, file);
  }
  if (await tree.exists(final)) {
    // the old version steps aside for the one rename that publishes the new one
    const old = tree.join(jobDir, `.${report.folder}.old-${runId}`);
    await tree.rename(final, old);
    await tree.rename(part, final);
    await tree.removeTree(old);
  } else {
    await tree.rename(part, final);
  }
  return stats;
}

async function checkDelivered(tree: RemoteTree, remote: string, file: FileToDeliver): Promise<void> {
  const got = await tree.hashOf(remote);
  if (got !== file.sha256) {
    throw new DeliveryError(`${tree.label}: ${file.path} arrived with sha256 ${got ?? '(missing)'}, the manifest says ${file.sha256}`, true);
  }
}

async function intact(tree: RemoteTree, dir: string, files: readonly FileToDeliver[]): Promise<boolean> {
  for (const file of files) {
    if ((await tree.hashOf(tree.join(dir, ...file.path.split('/')))) !== file.sha256) return false;
  }
  return true;
}

