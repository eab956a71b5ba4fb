/**
 * What a run of the pipeline is asked to do: `export`, `nightly`, `month-end` and `report` are
 * configurations of the one pipeline (pipeline.ts).
 */
import type { Period } from '../model/period.js';

export type JobName = 'export' | 'nightly' | 'month-end';

export interface PipelineSpec {
  /** the command line's command, for the run record and the manifest */
  command: 'export' | 'nightly' | 'month-end' | 'report';
  /** the report folder's first level */
  job: JobName;
  period: Period;
  /** read the API into the snapshot (false for `report`) */
  pull: boolean;
  /** nightly: widen the payments sweep by the look-back and re-read open payments */
  incremental: boolean;
  /** month-end: record the period as closed (refused while items are open unless allowOpen) */
  closePeriod: boolean;
  allowOpen: boolean;
  dryRun: boolean;
  /** `--adopt-out`: the output root's folders without a recorded scope, or another selection of this organization's, become this run's (docs/reports.md#one-scope-per-output-root) */
  adoptOut?: boolean;
}
