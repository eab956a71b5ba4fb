/**
 * The price checks of a run with `prices.autoFetch` (docs/prices.md#auto-fetch):
 * journal.price_fetch_failed and journal.price_gap say what the run's fetch of its window's closes
 * found. Two runs do not fetch, and show what the folder they follow shows instead:
 *
 *   a period closed on disk   its prices are frozen (the cache's closed-through mark): a fetch
 *                             could only list every missing close as a gap, where its close saw a
 *                             source unreachable, and amend the month for nothing
 *   `report`                  a rebuild from the snapshot: the files of the job that wrote the
 *                             folder, its fetch's findings included
 *
 * The findings are read from the latest version's exceptions.csv, the checks listed only when that
 * version lists them (its run auto-fetched); no folder on disk, nothing listed.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Finding } from '../model/results.js';
import { csvRows, unneutralized } from '../sinks/csv-read-back.js';
import type { PeriodOnDisk } from '../sinks/period-on-disk.js';
import { autoFetchPrices } from './auto-fetch-prices.js';
import type { JobEnv } from './job-env.js';
import type { PipelineSpec } from './pipeline-spec.js';

const PRICE_CHECKS: ReadonlySet<string> = new Set(['journal.price_fetch_failed', 'journal.price_gap']);

/** undefined: the checks are not listed (the run neither fetched nor follows a folder that did). */
export async function priceChecks(env: JobEnv, spec: PipelineSpec, onDisk: { jobDir: string; period: PeriodOnDisk } | null): Promise<Finding[] | undefined> {
  const follows = spec.command === 'report' || onDisk?.period.closed === true;
  if (!follows) return spec.pull ? autoFetchPrices(env, spec) : undefined;
  const latest = onDisk?.period.versions.at(-1);
  return onDisk === null || latest === undefined ? undefined : priceChecksOf(join(onDisk.jobDir, latest.name), latest.manifest);
}

async function priceChecksOf(dir: string, manifest: Record<string, unknown>): Promise<Finding[] | undefined> {
  const checks = Array.isArray(manifest['checks']) ? (manifest['checks'] as Array<{ check_id?: unknown }>) : [];
  if (!checks.some((c) => c.check_id === 'journal.price_fetch_failed')) return undefined;
  const rows = csvRows(await readFile(join(dir, 'exceptions.csv'), 'utf8'));
  const orNull = (v: string | undefined): string | null => (v === undefined || v === '' ? null : v);
  return rows
    .filter((r) => PRICE_CHECKS.has(r['check_id'] ?? ''))
    .map((r): Finding => ({
      check_id: r['check_id'] ?? '',
      severity: r['severity'] as Finding['severity'],
      subject_kind: r['subject_kind'] as Finding['subject_kind'],
      subject_id: r['subject_id'] ?? '',
      wallet_id: orNull(r['wallet_id']),
      currency: orNull(r['currency']),
      expected: orNull(r['expected']),
      actual: orNull(r['actual']),
      difference: orNull(r['difference']),
      message: unneutralized(r['message'] ?? ''),
    }));
}
