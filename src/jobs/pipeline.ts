/**
 * One run of a job, end to end: pre-flight checks (before any request), the lock, the pull
 * (API → normalize → snapshot, page by page, resumable), then the report (snapshot → reconcile →
 * files). `export`, `nightly`, `month-end` and `report` are configurations of this one pipeline.
 *
 * Order of the checks follows what a scheduler can act on: bad dates (64) come from the caller;
 * then an unwritable output folder (74), missing credentials (77) and a staging/production mix-up
 * (78) — all before any request or database write; then the database (75) and the lock (75).
 */
import { access, rm, writeFile, constants } from 'node:fs/promises';
import { ensureFolder } from '../util/ensure-folder.js';
import { join, resolve } from 'node:path';
import { discover, type Discovery } from '../extract/wallets.js';
import { pull, type PullResult } from '../extract/pull.js';
import type { ExtractContext } from '../extract/context.js';
import { walletSummary } from '../api/endpoints.js';
import type { WalletRow } from '../normalize/rows.js';
import type { ReportStageResult, runReportStage as RunReportStage } from './report-stage.js';
import { journalSetup, type JournalSetup } from '../journal/journal-setup.js';
import { AppError, configError } from '../util/errors.js';
import { instantFromDate } from '../util/instant.js';
import { parseShard, type Shard } from '../util/shard.js';
import { apiDateBounds, minusDays, type Period } from '../util/time.js';
import { runPool } from '../util/pool.js';
import { outputError } from '../sinks/output-file.js';
import { createApiSet, type ApiSet } from './api-clients.js';
import type { JobEnv } from './job-env.js';
import { bindNormalizers } from './normalizers.js';
import { withPageFaultPoint } from './page-fault-point.js';
import { runKey } from './run-key.js';
import { openSnapshot, peekSnapshot, type Snapshot } from './snapshot.js';
import type { Checkpoint, RunStatus, SnapshotWriter } from '../store/ports.js';

export type JobName = 'export' | 'nightly' | 'month-end';

/**
 * The report stage (the reconciler, the sinks, exceljs: about a third of a second to load) is loaded
 * once the run holds its lock, while the pull runs, so a run refused at the lock answers without
 * paying for it.
 */
let reportStage: Promise<{ runReportStage: typeof RunReportStage }> | undefined;
const loadReportStage = (): Promise<{ runReportStage: typeof RunReportStage }> => (reportStage ??= import('./report-stage.js'));

export interface PipelineSpec {
  /** the command line's command, for the run record and the manifest */
  command: 'export' | 'nightly' | 'month-end' | 'report';
  /** the report folder's first level */
  job: JobName;
  period: Period;
  /** read the API into the snapshot (false for `report`) */
  pull: boolean;
  /** nightly: widen the payments sweep by the look-back and re-read open payments */
  incremental: boolean;
  /** month-end: record the period as closed (refused while items are open unless allowOpen) */
  closePeriod: boolean;
  allowOpen: boolean;
  dryRun: boolean;
}

export interface PipelineOutcome {
  exitCode: 0 | 65;
  runId: string;
  /** the published folder, when a report was written */
  dir: string | null;
  report: ReportStageResult | null;
  pull: PullResult | null;
  /** why the month was not closed, when it was not */
  notClosed: string | null;
  plan: Plan | null;
}

export interface Plan {
  organizationId: string;
  environments: string[];
  wallets: number;
  walletsInShard: number;
  window: Period['window'];
  paymentWindow: Period['window'];
  streams: number;
  estimatedRequests: number;
  snapshot: string;
  /** the wallets in scope; `payments` = the service's count in the payments window (null: not asked) */
  walletList: Array<{ wallet_id: string; environment_id: string; name: string; active: boolean; payments: number | null }>;
}

