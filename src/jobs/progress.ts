/**
 * What a job tells the operator while it runs. The CLI picks a TTY implementation (bars) or a
 * log-line one (cron); jobs only call these methods.
 */
import type { StreamProgress } from '../extract/context.js';

export interface Progress {
  /** a named phase starts: `discovery`, `pull`, `report`, `publish` */
  phase(name: string): void;
  /** a stream wrote a page */
  stream(progress: StreamProgress): void;
  /** the streams each kind will pull (known after discovery; the dry run's plan): bars get a fixed denominator */
  expect?(streams: Readonly<Record<string, number>>): void;
  /** a report sheet grew */
  sheet(name: string, rows: number): void;
  /** `finished`: the run got to its summary (bars shown complete); otherwise it stopped early */
  stop(finished?: boolean): void;
}

export const silentProgress: Progress = {
  phase: () => undefined,
  stream: () => undefined,
  sheet: () => undefined,
  stop: () => undefined,
};
