/**
 * What main.ts hands every command: the process's streams and environment, and the scrubber
 * that every secret is registered with as soon as it is loaded — so even the last-resort error
 * line main.ts prints cannot carry one.
 */
import type { SecretScrubber } from '../util/secret-scrubber.js';
import type { WallClock } from '../util/wall-clock.js';

export interface CliContext {
  env: Readonly<Record<string, string | undefined>>;
  cwd: string;
  stdout: NodeJS.WriteStream;
  stderr: NodeJS.WriteStream;
  scrubber: SecretScrubber;
  /** the one wall clock: every "now" a command derives reads it (PAYEXPORT_NOW pins it, util/wall-clock.ts) */
  clock: WallClock;
  /** the exit code a command decided (65 = completed with exceptions); errors throw instead */
  exitCode: number;
}
