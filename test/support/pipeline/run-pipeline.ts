/**
 * Runs the real pipeline (src/jobs/pipeline.ts `runPipeline`: pull → snapshot → report) against a
 * simulator, the way `payexport month-end` does, with a JobEnv built here: config through the real
 * loader (flags + env), a silent logger and progress, and a temporary working folder.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { loadConfig, type LoadInput } from '../../../src/config/load.js';
import type { JobEnv } from '../../../src/jobs/job-env.js';
import { runPipeline, type PipelineOutcome, type PipelineSpec } from '../../../src/jobs/pipeline.js';
import { silentProgress, type Progress } from '../../../src/jobs/progress.js';
import type { SimHandle } from '../../../src/sim/index.js';
import { createLogger } from '../../../src/util/log.js';
import { SecretScrubber } from '../../../src/util/secret-scrubber.js';

export interface PipelineRun {
  outcome: PipelineOutcome;
  /** the published report folder */
  dir: string;
  cwd: string;
  /** reads a CSV of the report folder as records (header → value) */
  csv(name: string): Promise<Array<Record<string, string>>>;
  manifest(): Promise<Manifest>;
  cleanup(): Promise<void>;
}

export interface Manifest {
  control_totals: Record<string, Record<string, string | number>>;
  checks: Array<{ check_id: string; severity: string; findings: number; passed: boolean; evaluated?: number; skipped_reason?: string | null }>;
  counts: Record<string, number>;
}

export interface RunOptions {
  sim: SimHandle;
  spec: PipelineSpec;
  tz: string;
  /** config flags over the defaults, e.g. `{ db: false }` (spool) or `{ dbSchema }` */
  flags?: LoadInput['flags'];
  /** env over an empty one, e.g. `{ DATABASE_URL }` */
  env?: Record<string, string>;
  /** what the job reports while it runs (default: nothing) */
  progress?: Progress;
  /** the working folder (default: a new temporary one), e.g. an earlier run's, to rebuild its report */
  cwd?: string;
}

let runs = 0;

export async function runAgainstSimulator(options: RunOptions): Promise<PipelineRun> {
  const cwd = options.cwd ?? (await mkdtemp(join(tmpdir(), 'payexport-e2e-')));
  const scrubber = new SecretScrubber([options.sim.bearerToken]);
  const loaded = loadConfig({
    flags: { baseUrl: options.sim.baseUrl, organization: options.sim.organizationId, tz: options.tz, formats: ['csv'], ...options.flags },
    env: { PAYEXPORT_BEARER_TOKEN: options.sim.bearerToken, ...options.env },
    cwd,
  });
  runs += 1;
  const runId = `e2e-${process.pid}-${runs}`;
  const env: JobEnv = {
    runId,
    loaded,
    log: createLogger({ runId, scrubber, level: 'error', format: 'json' }),
    scrubber,
    clock: () => new Date(),
    cwd,
    signal: new AbortController().signal,
    progress: options.progress ?? silentProgress,
    print: () => undefined,
  };
  const outcome = await runPipeline(env, options.spec);
  if (outcome.dir === null) throw new Error(`the run published no report (exit ${outcome.exitCode})`);
  const dir = outcome.dir;
  return {
    outcome,
    dir,
    cwd,
    async csv(name) {
      return parse(await readFile(join(dir, name), 'utf8'), { columns: true, bom: true }) as Array<Record<string, string>>;
    },
    async manifest() {
      return JSON.parse(await readFile(join(dir, 'manifest.json'), 'utf8')) as Manifest;
    },
    cleanup: () => rm(cwd, { recursive: true, force: true }),
  };
}
