/**
 * The side effects a job receives (docs/design.md#boundaries: jobs get `{ api, db, clock, log, outDir }`
 * passed in), so every pipeline runs in tests against the simulator and a real database.
 */
import type { LoadedConfig } from '../config/load.js';
import type { Logger } from '../util/log.js';
import type { SecretScrubber } from '../util/secret-scrubber.js';
import type { Progress } from './progress.js';

export interface JobEnv {
  /** this run's id (logs, the run record, the manifest, temp folder names) */
  runId: string;
  loaded: LoadedConfig;
  log: Logger;
  scrubber: SecretScrubber;
  clock: () => Date;
  cwd: string;
  /** the installation's signing key (src/audit/signing-key.ts), created on first need; absent: folders are not signed */
  signingKeyFile?: string;
  signal: AbortSignal;
  progress: Progress;
  /** human output (the plan, the closing summary); stdout in the CLI */
  print(line: string): void;
}
