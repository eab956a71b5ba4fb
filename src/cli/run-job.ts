/**
 * The thin adapter between a command and a job (docs/style.md#8-the-command-line): parse → validated config →
 * logger, progress and cancellation → one job → exit code; clean up in `finally`.
 */
import { describeConfig, loadConfig, type LoadedConfig } from '../config/load.js';
import { configFileLine } from '../config/config-file-choice.js';
import { reportRoot } from '../config/output-root.js';
import type { JobEnv } from '../jobs/job-env.js';
import { signingKeyPath } from '../audit/signing-key.js';
import { silentProgress } from '../jobs/progress.js';
import { createLogger, defaultLogFormat } from '../util/log.js';
import { AppError, exitCodeOf } from '../util/errors.js';
import type { CliContext } from './cli-context.js';
import { flagsFromArgs, type CommonArgs } from './common-options.js';
import { newRunId } from '../jobs/run-key.js';
import { logProgress, ttyProgress } from './tty-progress.js';
import { installInterruptWatchdog } from './interrupt-watchdog.js';
import { removeRunTempFoldersSync } from '../sinks/run-temp-folders.js';
import { setMaxListeners } from 'node:events';

export interface JobCommandOptions {
  /** flags merged over the user's (e.g. the demo's own database) */
  overrideFlags?: Partial<Parameters<typeof loadConfig>[0]['flags']>;
  /** the environment to read instead of the process's (the demo's is hermetic: the simulator's token only) */
  env?: Readonly<Record<string, string | undefined>>;
  /** a secret that cannot be read is recorded, not thrown: for doctor, and commands that send no API request */
  collectSecretProblems?: boolean;
  /** false: the run's log does not open with the config file's line (the demo, whose file is always its own) */
  sayConfig?: boolean;
}

export function loadCliConfig(ctx: CliContext, args: CommonArgs, options: JobCommandOptions = {}): LoadedConfig {
  const loaded = loadConfig({ flags: { ...flagsFromArgs(args), ...options.overrideFlags }, env: options.env ?? ctx.env, cwd: ctx.cwd, collectSecretProblems: options.collectSecretProblems === true });
  for (const secret of loaded.secrets.values) ctx.scrubber.add(secret);
  return loaded;
}

/** Runs `job` with a full JobEnv; returns the job's exit code (0 or 65); AppErrors propagate to main. */
export async function runJob(ctx: CliContext, args: CommonArgs, job: (env: JobEnv) => Promise<number>, options: JobCommandOptions = {}): Promise<number> {
  const loaded = loadCliConfig(ctx, args, options);
  if (args['print-config']) {
    ctx.stdout.write(JSON.stringify(describeConfig(loaded), (_k, v: unknown) => (typeof v === 'bigint' ? v.toString() : v), 2) + '\n');
    return 0;
  }
  const format = loaded.config.logFormat ?? defaultLogFormat(ctx.stderr);
  const runId = newRunId(ctx.clock());
  const interactive = ctx.stderr.isTTY === true && format === 'pretty' && args.quiet !== true;
  const bars = interactive ? ttyProgress(ctx.stderr) : null;
  const log = createLogger({ runId, scrubber: ctx.scrubber, level: loaded.config.logLevel, format, ...(bars ? { destination: { write: (line: string) => bars.log(line) } } : {}) });
  // which file the settings came from, first: a run that read another file than the one meant says so
  if (options.sayConfig !== false) log.info(configFileLine(loaded.configChoice));
  const controller = new AbortController();
  // Every request in flight and every retry sitting out its backoff listens to this one signal:
  // up to twice the concurrency (at most 64). Past Node's default of 10 it would print a
  // MaxListenersExceededWarning on stderr, breaking the one-line contract.
  setMaxListeners(4 * 64, controller.signal);
  const outRoot = reportRoot(loaded.config, ctx.cwd).root;
  const watchdog = installInterruptWatchdog({
    controller,
    log,
    jsonLog: format === 'json',
    stderr: ctx.stderr,
    scrubber: ctx.scrubber,
    cleanup: () => removeRunTempFoldersSync(outRoot, runId),
  });
  const progress = bars ?? (args.quiet ? silentProgress : logProgress(log));
  const env: JobEnv = {
    runId,
    loaded,
    log,
    scrubber: ctx.scrubber,
    clock: ctx.clock,
    cwd: ctx.cwd,
    signingKeyFile: signingKeyPath(options.env ?? ctx.env, ctx.cwd),
    signal: controller.signal,
    progress,
    print: (line) => {
      // the closing summary comes after the bars, not through them
      progress.stop(true);
      ctx.stdout.write(ctx.scrubber.scrub(line) + '\n');
    },
  };
  try {
    const exitCode = await job(env);
    // the JSON log's closing record; a person at a terminal has just read the summary instead
    if (format === 'json') log.info({ exit_code: exitCode }, exitCode === 0 ? 'run finished' : 'run finished with exceptions');
    return exitCode;
  } catch (caught) {
    // Interrupted: whatever layer the abort surfaced through (and however it was wrapped on the
    // way), the outcome is the interruption itself — exit 75, resume with the same arguments.
    const error: unknown = controller.signal.aborted && controller.signal.reason instanceof AppError ? controller.signal.reason : caught;
    // Under cron the JSON log is the record: it gets the outcome too, with the run id. On a TTY
    // the one stderr line main.ts prints is enough.
    if (format === 'json') log.error({ exit_code: exitCodeOf(error), error_type: error instanceof AppError ? error.type : 'internal' }, `run failed: ${error instanceof Error ? error.message : String(error)}`);
    throw error;
  } finally {
    progress.stop();
    watchdog.dispose();
  }
}
