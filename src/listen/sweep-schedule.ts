/**
 * The listener's sweep: one now, then every `sweepMinutes`, never two at once. A sweep that finds
 * a month-end or nightly run holding the lock is skipped (the run reads the same payments); one
 * that fails is logged and the next one retries.
 */
import type { ListenConfig } from '../config/listen-schema.js';
import type { Logger } from '../util/log.js';
import { count, type ListenerMetrics } from './metrics.js';
import { runSweep, type SweepDeps } from './sweep.js';

export interface SweepSchedule {
  /** runs a sweep now, or joins the one running */
  sweepNow(): Promise<void>;
  /** no further sweeps; resolves when the one running has ended */
  stop(): Promise<void>;
}

export interface SweepScheduleOptions {
  sweep: Omit<SweepDeps, 'lookbackMs' | 'lockJob' | 'now' | 'signal'>;
  config: ListenConfig;
  metrics: ListenerMetrics;
  log: Logger;
  now: () => Date;
  stopping: AbortSignal;
}

export function scheduleSweeps(options: SweepScheduleOptions): SweepSchedule {
  const { config, metrics, log, now, stopping } = options;
  let sweeping: Promise<void> | null = null;
  const sweepOnce = async (): Promise<void> => {
    const startedMs = now().getTime();
    try {
      const result = await runSweep({ ...options.sweep, lookbackMs: config.sweepLookbackHours * 3_600_000, lockJob: config.sweepLockJob, now, signal: stopping });
      count(metrics.sweeps, result.outcome);
      if (result.outcome === 'done') {
        metrics.lastSweepAtMs = startedMs;
        metrics.sweepPayments += result.payments;
        log.info({ sweep_run: result.runId, payments: result.payments, inserted: result.inserted, updated: result.updated }, 'sweep finished');
      } else {
        log.info({ lock_job: config.sweepLockJob }, `sweep skipped: a ${config.sweepLockJob} run holds the lock`);
      }
    } catch (error) {
      if (stopping.aborted) return;
      count(metrics.sweeps, 'failed');
      log.error({ error: error instanceof Error ? error.message : String(error) }, 'sweep failed; the next one retries');
    }
  };
  const sweepNow = (): Promise<void> => {
    sweeping ??= sweepOnce().finally(() => (sweeping = null));
    return sweeping;
  };
  const timer = config.sweepMinutes > 0 ? setInterval(() => void sweepNow(), config.sweepMinutes * 60_000) : null;
  return {
    sweepNow,
    async stop() {
      if (timer) clearInterval(timer);
      await sweeping;
    },
  };
}
