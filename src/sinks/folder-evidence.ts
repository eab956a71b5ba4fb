/**
 * Recomputes a folder's pull from its `evidence.jsonl` (docs/audit.md#completeness-on-record):
 *
 * - every list the run read is whole: the pages of one list (its path and filters, the position
 *   parameters left out) follow each other — each page asks for the position the page before
 *   named (`next_cursor`, or the offset after its items) — and the last one says the list ends,
 *   or another chain of the same list carries on from where it stopped (a split ledger);
 *   a page read again after a kill (a resumed run) is allowed, a gap is not;
 * - the run's requests, retries and bytes counted from the lines equal what the file's `end`
 *   line and the manifest (`api_requests`, `api_retries`, `api_bytes`) say; so do those of every
 *   other run whose lines the file holds (a report after sharded pulls holds each shard's), and
 *   each of them ended — or was resumed by the run after it (a kill, then the same command);
 * - the rows the streams kept equal the manifest's `pulled_*` counts, and the duplicates its
 *   `duplicates_seen`;
 * - each count of the service's summaries compared (`compared` lines) has its difference right,
 *   and there are as many as summary-check.csv has rows.
 *
 * Read line by line: memory holds one state per list, never a page.
 */
import { createReadStream } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { EVIDENCE_FILE } from '../audit/evidence-log.js';
import { ListChains } from './evidence-chains.js';

interface Totals {
  requests: number;
  retries: number;
  bytes: number;
}

/** null when the evidence holds; else what is wrong, in one sentence. */
export async function checkFolderEvidence(dir: string, manifest: Record<string, unknown>): Promise<string | null> {
  const files = (manifest['files'] as Array<{ path?: unknown; rows?: unknown }> | undefined) ?? [];
  const counts = (manifest['counts'] as Record<string, unknown> | undefined) ?? {};
  const listed = files.some((f) => f.path === EVIDENCE_FILE);
  if (!listed) return typeof counts['api_requests'] === 'number' ? `the run pulled (${String(counts['api_requests'])} requests) but the folder holds no ${EVIDENCE_FILE}` : null;
  const runId = manifest['run_id'];
  const runs = new Map<string, RunLines>();
  let previous: RunLines | null = null;
  const pulled = new Map<string, number>();
  let duplicates = 0;
  let compared = 0;
  const chains = new ListChains();
  let n = 0;
  for await (const text of createInterface({ input: createReadStream(join(dir, EVIDENCE_FILE), 'utf8'), crlfDelay: Infinity })) {
    n++;
    let line: Record<string, unknown>;
    try {
      line = JSON.parse(text) as Record<string, unknown>;
    } catch {
      return `${EVIDENCE_FILE} line ${n} is not JSON`;
    }
    if (line['t'] === 'run') {
      // a resumed run carries on the one before it, which ended without an end line (a kill)
      if (line['resumed'] === true && previous !== null) previous.resumedBy = String(line['run_id']);
      previous = runOf(runs, line['run_id']);
    } else if (line['t'] === 'request') {
      const gap = chains.add(line, n);
      if (gap !== null) return `${EVIDENCE_FILE}: ${gap}`;
      const totals = runOf(runs, line['run']).counted;
      totals.requests++;
      if (typeof line['attempt'] === 'number' && line['attempt'] > 1) totals.retries++;
      totals.bytes += typeof line['bytes'] === 'number' ? line['bytes'] : 0;
    } else if (line['t'] === 'stream' && line['run'] === runId) {
      const kind = String(line['stream']).split(':')[0] ?? '';
      const key = `pulled_${kind.replace(/[^a-z]/g, '_')}`;
      pulled.set(key, (pulled.get(key) ?? 0) + Number(line['rows']));
      duplicates += Number(line['duplicates']);
    } else if (line['t'] === 'end') {
      runOf(runs, line['run']).end = { requests: Number(line['requests']), retries: Number(line['retries']), bytes: Number(line['bytes']) };
    } else if (line['t'] === 'compared') {
      compared++;
      const wrong = comparedLineWrong(line);
      if (wrong !== null) return `${EVIDENCE_FILE} line ${n}: ${wrong}`;
    }
  }
  const unfinished = chains.unfinished();
  if (unfinished !== null) return `${EVIDENCE_FILE}: ${unfinished}`;
  for (const [id, run] of runs) {
    if (run.end === null) {
      if (run.counted.requests > 0 && run.resumedBy === null) return `${EVIDENCE_FILE} has no end line for run ${id} (cut short?)`;
      continue;
    }
    for (const what of ['requests', 'retries', 'bytes'] as const) {
      if (run.counted[what] !== run.end[what]) return `${EVIDENCE_FILE} holds ${run.counted[what]} ${what} of run ${id}, its end line says ${run.end[what]} (a request line removed or added)`;
    }
  }
  const mine = runs.get(String(runId));
  // the folder's own run pulled (the manifest counts its requests, or the file holds nobody else's);
  // otherwise it is a report of the shards' pulls, each checked above
  if (typeof counts['api_requests'] === 'number' || mine !== undefined || runs.size === 0) {
    if (mine === undefined || mine.end === null) return `${EVIDENCE_FILE} has no end line for run ${String(runId)} (cut short?)`;
    for (const [what, counted] of [['requests', 'api_requests'], ['retries', 'api_retries'], ['bytes', 'api_bytes']] as const) {
      if (typeof counts[counted] === 'number' && counts[counted] !== mine.counted[what]) return `${EVIDENCE_FILE} holds ${mine.counted[what]} ${what} of run ${String(runId)}, the manifest's ${counted} says ${String(counts[counted])}`;
    }
  }
  for (const [key, rows] of pulled) {
    if (typeof counts[key] === 'number' && counts[key] !== rows) return `the streams of ${EVIDENCE_FILE} kept ${rows} rows (${key}), the manifest says ${String(counts[key])}`;
  }
  if (typeof counts['duplicates_seen'] === 'number' && counts['duplicates_seen'] !== duplicates) return `the streams of ${EVIDENCE_FILE} dropped ${duplicates} duplicates, the manifest says ${String(counts['duplicates_seen'])}`;
  const summaryRows = files.find((f) => f.path === 'summary-check.csv')?.rows;
  if (typeof summaryRows === 'number' && summaryRows !== compared) return `${EVIDENCE_FILE} compares ${compared} counts of the service, summary-check.csv has ${summaryRows} rows`;
  return null;
}

interface RunLines {
  counted: Totals;
  end: Totals | null;
  /** the run that resumed this one, when it was killed */
  resumedBy: string | null;
}

function runOf(runs: Map<string, RunLines>, id: unknown): RunLines {
  const key = String(id);
  let run = runs.get(key);
  if (run === undefined) {
    run = { counted: { requests: 0, retries: 0, bytes: 0 }, end: null, resumedBy: null };
    runs.set(key, run);
  }
  return run;
}

function comparedLineWrong(line: Record<string, unknown>): string | null {
  const integer = (value: unknown): bigint | null => (typeof value === 'string' && /^-?\d+$/.test(value) ? BigInt(value) : null);
  const computed = integer(line['computed_count']);
  const service = line['service_count'] === null ? null : integer(line['service_count']);
  const difference = integer(line['difference']);
  if (computed === null || difference === null || (line['service_count'] !== null && service === null)) return 'a compared count is not an integer';
  if (service !== null && computed - service !== difference) return `the difference ${difference} is not the computed count ${computed} less the service's ${service}`;
  return null;
}
