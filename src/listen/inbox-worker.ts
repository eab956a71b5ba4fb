/**
 * The listener's worker: drains the inbox, wakes when the receiver stores a delivery, polls
 * otherwise (another listener's rows), and backs off after a failed batch. Deliveries it cannot
 * apply stay in the inbox for the next pass or the next start.
 */
import { applyDeliveries, type ApplyDeps } from './apply-deliveries.js';
import { count, type ListenerMetrics } from './metrics.js';
import type { Logger } from '../util/log.js';

export interface InboxWorker {
  /** resolves once the worker has stopped (after `stopping` aborts and its batch ends) */
  readonly done: Promise<void>;
  /** a delivery was stored: look now instead of at the next poll */
  wake(): void;
  /** resolves when the inbox has nothing due */
  drained(): Promise<void>;
}

export interface InboxWorkerOptions {
  apply: ApplyDeps;
  metrics: ListenerMetrics;
  log: Logger;
  pollMs: number;
  stopping: AbortSignal;
}

export function startInboxWorker(options: InboxWorkerOptions): InboxWorker {
  const { metrics, log, stopping } = options;
  let wake: (() => void) | null = null;
  // drained(): a waiter is answered by the first empty pass that STARTED after it asked, so a pass
  // already running when a delivery was committed cannot answer for it.
  let passes = 0;
  let idleWaiters: Array<{ after: number; resolve: () => void }> = [];
  const done = (async () => {
    let failures = 0;
    while (!stopping.aborted) {
      const pass = ++passes;
      try {
        const result = await applyDeliveries(options.apply);
        failures = 0;
        for (const [outcome, n] of Object.entries(result.outcomes)) if (n > 0) count(metrics.applied, outcome, n);
        if (result.deferred > 0) count(metrics.applied, 'deferred', result.deferred);
        if (result.claimed > 0) continue;
      } catch (error) {
        metrics.workerErrors++;
        failures++;
        log.error({ error: error instanceof Error ? error.message : String(error), failures }, 'inbox batch failed; its deliveries stay in the inbox and are retried');
        await pause(Math.min(30_000, 500 * 2 ** Math.min(failures, 6)), stopping);
        continue;
      }
      const answered = idleWaiters.filter((w) => w.after < pass);
      idleWaiters = idleWaiters.filter((w) => w.after >= pass);
      answered.forEach((w) => w.resolve());
      await pause(options.pollMs, stopping, (wakeUp) => (wake = wakeUp));
      wake = null;
    }
  })();
  return {
    done,
    wake: () => wake?.(),
    drained: () =>
      new Promise<void>((resolve) => {
        idleWaiters.push({ after: passes, resolve });
        wake?.();
      }),
  };
}

/** Waits `ms`, or less when `signal` aborts or `wakeUp` is called; leaves no listener behind. */
function pause(ms: number, signal: AbortSignal, onWake?: (wakeUp: () => void) => void): Promise<void> {
  return new Promise((resolve) => {
    const done = (): void => {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal.addEventListener('abort', done, { once: true });
    onWake?.(done);
  });
}
