/**
 * SIGINT / SIGTERM during a job: the first signal aborts the run's AbortSignal (requests are
 * cancelled, the pull stops after the current page, the report folder is discarded) and the run
 * ends with exit 75 on its own. If it has not ended within GRACE_MS — a call that ignores the
 * abort, a hung filesystem, a database still connecting — or a second signal arrives, the process
 * stops anyway: this run's temp folders are removed synchronously, the one stderr line and the
 * JSON log record are written, and it exits 75. A forced stop is a kill like any other: the run
 * resumes from its checkpoints and stale locks are recognised by their dead pid.
 */
import { AppError } from '../util/errors.js';
import { ExitCode } from '../util/exit-codes.js';
import type { Logger } from '../util/log.js';
import type { SecretScrubber } from '../util/secret-scrubber.js';

/** The contract says 75 within 5 s of the signal; this leaves time for the forced cleanup. */
export const GRACE_MS = 3_000;

export interface WatchdogOptions {
  controller: AbortController;
  log: Logger;
  jsonLog: boolean;
  stderr: { write(text: string): unknown };
  scrubber: SecretScrubber;
  /** synchronous: removes what the run leaves half-written; returns what it removed */
  cleanup: () => string[];
  graceMs?: number;
  exit?: (code: number) => void;
}

export interface Watchdog {
  dispose(): void;
}

export function installInterruptWatchdog(options: WatchdogOptions): Watchdog {
  const exit = options.exit ?? ((code: number) => process.exit(code));
  let timer: NodeJS.Timeout | undefined;
  let forced = false;

  let settled = false;

  const force = (signal: NodeJS.Signals, why: string): void => {
    if (forced) return;
    forced = true;
    // The job ended and main has printed its line, yet something (a hung fs call, a socket) keeps
    // the process alive: end it with the code main chose.
    if (settled) return exit(typeof process.exitCode === 'number' ? process.exitCode : ExitCode.tempFail);
    const removed = options.cleanup();
    const reason = options.controller.signal.reason;
    const message = reason instanceof AppError ? reason.message : `interrupted by ${signal}; run again with the same arguments to resume`;
    if (options.jsonLog) options.log.error({ exit_code: ExitCode.tempFail, error_type: 'interrupted', forced: why, removed }, `run failed: ${message}`);
    options.stderr.write(options.scrubber.scrub(`payexport: ${message} (${why})`) + '\n');
    exit(ExitCode.tempFail);
  };

  const onSignal = (signal: NodeJS.Signals): void => {
    if (options.controller.signal.aborted) {
      force(signal, `second ${signal}: stopped without waiting`);
      return;
    }
    options.log.warn({ signal }, 'stopping: finishing the current page, then cleaning up');
    options.controller.abort(new AppError('tempFail', 'interrupted', `interrupted by ${signal}; run again with the same arguments to resume`));
    const graceMs = options.graceMs ?? GRACE_MS;
    timer = setTimeout(() => force(signal, `cleanup did not finish within ${graceMs / 1000} s: stopped without waiting`), graceMs);
  };

  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  return {
    dispose(): void {
      settled = true;
      timer?.unref();
      process.removeListener('SIGINT', onSignal);
      process.removeListener('SIGTERM', onSignal);
    },
  };
}
