/**
 * The pull's evidence into the report folder (docs/audit.md#completeness-on-record): the run's
 * journal (src/audit/evidence-log.ts) — or, for a report after sharded pulls, each shard's —
 * streamed into `evidence.jsonl`, followed by one line per
 * count of the service's summaries the run compared its own rows with (summary-check.csv's rows,
 * so the file names what the service said beside the requests that brought it). The manifest lists
 * the file with its sha256, so the signature covers it.
 */
import { createReadStream } from 'node:fs';
import { EVIDENCE_FILE } from '../audit/evidence-log.js';
import type { SummaryCheckRow } from '../model/results.js';
import type { ReportFolder } from '../sinks/report-folder-api.js';

export async function copyEvidence(folder: ReportFolder, journals: readonly string[], compared: readonly SummaryCheckRow[], runId: string): Promise<void> {
  const file = folder.extraFile(EVIDENCE_FILE);
  let lines = 0;
  // the run's journal, or the shards' one after another (in shard order)
  for (const journal of journals) {
    for await (const chunk of createReadStream(journal, { encoding: 'utf8', highWaterMark: 256 * 1024 })) {
      const text = chunk as string;
      for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) lines++;
      await file.write(text);
    }
  }
  for (const row of compared) {
    const line = {
      t: 'compared',
      run: runId,
      scope: row.scope,
      scope_id: row.scope_id,
      environment_id: row.environment_id,
      direction: row.direction,
      status: row.status,
      currency: row.currency,
      kind: row.kind,
      service_count: row.api_count === null ? null : row.api_count.toString(),
      computed_count: row.computed_count.toString(),
      difference: row.difference.toString(),
      ok: row.ok,
    };
    await file.write(`${JSON.stringify(line)}\n`);
    lines++;
  }
  await file.close(lines);
}
