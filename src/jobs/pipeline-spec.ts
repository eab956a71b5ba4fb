/**
 * What a run of the pipeline is asked to do: `export`, `nightly`, `month-end` and `report` are
 * configurations of the one pipeline (pipeline.ts).
 */
import type { Period } from '../model/period.js';

export type JobName = 'export' | 'nightly' | 'month-end';

/**
 * What a job's folder is, as flags the pipeline reads: the pipeline never asks a job's name. They
 * are set where a run is asked for (the CLI's commands, the demo), from this table.
 */
export interface JobFlags {
  /** its period closes: a closed folder on disk is its close, and its journal and lots are recorded once published */
  closable: boolean;
  /** with prices.autoFetch, the price cache is filled before anything is valued (an ad hoc export values with what the cache holds) */
  fetchesPrices: boolean;
}

export const JOB_FLAGS: Readonly<Record<JobName, JobFlags>> = {
  export: { closable: false, fetchesPrices: false },
  nightly: { closable: false, fetchesPrices: true },
  'month-end': { closable: true, fetchesPrices: true },
};

export interface PipelineSpec extends JobFlags {
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