export async function runPipeline(env: JobEnv, spec: PipelineSpec): Promise<PipelineOutcome> {
  const { config } = env.loaded;
  const runId = env.runId;
  const log = env.log.child({ command: spec.command });
  // A shard splits the pull; `report` reads the whole snapshot whatever PAYEXPORT_SHARD says.
  const shard = spec.pull ? parseShard(config.shard) : undefined;
  const organizationId = config.organization;
  if (!organizationId) throw configError('missing_organization', 'no organization: set --organization or PAYEXPORT_ORGANIZATION_ID');
  const outRoot = resolve(env.cwd, config.out);
  const writesReport = !spec.dryRun && shard === undefined;
  if (writesReport) await assertWritable(outRoot);
  const journal = writesReport ? journalSetup(config, env.loaded.configFile, env.cwd, spec.job) : null;

  const apis = spec.pull ? createApiSet({ loaded: env.loaded, scrubber: env.scrubber, log, signal: env.signal }) : null;
  try {
    if (spec.dryRun) return await dryRun(env, spec, apis, organizationId, shard, runId);
    const snapshot = await openSnapshot({ loaded: env.loaded, cwd: env.cwd, job: spec.job, period: spec.period.label });
    try {
      const lockJob = shard === undefined ? spec.job : `${spec.job}#shard-${shard.index}-of-${shard.count}`;
      const lock = await snapshot.lock(organizationId, spec.command === 'report' ? `report:${spec.job}` : lockJob);
      void loadReportStage().catch(() => undefined);
      try {
        return await run(env, spec, { apis, writer: snapshot.writer(), snapshot, organizationId, shard, runId, outRoot, log, journal });
      } catch (error) {
        // The spool lives under the output folder: a full disk there is exit 74, not a bug (1).
        throw snapshot.kind === 'spool' ? outputError(error, snapshot.target) : error;
      } finally {
        await lock.release();
      }
    } finally {
      await snapshot.close();
    }
  } finally {
    await apis?.close();
  }
}

interface RunDeps {
  apis: ApiSet | null;
  /** the run's writer: the object beginRun was called on (it holds the run id) */
  writer: SnapshotWriter;
  snapshot: Snapshot;
  organizationId: string;
  shard: Shard | undefined;
  runId: string;
  outRoot: string;
  log: JobEnv['log'];
  journal: JournalSetup | null;
}

