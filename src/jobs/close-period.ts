/**
 * The close of a month-end, once its folder is published (docs/reports.md#the-folder-is-the-authority):
 * the period recorded as closed in the snapshot — or not, while payments of it are open — then
 * what its journal posted confirmed as exported and its lots confirmed as the record later runs
 * start from. Nothing is recorded before the folder is in place, so a failed run leaves the
 * snapshot as it was.
 */
import type { Snapshot } from '../store/snapshot.js';
import type { PeriodOnDisk } from '../sinks/period-on-disk.js';
import type { JobEnv } from './job-env.js';
import { markPricesClosed } from './mark-prices-closed.js';
import type { PipelineSpec } from './pipeline-spec.js';
import type { ReportStageResult } from './report-stage.js';

export interface CloseInput {
  snapshot: Snapshot;
  organizationId: string;
  runId: string;
  reported: ReportStageResult;
  /** the snapshot records the close already */
  recorded: boolean;
  /** the folder on disk says the period is closed, and the snapshot did not know: it learns the close */
  learned: PeriodOnDisk | null;
  /** the run's counts, where the confirmations are added */
  counts: Record<string, number>;
}

/** Why the month was not closed (its open items), or null; records and confirms what the run may. */
export async function closeAndConfirm(env: JobEnv, spec: PipelineSpec, c: CloseInput): Promise<string | null> {
  const notClosed = spec.closePeriod ? await recordClose(env, spec, c) : null;
  const closedBefore = c.recorded || c.learned !== null;
  const { snapshot, reported } = c;
  if (reported.journal?.discipline && snapshot.journalExports !== null && spec.closable && (closedBefore || (spec.closePeriod && notClosed === null))) {
    // the folder is published and the period closed: what its journal posted is now exported
    c.counts['journal_recorded'] = await snapshot.journalExports.confirm(c.runId);
  }
  if (reported.lots !== null && snapshot.lotsRecord !== null && spec.closable && spec.closePeriod && !c.recorded && notClosed === null) {
    // the folder is published and the period closed: its lots are now the record later runs start from
    c.counts['lots_recorded'] = await snapshot.lotsRecord.confirm(c.runId);
  }
  return notClosed;
}

async function recordClose(env: JobEnv, spec: PipelineSpec, c: CloseInput): Promise<string | null> {
  // the same decision the Overview and manifest already state (src/sinks/close-status.ts)
  if (c.reported.close.state === 'not_closed') {
    return `${spec.period.label} has ${c.reported.close.open_items} open item(s) (payments not yet completed, failed or expired; see open-items.csv); the period was not closed — rerun when they settle, or pass --allow-open`;
  }
  if (c.recorded) return null;
  // a close the snapshot learns from the folder keeps the folder's run and window
  const closedBy = c.learned?.closedBy ?? null;
  await c.snapshot.closePeriod({
    organizationId: c.organizationId,
    period: spec.period.label,
    window: closedBy?.window ?? spec.period.window,
    runId: c.learned === null ? c.runId : (closedBy?.runId ?? null),
    ...(c.learned === null ? {} : { note: `closed on disk: ${closedBy?.folder ?? `${spec.period.label}'s amendments`}, learned by run ${c.runId}` }),
  });
  // the cache never again appends a close this period could have used
  markPricesClosed(env, spec.period.window.to);
  return null;
}
