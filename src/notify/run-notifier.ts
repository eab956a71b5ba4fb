/**
 * One run's notifications: the dead man's switch pings around the run (start before any request,
 * then success or fail exactly once — also when a signal stops the run) and, once the report is
 * published, the message to every destination whose condition the exit code meets. Destinations
 * are told in parallel, each within its own time budget; nothing here throws, so nothing here can
 * change the run's report or exit code.
 */
import type { DestinationConfig, NotifyConfig, NotifyJob } from '../config/notify-schema.js';
import type { Logger } from '../util/log.js';
import type { SecretScrubber } from '../util/secret-scrubber.js';
import { conditionFor, conditionMet } from './conditions.js';
import type { DeliveryResult, NotifyEvent } from './delivery-result.js';
import { resolveDestinations, type ResolvedDestination } from './destination-secrets.js';
import type { AttemptsOutcome, DeliveryRetryPolicy } from '../util/delivery-attempts.js';
import type { Env } from '../util/env.js';
import type { RunMessage } from './run-message.js';
import { sendEmail } from './send-email.js';
import { pingBody, sendPing, sendSlack, sendWebhook, type PingEvent } from './send-http.js';

export interface RunNotifierInput {
  notify: NotifyConfig;
  /** the job whose conditions apply; null = every destination (`notify test`) */
  job: NotifyJob | null;
  runId: string;
  env: Env;
  cwd: string;
  scrubber: SecretScrubber;
  log: Logger;
}

export class RunNotifier {
  readonly results: DeliveryResult[] = [];
  private readonly destinations: ResolvedDestination[];
  private readonly pings: ResolvedDestination[];
  private started: Promise<void> = Promise.resolve();
  private finished: Promise<void> | null = null;

  constructor(private readonly input: RunNotifierInput) {
    const all = resolveDestinations(input.notify.destinations, input.env, input.cwd, input.scrubber);
    const job = input.job;
    const active = job === null ? all : all.filter((d) => conditionFor(d.config, job) !== 'never');
    this.pings = active.filter((d) => d.config.kind === 'ping');
    this.destinations = active.filter((d) => d.config.kind !== 'ping');
  }

  /** True when there is anything to send for this job. */
  get active(): boolean {
    return this.pings.length > 0 || this.destinations.length > 0;
  }

  /** The `start` ping to every dead man's switch; resolves when each was answered or gave up. */
  start(): Promise<void> {
    this.started = Promise.all(this.pings.map((d) => this.ping(d, 'start', ''))).then(() => undefined);
    return this.started;
  }

  /**
   * The closing ping (success for exit 0, fail otherwise), once per run whoever calls first: the
   * signal handler calls it at once (a supervisor may kill the process before cleanup ends), the
   * end of the run calls it again and finds it done.
   */
  finishPings(exitCode: number, body: string): Promise<void> {
    this.finished ??= this.started.then(() => Promise.all(this.pings.map((d) => this.ping(d, exitCode === 0 ? 'success' : 'fail', body)))).then(() => undefined);
    return this.finished;
  }

  /** The message to every destination whose condition is met, and the closing pings. */
  async finish(message: RunMessage): Promise<DeliveryResult[]> {
    const job = this.input.job;
    if (job === null) {
      // `notify test`: every destination once, pings included (as a log entry)
      await Promise.all([...this.pings, ...this.destinations].map((d) => this.deliver(d, message)));
      return this.results;
    }
    const deliveryFailed = message.delivery.some((d) => d.outcome === 'failed');
    const chosen = this.destinations.filter((d) => conditionMet(conditionFor(d.config, job), message.exit_code, deliveryFailed));
    await Promise.all([this.finishPings(message.exit_code, pingBody(message.exit_code === 0 ? 'success' : 'fail', message)), ...chosen.map((d) => this.deliver(d, message))]);
    return this.results;
  }

  private policy(): DeliveryRetryPolicy {
    return { budgetMs: this.input.notify.timeoutMs, attempts: this.input.notify.attempts };
  }

  private async ping(d: ResolvedDestination, event: Exclude<PingEvent, 'log'>, body: string): Promise<void> {
    await this.attempt(d.config, event, d.problem, () => sendPing(d.secret!, event, null, this.policy(), body));
  }

  private async deliver(d: ResolvedDestination, message: RunMessage): Promise<void> {
    const event: NotifyEvent = message.test ? 'test' : 'run';
    const config = d.config;
    await this.attempt(config, event, d.problem, () => {
      switch (config.kind) {
        case 'webhook':
          return sendWebhook({ url: config.url, secret: d.secret!, deliveryId: `${message.run_id}.${config.name}`, message, policy: this.policy() });
        case 'slack':
          return sendSlack(d.secret!, message, this.policy());
        case 'email':
          return sendEmail({ destination: config, password: d.secret, message, policy: this.policy(), cwd: this.input.cwd });
        case 'ping':
          // a sample must not raise or clear the alarm: healthchecks' `/log` records it, state unchanged
          return sendPing(d.secret!, 'log', message, this.policy());
      }
    });
  }

  private async attempt(config: DestinationConfig, event: NotifyEvent, problem: string | null, send: () => Promise<AttemptsOutcome>): Promise<void> {
    const began = Date.now();
    let outcome: AttemptsOutcome;
    if (problem !== null) outcome = { ok: false, attempts: 0, detail: problem };
    else {
      try {
        outcome = await send();
      } catch (error) {
        // a bug in a sender must not reach the run either
        outcome = { ok: false, attempts: 1, detail: error instanceof Error ? error.message : String(error) };
      }
    }
    const result: DeliveryResult = {
      destination: config.name,
      kind: config.kind,
      event,
      outcome: outcome.ok ? 'delivered' : 'failed',
      attempts: outcome.attempts,
      detail: this.input.scrubber.scrub(outcome.detail),
      duration_ms: Date.now() - began,
    };
    this.results.push(result);
    const fields = { destination: result.destination, kind: result.kind, event, attempts: result.attempts, duration_ms: result.duration_ms };
    if (outcome.ok) this.input.log.info(fields, `notification delivered to ${result.destination}`);
    else this.input.log.warn({ ...fields, reason: result.detail }, `notification to ${result.destination} failed: ${result.detail}`);
  }
}


