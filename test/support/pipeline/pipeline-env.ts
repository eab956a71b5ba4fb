/**
 * Runs the real pipeline in-process against the simulator: config through loadConfig (flags and
 * env, as the CLI does), a memory logger at debug level, a fixed clock. The snapshot is the real
 * Postgres when DATABASE_URL is set (a unique schema), else the embedded engine in a temp folder.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ConfigInput } from '../../../src/config/schema.js';
import { loadConfig } from '../../../src/config/load.js';
import type { JobEnv } from '../../../src/jobs/job-env.js';
import { JOB_FLAGS } from '../../../src/jobs/pipeline-spec.js';
import { runPipeline, type PipelineOutcome, type PipelineSpec } from '../../../src/jobs/pipeline.js';
import { silentProgress } from '../../../src/jobs/progress.js';
import { newRunId } from '../../../src/jobs/run-key.js';
import type { SimHandle } from '../../../src/sim/index.js';
import { openDatabaseSnapshot, type DatabaseSnapshot } from '../../../src/store/database-snapshot.js';
import { createMemoryLogger, type MemoryLogger } from '../../../src/util/log.js';
import { SecretScrubber } from '../../../src/util/secret-scrubber.js';
import { dayPeriod, rangePeriod } from '../../../src/model/period.js';

export interface PipelineTarget {
  cwd: string;
  schema: string;
  /** the real server, or null for the embedded engine under `cwd/data` */
  databaseUrl: string | null;
}

export function pipelineTarget(databaseUrl: string | null, schema: string): PipelineTarget {
  return { cwd: mkdtempSync(join(tmpdir(), 'payexport-pipeline-')), schema, databaseUrl };
}

export interface PipelineRun {
  outcome: PipelineOutcome;
  memory: MemoryLogger;
}

export async function runJobInProcess(
  sim: SimHandle,
  target: PipelineTarget,
  job: { command: 'export'; from: string; to: string } | { command: 'nightly'; date: string },
  now: Date,
  flags: Partial<ConfigInput> = {},
): Promise<PipelineRun> {
  const scrubber = new SecretScrubber();
  const loaded = loadConfig({
    flags: { baseUrl: sim.baseUrl, organization: sim.organizationId, out: 'reports', formats: ['csv'], dbSchema: target.schema, concurrency: 4, pageSize: 50, logLevel: 'debug', ...flags },
    env: { PAYEXPORT_API_KEY: sim.environments[0]!.apiKey, ...(target.databaseUrl ? { DATABASE_URL: target.databaseUrl } : {}) },
    cwd: target.cwd,
  });
  for (const secret of loaded.secrets.values) scrubber.add(secret);
  const memory = createMemoryLogger({ scrubber, level: 'debug' });
  const env: JobEnv = {
    runId: newRunId(now),
    loaded,
    log: memory.log,
    scrubber,
    clock: () => now,
    cwd: target.cwd,
    signal: new AbortController().signal,
    progress: silentProgress,
    print: () => undefined,
  };
  const period = job.command === 'export' ? rangePeriod(job.from, job.to, 'UTC', now) : dayPeriod(job.date, 'UTC', now);
  const spec: PipelineSpec = { command: job.command, job: job.command, ...JOB_FLAGS[job.command], period, pull: true, incremental: job.command === 'nightly', closePeriod: false, allowOpen: false, dryRun: false };
  return { outcome: await runPipeline(env, spec), memory };
}

/** The target's snapshot, opened for assertions (close it before the next run on the embedded engine). */
export function openTargetStore(target: PipelineTarget): Promise<DatabaseSnapshot> {
  return openDatabaseSnapshot({ schema: target.schema, ...(target.databaseUrl ? { databaseUrl: target.databaseUrl } : { dataDir: join(target.cwd, 'data') }) });
}
