/**
 * The delivery step of a job run, after the report is published and never before: the folder the
 * run published (or found unchanged) goes to each destination chosen for the job, the outcomes are
 * recorded, and the summary gets one line per destination. A failed delivery never changes the
 * run's exit code nor touches the folder — `payexport deliver <folder>` retries it alone — but it
 * is never silent: the summary, the log and the notification say so.
 */
import type { DeliveryDestination } from '../config/delivery-schema.js';
import { deliversJob } from '../config/delivery-schema.js';
import type { LoadedConfig } from '../config/load.js';
import type { Env } from '../util/env.js';
import type { Logger } from '../util/log.js';
import type { SecretScrubber } from '../util/secret-scrubber.js';
import { deliverReport, type DeliverInput } from './deliver-report.js';
import type { DeliveryRecord } from './delivery-record.js';
import { recordDeliveries } from './record-deliveries.js';
import { readReportToDeliver } from './report-to-deliver.js';

export interface DeliveryRunInput {
  loaded: LoadedConfig;
  runId: string;
  cwd: string;
  processEnv: Env;
  scrubber: SecretScrubber;
  log: Logger;
  /** the published folder */
  dir: string;
  /** restrict to these destination names (`deliver --to`); all chosen for the job otherwise */
  only?: readonly string[];
  /** the job whose destinations apply; null = every destination (`payexport deliver`) */
  job: string | null;
  retry?: DeliverInput['retry'];
}

export function chosenDestinations(all: readonly DeliveryDestination[], job: string | null, only?: readonly string[]): DeliveryDestination[] {
  return all.filter((d) => (only && only.length > 0 ? only.includes(d.name) : job === null || deliversJob(d, job)));
}

/** Delivers and records; never throws. An unreadable folder is one failed record per destination. */
export async function deliverPublished(input: DeliveryRunInput): Promise<DeliveryRecord[]> {
  const { config } = input.loaded;
  const destinations = chosenDestinations(config.delivery.destinations, input.job, input.only);
  if (destinations.length === 0) return [];
  const log = input.log.child({ component: 'delivery' });
  let records: DeliveryRecord[];
  try {
    const report = await readReportToDeliver(input.dir);
    records = await deliverReport({ delivery: config.delivery, destinations, report, runId: input.runId, env: input.processEnv, cwd: input.cwd, scrubber: input.scrubber, log, ...(input.retry ? { retry: input.retry } : {}) });
  } catch (error) {
    const detail = input.scrubber.scrub(error instanceof Error ? error.message : String(error));
    records = destinations.map((d) => ({ destination: d.name, kind: d.kind, report: input.dir, remote: '', outcome: 'failed', files_sent: 0, bytes_sent: 0, attempts: 0, detail, duration_ms: 0 }));
    log.warn({ reason: detail }, `delivery of ${input.dir} failed: ${detail}`);
  }
  await recordDeliveries(input.loaded, input.cwd, input.runId, records, log);
  return records;
}

/** The summary's lines: one per destination, and the command that retries a failure. */
export function deliverySummaryLines(records: readonly DeliveryRecord[], dir: string): string[] {
  if (records.length === 0) return [];
  const lines = records.map((r) => {
    const what = r.outcome === 'failed' ? `FAILED after ${r.attempts} attempt(s): ${r.detail}` : r.outcome === 'unchanged' ? 'already there, unchanged (nothing sent)' : `delivered ${r.files_sent} file(s), ${r.bytes_sent.toLocaleString('en-US')} bytes, checked against the manifest`;
    return `delivery  ${r.destination} (${r.remote}): ${what}`;
  });
  if (records.some((r) => r.outcome === 'failed')) lines.push(`          the report is complete and stays in ${dir}; retry the delivery alone with: payexport deliver ${dir}`);
  return lines;
}