async function run(env: JobEnv, spec: PipelineSpec, deps: RunDeps): Promise<PipelineOutcome> {
  const { config } = env.loaded;
  const { snapshot, organizationId, shard, runId, log, writer } = deps;
  const window = spec.period.window;
  if (!spec.pull && (await snapshot.source.wallets(organizationId, config.wallets.length > 0 ? config.wallets : undefined)).length === 0) {
    // An empty report with exit 0 would hide a wrong schema, database or organization.
    throw configError('empty_snapshot', `the snapshot (${snapshot.target}${snapshot.kind === 'postgres' ? `, schema ${config.dbSchema}` : ''}) holds no wallets of organization ${organizationId}${config.wallets.length > 0 ? ' among the --wallet ids' : ''}: pull first (export, nightly or month-end), or check --database-url, --schema and --organization`);
  }
  const key = runKey({ command: spec.command, organizationId, window, environments: [...(config.environments.map((e) => e.id))], wallets: config.wallets, shard: config.shard });
  const resumed = await writer.beginRun({
    run_id: runId,
    run_key: key,
    command: spec.command,
    organization_id: organizationId,
    window,
    parameters: { job: spec.job, period: spec.period.label, tz: window.tz, shard: config.shard ?? null, formats: config.formats, concurrency: config.concurrency },
    started_at: instantFromDate(env.clock()),
  });
  if (resumed.length > 0) log.info({ streams: resumed.length }, 'resuming an interrupted run from its checkpoints');

  let status: RunStatus = 'failed';
  const counts: Record<string, number> = {};
  try {
    let pulled: PullResult | null = null;
    let discovery: Discovery | null = null;
    if (spec.pull && deps.apis) {
      env.progress.phase('discovery');
      discovery = await discoverScope(env, deps.apis, organizationId, shard);
      // the stream count the dry run's plan shows: a denominator that does not grow while pulling
      env.progress.expect?.({ payments: discovery.wallets.length, ledger: discovery.wallets.length, summaries: discovery.wallets.length + discovery.environments.length });
      await writer.upsertWallets(discovery.allWallets);
      await writer.upsertAssets(discovery.assets);
      env.progress.phase('pull');
      pulled = await pullScope(env, spec, deps, discovery, key, resumed);
      const stats = deps.apis.stats();
      Object.assign(counts, { api_requests: stats.requests, api_retries: stats.retries, api_bytes: stats.bytes, duplicates_seen: pulled.duplicates, payments_not_found: pulled.missingPaymentIds.length });
      for (const s of pulled.streams) {
        const kind = s.stream.split(':')[0] ?? s.stream;
        counts[`pulled_${kind.replace(/[^a-z]/g, '_')}`] = (counts[`pulled_${kind.replace(/[^a-z]/g, '_')}`] ?? 0) + s.rows;
      }
    }

    if (shard !== undefined) {
      // A shard pulls its wallets only; `payexport report` builds the files once every shard is in.
      status = 'succeeded';
      env.print(`pulled shard ${shard.index}/${shard.count}: ${discovery?.wallets.length ?? 0} wallet(s). Build the files with: npx payexport report --organization ${organizationId} ${reportHint(spec)}`);
      return { exitCode: 0, runId, dir: null, report: null, pull: pulled, notClosed: null, plan: null };
    }

    env.progress.phase('report');
    const closedBefore = await snapshot.isPeriodClosed(organizationId, spec.period.label);
    const { runReportStage } = await loadReportStage();
    const report = await runReportStage({
      source: snapshot.source,
      organizationId,
      walletIds: config.wallets,
      environmentIds: config.environments.map((e) => e.id),
      window,
      outRoot: deps.outRoot,
      job: spec.job,
      period: spec.period.label,
      command: spec.command,
      runId,
      formats: config.formats,
      csv: config.csv,
      closed: closedBefore && spec.job === 'month-end',
      counts,
      ...(spec.closePeriod ? { closing: { allowOpen: spec.allowOpen } } : {}),
      log,
      onProgress: (sheet, rows) => env.progress.sheet(sheet, rows),
      journal:
        deps.journal === null
          ? null
          : {
              ...deps.journal,
              // month-end closes or amends its period: it records what its journal posts
              discipline: snapshot.journalExports === null ? null : { exports: snapshot.journalExports, organizationId, runId, period: spec.period.label, stage: spec.job === 'month-end' && (spec.closePeriod || closedBefore) },
            },
    });
    await writer.writeFindings(runId, report.result.findings);

    let notClosed: string | null = null;
    if (spec.closePeriod) {
      // the same decision the Overview and manifest already state (src/sinks/close-status.ts)
      if (report.close.state === 'not_closed') {
        notClosed = `${spec.period.label} has ${report.close.open_items} open item(s) (payments not yet completed, failed or expired; see open-items.csv); the period was not closed — rerun when they settle, or pass --allow-open`;
      } else if (!closedBefore) {
        await snapshot.closePeriod({ organizationId, period: spec.period.label, window, runId });
      }
    }
    if (report.journal?.discipline && snapshot.journalExports !== null && spec.job === 'month-end' && (closedBefore || (spec.closePeriod && notClosed === null))) {
      // the folder is published and the period closed: what its journal posted is now exported
      counts['journal_recorded'] = await snapshot.journalExports.confirm(runId);
    }
    const exceptions = report.exceptions || notClosed !== null;
    status = exceptions ? 'exceptions' : 'succeeded';
    return { exitCode: exceptions ? 65 : 0, runId, dir: report.publish.dir, report, pull: pulled, notClosed, plan: null };
  } finally {
    await writer.finishRun(runId, status, counts).catch((error: unknown) => log.warn({ err: String(error) }, 'could not record the run outcome'));
  }
}

async function discoverScope(env: JobEnv, apis: ApiSet, organizationId: string, shard: Shard | undefined): Promise<Discovery> {
  const { config } = env.loaded;
  return discover({
    organizationId,
    readers: apis.readers,
    // configured environments already restrict discovery: each has its own reader
    environmentIds: [],
    walletIds: config.wallets,
    shard,
    normalize: bindNormalizers(organizationId),
  });
}

