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
  /** a report sheet grew */
  sheet(name: string, rows: number): void;
  stop(): void;
}

export const silentProgress: Progress = {
  phase: () => undefined,
  stream: () => undefined,
  sheet: () => undefined,
  stop: () => undefined,
};
