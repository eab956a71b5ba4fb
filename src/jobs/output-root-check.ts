/**
 * The output root, checked before the pull (docs/reports.md#one-scope-per-output-root): the root
 * holds this run's scope (or none yet), and the period's folders already there can be read —
 * so a run that would be refused (exit 78) or that meets a folder it cannot read (exit 73) stops
 * before it pulls, and nothing is written. What the folders say about the period (closed on disk)
 * comes back to the pipeline, which treats it as the snapshot's own record of the close.
 */
import { stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { ReportRoot } from '../config/output-root.js';
import { outputError } from '../sinks/output-file.js';
import { outputScope } from '../sinks/output-scope.js';
import { readPeriodOnDisk, type PeriodOnDisk } from '../sinks/period-on-disk.js';
import { claimRoot, rootScopeProblem, type Adoption, type RootCheck } from '../sinks/root-scope.js';

export interface OutputRootState {
  check: RootCheck;
  adoption: Adoption;
  /** the period's versions on disk, as their manifests say */
  period: PeriodOnDisk;
}

export interface OutputRootInput {
  where: ReportRoot;
  organizationId: string;
  environmentIds: readonly string[];
  walletIds: readonly string[];
  /** `--adopt-out` */
  adopt: boolean;
  job: string;
  period: string;
}

/** Throws the refusal (78), an unreadable folder (73) or an I/O error (74); read only: nothing is created, so it runs before the writability probe. */
export async function checkOutputRoot(input: OutputRootInput): Promise<OutputRootState> {
  const scope = outputScope(input.organizationId, input.environmentIds, input.walletIds);
  const check: RootCheck = { root: input.where.root, scope, adopt: input.adopt, organizationsRoot: input.where.organizationsRoot };
  const jobDir = join(input.where.root, input.job);
  try {
    // a root that is there but no folder is the writability probe's to report (assertWritable, 74)
    if (!(await folderOrAbsent(input.where.root))) return { check, adoption: { folders: [], previous: null }, period: { versions: [], closed: false, closedBy: null } };
    const { problem, adoption } = await rootScopeProblem(check);
    if (problem !== null) throw problem;
    return { check, adoption, period: await periodOrNone(jobDir, input.period, scope) };
  } catch (error) {
    throw outputError(error, jobDir);
  }
}

/** A job folder that is a file is the report's to meet (exit 74 at its open, PROC-09b), with the pull kept for the rerun. */
async function periodOrNone(jobDir: string, period: string, scope: OutputRootState['check']['scope']): Promise<OutputRootState['period']> {
  try {
    return await readPeriodOnDisk(jobDir, period, scope);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOTDIR') return { versions: [], closed: false, closedBy: null };
    throw error;
  }
}

async function folderOrAbsent(path: string): Promise<boolean> {
  try {
    return (await stat(path)).isDirectory();
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'ENOENT';
  }
}

/** Records the root's scope once the run knows it is real (its discovery answered); exit 78 if another run took the root meanwhile. */
export async function claimOutputRoot(state: OutputRootState, runId: string, now: Date): Promise<void> {
  try {
    await claimRoot(state.check, runId, now, state.adoption);
  } catch (error) {
    throw outputError(error, state.check.root);
  }
}
