/**
 * The manifest.json of one published version of a report folder: what ran, on what window and
 * scope, with which formats, what it counted and checked, and every file with its hash. Built
 * per publish target, because period-publication.ts decides the folder's name (the period or an
 * amendment) only once it has read the disk again.
 */
import type { CheckResult, ControlTotals } from '../model/results.js';
import { instantFromDate } from '../model/instant.js';
import { tieOut } from '../reconcile/tie-out.js';
import { withOutcomes } from '../reconcile/check-outcome.js';
import { EXCEL_MAX_ROWS } from './cells.js';
import type { CloseStatus } from './close-status.js';
import type { CsvOptions } from './csv-table-writer.js';
import { controlTotalsJson, csvManifest, MANIFEST_SCHEMA_VERSION, type Manifest, type ManifestFile } from './manifest.js';
import type { PublishTarget } from './period-on-disk.js';
import type { XlsxRenderStats } from './render-cells.js';
import type { ReportFolderOptions } from './report-folder-api.js';
import { toolInfo } from './tool-info.js';

export interface ManifestFacts {
  options: ReportFolderOptions;
  startedAt: Date;
  /** read when the manifest is built: its `finished_at` is the time of writing */
  wallClock: () => Date;
  /** run parameters, already redacted */
  parameters: Record<string, unknown>;
  /** the CSV options when the folder writes CSV, else null */
  csv: CsvOptions | null;
  /** the workbook's summed render stats when the folder writes one, else null */
  xlsx: XlsxRenderStats | null;
  counts: Record<string, number>;
  close: CloseStatus;
  controlTotals: ControlTotals;
  checks: readonly CheckResult[];
  files: ManifestFile[];
}

export function publishedManifest(facts: ManifestFacts, target: PublishTarget): Manifest {
  const { options, xlsx } = facts;
  const verdict = tieOut(facts.checks);
  return {
    schema_version: MANIFEST_SCHEMA_VERSION,
    run_id: options.runId,
    command: options.command,
    tool: toolInfo(),
    job: options.job,
    period: options.period,
    folder: target.name,
    amendment: target.amendment,
    window: { from: options.window.from, to: options.window.to, tz: options.window.tz },
    scope: options.scope,
    started_at: instantFromDate(facts.startedAt),
    finished_at: instantFromDate(facts.wallClock()),
    parameters: facts.parameters,
    csv: facts.csv === null ? null : csvManifest(facts.csv),
    xlsx:
      xlsx === null
        ? null
        : { max_rows_per_sheet: options.maxRowsPerSheet ?? EXCEL_MAX_ROWS, control_chars_replaced: xlsx.replacedControlChars, texts_truncated: xlsx.truncatedTexts, amounts_as_text: xlsx.amountsAsText, display_amounts_rounded: xlsx.displayAmountsRounded },
    counts: facts.counts,
    tie_out: { ties: verdict.ties, errors: verdict.errors, warnings: verdict.warnings, info: verdict.info, headline: verdict.headline, not_run: verdict.notRun },
    close: facts.close,
    control_totals: controlTotalsJson(facts.controlTotals),
    checks: withOutcomes(facts.checks),
    files: facts.files,
  };
}