async function pullScope(env: JobEnv, spec: PipelineSpec, deps: RunDeps, discovery: Discovery, key: string, resumed: Checkpoint[]): Promise<PullResult> {
  const { config } = env.loaded;
  const { snapshot, organizationId, log, apis } = deps;
  const window = spec.period.window;
  const ctx: ExtractContext = {
    organizationId,
    apiFor: (environmentId) => apis!.apiFor(environmentId),
    writer: withPageFaultPoint(deps.writer),
    normalize: bindNormalizers(organizationId),
    log,
    runKey: key,
    runId: deps.runId,
    resume: new Map(resumed.map((c) => [c.stream, c])),
    pageSize: config.pageSize,
    onProgress: (p) => env.progress.stream(p),
    signal: env.signal,
  };
  const paymentWindow = spec.incremental ? { ...window, from: minusDays(window.from, config.lookbackDays) } : window;
  return pull(ctx, {
    wallets: discovery.wallets,
    // the bills of every line of credit in scope, read (like the environment summaries) by shard 0
    billWallets: discovery.allWallets,
    // Environment summaries are read once: by an unsharded run or by shard 0.
    summaryEnvironments: deps.shard === undefined || deps.shard.index === 0 ? discovery.environments : [],
    window,
    paymentWindow,
    ledgerStart: (wallet: WalletRow) => snapshot.ledgerStart(organizationId, wallet, config.lookbackDays),
    orphanPaymentIds: (wallet: WalletRow) => snapshot.orphanPaymentIds(organizationId, wallet, window),
    ...(spec.incremental ? { openPaymentIds: (wallet: WalletRow) => snapshot.openPaymentIds(organizationId, wallet) } : {}),
    width: Math.max(2, config.concurrency * 2),
    // ledger time slices reach up to the run's clock
    now: instantFromDate(env.clock()),
  });
}

async function dryRun(env: JobEnv, spec: PipelineSpec, apis: ApiSet | null, organizationId: string, shard: Shard | undefined, runId: string): Promise<PipelineOutcome> {
  const { config } = env.loaded;
  const window = spec.period.window;
  const paymentWindow = spec.incremental ? { ...window, from: minusDays(window.from, config.lookbackDays) } : window;
  let discovery: Discovery | null = null;
  let estimatedRequests = 0;
  const counts = new Map<string, number>();
  if (apis) {
    discovery = await discoverScope(env, apis, organizationId, shard);
    const bounds = apiDateBounds(paymentWindow);
    let pages = 0;
    await runPool(discovery.wallets, config.concurrency, async (wallet) => {
      const summary = await walletSummary(apis.apiFor(wallet.environment_id), {
        organizationId,
        walletId: wallet.wallet_id,
        filters: { includeInactive: true, startDate: bounds.start_date, endDate: bounds.end_date },
      });
      const count = Number(summary.total_count);
      counts.set(wallet.wallet_id, Number.isFinite(count) ? count : 0);
      pages += Math.max(1, Math.ceil((Number.isFinite(count) ? count : 0) / config.pageSize));
    });
    // payments pages + a ledger estimate of two events per payment + one summary per wallet and
    // environment + one policies read per wallet in scope (discovery)
    estimatedRequests = 1 + 1 + pages * 3 + discovery.wallets.length + discovery.environments.length + discovery.allWallets.length;
  }
  const snapshotWhere = !config.db ? 'none (--no-db: a spool under the output folder)' : env.loaded.secrets.databaseUrl ? `postgres, schema ${config.dbSchema}` : `embedded (${resolve(env.cwd, config.dataDir)})`;
  let snapshot = snapshotWhere;
  let rebuild: { wallets: WalletRow[] | null; summaries: number } | null = null;
  if (!apis) {
    // `report`: the scope is whatever the snapshot holds (read without migrating or creating anything)
    rebuild = await peekSnapshot({ loaded: env.loaded, cwd: env.cwd, organizationId, walletIds: config.wallets, window });
    const environmentIds = new Set(config.environments.map((e) => e.id.toLowerCase()));
    if (rebuild.wallets && environmentIds.size > 0) rebuild.wallets = rebuild.wallets.filter((w) => environmentIds.has(w.environment_id.toLowerCase()));
    snapshot = rebuild.wallets === null ? `${snapshotWhere}: EMPTY (nothing pulled yet; the report would fail)` : `${snapshotWhere}: ${rebuild.summaries} summary bucket(s) stored for this window`;
  }
  const wallets = discovery?.wallets ?? rebuild?.wallets ?? [];
  const plan: Plan = {
    organizationId,
    environments: discovery?.environments ?? [...new Set(wallets.map((w) => w.environment_id))].sort(),
    wallets: discovery?.allWallets.length ?? wallets.length,
    walletsInShard: wallets.length,
    window,
    paymentWindow,
    streams: apis ? wallets.length * 3 + (discovery?.environments.length ?? 0) : 0,
    estimatedRequests,
    snapshot,
    walletList: wallets.map((w) => ({ wallet_id: w.wallet_id, environment_id: w.environment_id, name: w.name, active: w.active, payments: counts.get(w.wallet_id) ?? null })),
  };
  env.print(formatPlan(spec, plan, shard, resolve(env.cwd, config.out), config.formats));
  return { exitCode: 0, runId, dir: null, report: null, pull: null, notClosed: null, plan };
}

