/**
 * One item of `payexport doctor`'s checklist. Checks are small independent objects in a list
 * (checks/index.ts): each reads the loaded configuration and answers with one or more lines —
 * passed, failed with its fix, or skipped because something it needs failed first. Adding a
 * check (a delivery destination's probe, the price cache's coverage) is adding an object.
 */
import type { Env, LoadedConfig } from '../../config/load.js';
import type { SecretScrubber } from '../../util/secret-scrubber.js';

export type CheckLine =
  | { status: 'pass'; title: string; detail?: string }
  | { status: 'fail'; title: string; detail: string; fix: string }
  | { status: 'skip'; title: string; detail: string };

export interface DoctorContext {
  loaded: LoadedConfig;
  env: Env;
  cwd: string;
  scrubber: SecretScrubber;
  now(): Date;
}

export interface DoctorCheck {
  /** stable and short, e.g. `api-key`; also how a test or a later check refers to it */
  readonly id: string;
  run(ctx: DoctorContext): Promise<CheckLine[]>;
}

export const pass = (title: string, detail?: string): CheckLine => (detail === undefined ? { status: 'pass', title } : { status: 'pass', title, detail });
export const fail = (title: string, detail: string, fix: string): CheckLine => ({ status: 'fail', title, detail, fix });
export const skip = (title: string, detail: string): CheckLine => ({ status: 'skip', title, detail });
