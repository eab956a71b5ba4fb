/**
 * A job run wrapped in its notifications: the dead man's switch's `start` before the pipeline
 * makes its first request, the pipeline (report published, summary printed), then the message to
 * each destination, then their fate recorded. The run's own exit code — or its own error — comes
 * out unchanged whatever the destinations do.
 */
import { NOTIFY_JOBS, type NotifyJob } from '../config/notify-schema.js';
import type { JobEnv } from '../jobs/job-env.js';
import { AppError } from '../util/errors.js';
import type { PipelineOutcome, PipelineSpec } from '../jobs/pipeline.js';
import type { Env } from '../util/env.js';
import { recordNotifications } from './record-notifications.js';
import { buildRunMessage, type DeliveryNote } from './run-message.js';
import { RunNotifier } from './run-notifier.js';

export interface NotifyingRunInput {
  env: JobEnv;
  spec: PipelineSpec;
  /** the process environment (notification secrets are read from it) */
  processEnv: Env;
  /** false: `--no-notify` */
  enabled: boolean;
}

/** Which runs notify: the three jobs as scheduled; not a dry run, not a `report` rebuild. */
export function notifiedJob(spec: PipelineSpec): NotifyJob | null {
  if (spec.dryRun || spec.command === 'report') return null;
  return (NOTIFY_JOBS as readonly string[]).includes(spec.command) ? (spec.command as NotifyJob) : null;
}

/** A run's outcome, with what became of its report at the delivery destinations when it was delivered. */
export type DeliveredOutcome = PipelineOutcome & { deliveries?: readonly DeliveryNote[] };

export async function notifyingRun(input: NotifyingRunInput, run: () => Promise<DeliveredOutcome>): Promise<DeliveredOutcome> {
  const { env, spec } = input;
  const job = notifiedJob(spec);
  const notify = env.loaded.config.notify;
  if (!input.enabled || job === null || notify.destinations.length === 0) return run();
  const log = env.log.child({ component: 'notify' });
  const notifier = new RunNotifier({ notify, job, runId: env.runId, env: input.processEnv, cwd: env.cwd, scrubber: env.scrubber, log });
  if (!notifier.active) return run();

  const startedAt = env.clock();
  await notifier.start();
  const onAbort = (): void => {
    const reason: unknown = env.signal.reason;
    const text = env.scrubber.scrub(reason instanceof Error ? reason.message : 'interrupted');
    void notifier.finishPings(75, `exit 75\n${text}\n`);
  };
  env.signal.addEventListener('abort', onAbort, { once: true });
  let outcome: DeliveredOutcome | null = null;
  let failure: unknown = undefined;
  try {
    outcome = await run();
  } catch (error) {
    // as run-job.ts does: a run stopped by a signal failed because of the signal, whatever layer it surfaced through
    failure = env.signal.aborted && env.signal.reason instanceof AppError ? env.signal.reason : error;
  } finally {
    env.signal.removeEventListener('abort', onAbort);
  }

  try {
    const message = await buildRunMessage({
      runId: env.runId,
      job,
      command: spec.command,
      period: spec.period.label,
      window: spec.period.window,
      organizationId: env.loaded.config.organization ?? null,
      startedAt,
      finishedAt: env.clock(),
      outcome,
      error: failure,
      maxExceptions: notify.maxExceptions,
      scrubber: env.scrubber,
      ...(outcome?.deliveries ? { deliveries: outcome.deliveries } : {}),
    });
    const results = await notifier.finish(message);
    await recordNotifications(env.loaded, env.cwd, env.runId, results, log);
  } catch (error) {
    log.warn({ err: error instanceof Error ? error.message : String(error) }, 'notifications failed');
  }
  if (outcome === null) throw failure === undefined ? new Error('the run failed') : failure;
  return outcome;
}