function formatPlan(spec: PipelineSpec, plan: Plan, shard: Shard | undefined, outRoot: string, formats: readonly string[]): string {
  return [
    `plan for ${spec.command} ${spec.period.label} (dry run: ${spec.pull ? 'nothing is read beyond the wallet list and summaries' : 'no API calls; the snapshot is only read'}, nothing is written)`,
    `  organization   ${plan.organizationId}`,
    `  window         [${plan.window.from}, ${plan.window.to}) in ${plan.window.tz}`,
    ...(plan.paymentWindow.from !== plan.window.from ? [`  payments sweep [${plan.paymentWindow.from}, ${plan.paymentWindow.to}) (look-back)`] : []),
    `  environments   ${plan.environments.length} ${plan.environments.join(', ')}`,
    `  wallets        ${plan.walletsInShard}${shard ? ` of ${plan.wallets} (shard ${shard.index}/${shard.count})` : ''}`,
    `  streams        ${plan.streams} (payments, ledger and summary per wallet; summary per environment)`,
    `  requests       ~${plan.estimatedRequests} (estimate)`,
    `  snapshot       ${plan.snapshot}`,
    `  report         ${shard ? 'none: a shard only pulls; `payexport report` builds the files' : `${join(outRoot, spec.job, spec.period.label)} (${formats.join(', ')})`}`,
    ...(spec.closePeriod && !shard ? [`  closes         ${spec.period.label}${spec.allowOpen ? ' (even with open items: --allow-open)' : ' (unless payments of it are still open; --allow-open closes anyway)'}`] : []),
    ...walletLines(plan.walletList),
  ].join('\n');
}

const MAX_LISTED_WALLETS = 50;

function walletLines(wallets: Plan['walletList']): string[] {
  if (wallets.length === 0) return [];
  const shown = wallets.slice(0, MAX_LISTED_WALLETS).map(
    (w) => `    ${w.wallet_id}  env ${w.environment_id.slice(0, 8)}  ${w.payments === null ? '' : `${String(w.payments).padStart(7)} payments  `}${w.active ? '' : '(inactive) '}${w.name}`,
  );
  const more = wallets.length > MAX_LISTED_WALLETS ? [`    … and ${wallets.length - MAX_LISTED_WALLETS} more`] : [];
  return ['  wallets in scope', ...shown, ...more];
}

function reportHint(spec: PipelineSpec): string {
  return spec.period.kind === 'month' ? `--month ${spec.period.label} --job ${spec.job}` : `--from ${spec.period.firstDay} --to ${spec.period.lastDay} --job ${spec.job}`;
}

/** Exit 74 before any request when the output folder cannot be written (PROC-09). */
async function assertWritable(outRoot: string): Promise<void> {
  const probe = join(outRoot, `.payexport-write-test-${process.pid}`);
  try {
    await ensureFolder(outRoot);
    await access(outRoot, constants.W_OK);
    await writeFile(probe, '');
    await rm(probe, { force: true });
  } catch (error) {
    const { code = 'unknown', syscall, path } = error as NodeJS.ErrnoException;
    // which step failed, on which path: ENOENT from mkdir under /proc reads oddly without it
    const step = syscall !== undefined && path !== undefined ? `: ${syscall} '${path}' failed` : '';
    throw new AppError('cantCreate', 'output_not_writable', `cannot write to the output folder '${outRoot}' (${code})${step}`, { cause: error });
  }
}
