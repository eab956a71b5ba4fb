/**
 * One run of a job, end to end: pre-flight checks (before any request), the lock, the pull
 * (API → normalize → snapshot, page by page, resumable), then the report (snapshot → reconcile →
 * files). `export`, `nightly`, `month-end` and `report` are configurations of this one pipeline.
 *
 * Order of the checks follows what a scheduler can act on: bad dates (64) come from the caller;
 * then the output root — another scope's books there (78), a folder of the period that cannot be
 * read (73), an unwritable root (74) — missing credentials (77) and a staging/production mix-up
 * (78) — all before any request or database write; then the database (75) and the lock (75).
 */
import { join } from 'node:path';
import type { Discovery } from '../extract/wallets.js';
import type { ManifestSigner } from '../audit/manifest-signature.js';
import { deferredSigner } from '../audit/deferred-signer.js';
import { EvidenceLog, evidenceJournalPath } from '../audit/evidence-log.js';
import { rm } from 'node:fs/promises';
import { pull, type PullResult } from '../extract/pull.js';
import type { ExtractContext } from '../extract/context.js';
import { PageSize } from '../api/page-size.js';
import type { WalletRow } from '../model/rows.js';
import type { PullPacing, ReportStageResult, runReportStage as RunReportStage } from './report-stage.js';
import { PullGates } from './pull-gates.js';
import { journalSetup, type JournalSetup } from '../journal/journal-setup.js';
import { lotsSetup, type LotsSetup } from '../lots/lots-setup.js';
import { orphanReach } from './lots-payment-reach.js';
import { priceChecks } from './price-checks.js';
import { billPeriodReach } from './bill-period-reach.js';
import { closeAndConfirm } from './close-period.js';
import { configError } from '../util/errors.js';
import { instantFromDate } from '../model/instant.js';
import { parseShard, type Shard } from '../util/shard.js';
import { lookbackWindow } from '../model/period.js';
import { outputError } from '../sinks/output-file.js';
import { createApiSet, type ApiSet } from './api-clients.js';
import { discoverScope } from './discover-scope.js';
import type { JobEnv } from './job-env.js';
import { bindNormalizers } from './normalizers.js';
import { assertWritable } from './output-folder.js';
import { checkOutputRoot, claimOutputRoot, type OutputRootState } from './output-root-check.js';
import { reportRoot } from '../config/output-root.js';
import { withPageFaultPoint } from './page-fault-point.js';
import { wholeEnvironments } from './whole-environments.js';
import type { PipelineSpec } from './pipeline-spec.js';
import { dryRun, type Plan } from './plan.js';
import { runKey } from './run-key.js';
import { shardJournals } from './shard-evidence.js';
import { openSnapshot, type Snapshot } from '../store/snapshot.js';
import type { Checkpoint, RunStatus, SnapshotWriter } from '../model/ports.js';

export type { JobName, PipelineSpec } from './pipeline-spec.js';
export type { Plan } from './plan.js';

/**
 * The report stage (the reconciler, the sinks, exceljs: about a third of a second to load) is loaded
 * once the run holds its lock, while the pull runs, so a run refused at the lock answers without
 * paying for it.
 */
let reportStage: Promise<{ runReportStage: typeof RunReportStage }> | undefined;
const loadReportStage = (): Promise<{ runReportStage: typeof RunReportStage }> => (reportStage ??= import('./report-stage.js'));

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

export async function runPipeline(env: JobEnv, spec: PipelineSpec): Promise<PipelineOutcome> {
  const { config } = env.loaded;
  const runId = env.runId;
  const log = env.log.child({ command: spec.command });
  // A shard splits the pull; `report` reads the whole snapshot whatever PAYEXPORT_SHARD says.
  const shard = spec.pull ? parseShard(config.shard) : undefined;
  const organizationId = config.organization;
  if (!organizationId) throw configError('missing_organization', 'no organization: set --organization or PAYEXPORT_ORGANIZATION_ID');
  const where = reportRoot(config, env.cwd);
  const outRoot = where.root;
  const writesReport = !spec.dryRun && shard === undefined;
  // one scope per output root, and the period's folders readable, before any request or write (docs/reports.md)
  const onRoot = writesReport
    ? await checkOutputRoot({ where, organizationId, environmentIds: config.environments.map((e) => e.id), walletIds: config.wallets, adopt: spec.adoptOut === true, job: spec.job, period: spec.period.label })
    : null;
  if (writesReport) await assertWritable(outRoot);
  // prices.autoFetch: the cache is filled before the journal reads it, or a closed period and a
  // rebuild show the price checks of the folder they follow (docs/prices.md#auto-fetch)
  const onDisk = onRoot === null ? null : { jobDir: join(outRoot, spec.job), period: onRoot.period };
  const priceFindings = writesReport && spec.fetchesPrices && config.prices?.autoFetch === true ? await priceChecks(env, spec, onDisk) : undefined;
  // the key that signs the folder, read before any request (a key others can read stops the run here, 78);
  // made, when there is none, only as the folder is signed (a refused run leaves no key behind)
  const signer = writesReport && env.signingKeyFile !== undefined ? deferredSigner(env.signingKeyFile) : null;
  const journal = writesReport ? journalSetup(config, env.loaded.configFile, env.cwd, spec.closable) : null;
  const lots = writesReport ? lotsSetup(config, env.loaded.configFile, env.cwd) : null;
  if (journal !== null && priceFindings !== undefined) journal.priceFindings = priceFindings;

  // the pull's evidence, opened once the run key is known (every request is after that)
  const evidence: { log: EvidenceLog | null } = { log: null };
  const apis = spec.pull ? createApiSet({ loaded: env.loaded, scrubber: env.scrubber, log, signal: env.signal, onExchange: (exchange) => evidence.log?.request(exchange) }) : null;
  try {
    if (spec.dryRun) return { exitCode: 0, runId, dir: null, report: null, pull: null, notClosed: null, plan: await dryRun(env, spec, apis, organizationId, shard) };
    const snapshot = await openSnapshot({ loaded: env.loaded, cwd: env.cwd, job: spec.job, period: spec.period.label });
    try {
      const lockJob = shard === undefined ? spec.job : `${spec.job}#shard-${shard.index}-of-${shard.count}`;
      const lock = await snapshot.lock(organizationId, spec.command === 'report' ? `report:${spec.job}` : lockJob);
      void loadReportStage().catch(() => undefined);
      try {
        return await run(env, spec, { apis, writer: snapshot.writer(), snapshot, organizationId, shard, runId, outRoot, onRoot, log, journal, lots, signer, evidence });
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
  /** what the output root held before the pull (null: the run writes no report) */
  onRoot: OutputRootState | null;
  log: JobEnv['log'];
  journal: JournalSetup | null;
  lots: LotsSetup | null;
  signer: ManifestSigner | null;
  /** the pull's evidence journal while it is open (a run that writes a report and pulls) */
  evidence: { log: EvidenceLog | null };
}

async function run(env: JobEnv, spec: PipelineSpec, deps: RunDeps): Promise<PipelineOutcome> {
  const { snapshot, organizationId, shard, runId, log, writer } = deps;
  const window = spec.period.window;
  if (!spec.pull) await assertSnapshotHolds(env, deps);
  const { key, resumed } = await beginRunRecord(env, spec, deps);
  const evidencePath = openEvidence(env, spec, deps, key, resumed.length > 0);

  let status: RunStatus = 'failed';
  const counts: Record<string, number> = {};
  try {
    const recorded = shard === undefined ? await snapshot.isPeriodClosed(organizationId, spec.period.label) : false;
    // the folder is the authority: a month-end folder on disk that says closed is the close, whatever
    // this snapshot remembers (a fresh one, another engine, the spool) — the run amends, never replaces
    const learned = !recorded && spec.closable && deps.onRoot?.period.closed === true ? deps.onRoot.period : null;
    const closedBefore = recorded || learned !== null;
    // a rebuild after sharded pulls holds the shards' evidence (their journals under this root)
    const journals = evidencePath !== null ? [evidencePath] : spec.command === 'report' ? await shardJournals(deps.outRoot, organizationId, window, log) : [];
    const report = (pacing?: PullPacing): Promise<ReportStageResult> => startReport(env, spec, deps, { counts, closedBefore, recorded, evidence: journals, ...(pacing ? { pacing } : {}) });
    let pulled: PullResult | null = null;
    let discovery: Discovery | null = null;
    let reportBehind: Promise<ReportStageResult> | null = null;
    if (spec.pull && deps.apis) {
      env.progress.phase('discovery');
      discovery = await discoverScope(env, deps.apis, organizationId, shard);
      // the stream count the dry run's plan shows: a denominator that does not grow while pulling
      env.progress.expect?.({ payments: discovery.wallets.length, ledger: discovery.wallets.length, summaries: discovery.wallets.length + discovery.environments.length });
      await writer.upsertWallets(discovery.allWallets);
      await writer.upsertAssets(discovery.assets);
      // the scope is real (the service answered for it): the root is recorded as its, before the report opens
      if (deps.onRoot !== null && shard === undefined) await claimOutputRoot(deps.onRoot, runId, env.clock());
      // The report behind the pull: each wallet is rendered once its streams are in, while later
      // wallets still pull (docs/extraction.md#the-report-behind-the-pull). A report that fails (an
      // unwritable folder) does not stop the pull: the snapshot is kept current and checkpointed, so
      // the rerun after the fix fetches nothing again; its error is told once the pull has ended.
      const gates = shard === undefined ? new PullGates(discovery.wallets.map((w) => w.wallet_id)) : null;
      if (gates !== null) {
        reportBehind = report(gates);
        reportBehind.catch(() => undefined);
      }
      env.progress.phase('pull');
      try {
        pulled = await pullScope(env, spec, deps, discovery, key, resumed, gates);
      } catch (error) {
        gates?.fail(error);
        // the report stops on the failed gate and removes its unfinished folder before the error goes up
        await reportBehind?.catch(() => undefined);
        throw error;
      }
      Object.assign(counts, pullCounts(deps.apis, pulled));
      // the evidence is complete: the report copies it in when it publishes
      for (const s of pulled.streams) deps.evidence.log?.stream(s);
      deps.evidence.log?.end();
      // the manifest's counts are complete: the report may publish
      gates?.openAll();
    }

    if (shard !== undefined) {
      // A shard pulls its wallets only; `payexport report` builds the files once every shard is in.
      status = 'succeeded';
      env.print(`pulled shard ${shard.index}/${shard.count}: ${discovery?.wallets.length ?? 0} wallet(s). Build the files with: payexport report --organization ${organizationId} ${reportHint(spec)}`);
      return { exitCode: 0, runId, dir: null, report: null, pull: pulled, notClosed: null, plan: null };
    }

    env.progress.phase('report');
    if (reportBehind === null && deps.onRoot !== null) await claimOutputRoot(deps.onRoot, runId, env.clock());
    const reported = await (reportBehind ?? report());
    // the folder holds the evidence now; the journals were only kept for a resumed run, or for this report
    for (const journal of journals) await rm(journal, { force: true });
    await writer.writeFindings(runId, reported.result.findings);

    const notClosed = await closeAndConfirm(env, spec, { snapshot, organizationId, runId, reported, recorded, learned, counts });
    const exceptions = reported.exceptions || notClosed !== null;
    status = exceptions ? 'exceptions' : 'succeeded';
    return { exitCode: exceptions ? 65 : 0, runId, dir: reported.publish.dir, report: reported, pull: pulled, notClosed, plan: null };
  } finally {
    deps.evidence.log?.close();
    await writer.finishRun(runId, status, counts).catch((error: unknown) => log.warn({ err: String(error) }, 'could not record the run outcome'));
  }
}

/** A rebuild of an empty snapshot would be an empty report with exit 0, hiding a wrong schema, database or organization. */
async function assertSnapshotHolds(env: JobEnv, deps: RunDeps): Promise<void> {
  const { config } = env.loaded;
  const { snapshot, organizationId } = deps;
  if ((await snapshot.source.wallets(organizationId, config.wallets.length > 0 ? config.wallets : undefined)).length > 0) return;
  throw configError('empty_snapshot', `the snapshot (${snapshot.target}${snapshot.kind === 'postgres' ? `, schema ${config.dbSchema}` : ''}) holds no wallets of organization ${organizationId}${config.wallets.length > 0 ? ' among the --wallet ids' : ''}: pull first (export, nightly or month-end), or check --database-url, --schema and --organization`);
}

/** The run's record in the snapshot: its key (what a resumed run finds it by) and the streams an interrupted run left checkpointed. */
async function beginRunRecord(env: JobEnv, spec: PipelineSpec, deps: RunDeps): Promise<{ key: string; resumed: Checkpoint[] }> {
  const { config } = env.loaded;
  const { snapshot, organizationId, runId, log, writer } = deps;
  const window = spec.period.window;
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
  for (const what of writer.setAside ?? []) log.warn({ state: snapshot.target }, `spool state not trusted, set aside: ${what}`);
  if (resumed.length > 0) log.info({ streams: resumed.length }, 'resuming an interrupted run from its checkpoints');
  return { key, resumed };
}

/**
 * The pull's evidence journal, opened once the run key is known (docs/audit.md): a run that writes
 * a report, and a shard — whose report after the shards copies it in. Null: nothing is recorded.
 */
function openEvidence(env: JobEnv, spec: PipelineSpec, deps: RunDeps, key: string, resumed: boolean): string | null {
  const { organizationId, runId, log, shard } = deps;
  const window = spec.period.window;
  // a shard writes no report, but its evidence: the report after the shards copies it in (docs/audit.md)
  const evidencePath = spec.pull && deps.apis !== null && (deps.onRoot !== null || shard !== undefined) ? evidenceJournalPath(deps.outRoot, key) : null;
  if (evidencePath !== null) {
    const evidenceRun = { run_id: runId, run_key: key, command: spec.command, window: { from: window.from, to: window.to, tz: window.tz }, resumed, organization_id: organizationId, shard: shard === undefined ? null : `${shard.index}/${shard.count}` };
    // a shard's root may not be writable where it runs (a pod without the report's volume): it pulls all the same
    const onUnwritable = shard === undefined ? {} : { onUnwritable: (error: Error) => log.warn({ err: env.scrubber.scrub(String(error)) }, `the shard's evidence cannot be written under ${deps.outRoot}: the report after the shards will not hold its requests`) };
    deps.evidence.log = EvidenceLog.open(evidencePath, evidenceRun, { scrub: (line) => env.scrubber.scrub(line), clock: env.clock, ...onUnwritable });
  }
  return evidencePath;
}

/** What the pull did, for the run record and the manifest's counts. */
function pullCounts(apis: ApiSet, pulled: PullResult): Record<string, number> {
  const stats = apis.stats();
  const counts: Record<string, number> = { api_requests: stats.requests, api_retries: stats.retries, api_bytes: stats.bytes, duplicates_seen: pulled.duplicates, payments_not_found: pulled.missingPaymentIds.length };
  for (const s of pulled.streams) {
    const kind = (s.stream.split(':')[0] ?? s.stream).replace(/[^a-z]/g, '_');
    counts[`pulled_${kind}`] = (counts[`pulled_${kind}`] ?? 0) + s.rows;
  }
  return counts;
}

interface ReportStageRun {
  counts: Record<string, number>;
  /** the period is closed: by the snapshot's record or by its folder on disk */
  closedBefore: boolean;
  /** the snapshot records the close */
  recorded: boolean;
  /** the evidence journals the folder holds: the run's pull, or a report's shards (none: nothing pulled) */
  evidence: readonly string[];
  pacing?: PullPacing;
}

function startReport(env: JobEnv, spec: PipelineSpec, deps: RunDeps, run: ReportStageRun): Promise<ReportStageResult> {
  const { config } = env.loaded;
  const { snapshot, organizationId, runId, log } = deps;
  const { closedBefore, recorded } = run;
  return loadReportStage().then(({ runReportStage }) =>
    runReportStage({
      source: snapshot.source,
      organizationId,
      walletIds: config.wallets,
      environmentIds: config.environments.map((e) => e.id),
      window: spec.period.window,
      outRoot: deps.outRoot,
      job: spec.job,
      period: spec.period.label,
      command: spec.command,
      runId,
      clock: env.clock,
      formats: config.formats,
      csv: config.csv,
      closed: closedBefore && spec.closable,
      counts: run.counts,
      ...(spec.closePeriod ? { closing: { allowOpen: spec.allowOpen } } : {}),
      log,
      onProgress: (sheet, rows) => env.progress.sheet(sheet, rows),
      journal:
        deps.journal === null
          ? null
          : {
              ...deps.journal,
              // month-end closes or amends its period: it records what its journal posts
              discipline: snapshot.journalExports === null ? null : { exports: snapshot.journalExports, organizationId, runId, period: spec.period.label, stage: spec.closable && (spec.closePeriod || closedBefore), closes: spec.closable && spec.closePeriod && !closedBefore },
            },
      lots: deps.lots,
      signer: deps.signer,
      evidence: run.evidence,
      // month-end closing its period records its lots (so does one whose snapshot learns the close from
      // the folder: nothing is recorded yet); an amended folder of a recorded period shows them
      lotsRecord: snapshot.lotsRecord === null ? null : { lots: snapshot.lotsRecord, runId, period: spec.period.label, closed: closedBefore, stage: spec.closable && spec.closePeriod && !recorded, journal: snapshot.journalExports },
      ...(run.pacing ? { pacing: run.pacing } : {}),
    }),
  );
}

async function pullScope(env: JobEnv, spec: PipelineSpec, deps: RunDeps, discovery: Discovery, key: string, resumed: Checkpoint[], gates: PullGates | null): Promise<PullResult> {
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
    pageSizes: { payments: new PageSize(config.pageSize), ledger: new PageSize(config.pageSize) },
    onProgress: (p) => env.progress.stream(p),
    onExpect: (streams) => env.progress.expect?.(streams),
    signal: env.signal,
  };
  const paymentWindow = spec.incremental ? lookbackWindow(window, config.lookbackDays) : window;
  // the lots replay values each earlier movement with its payment, as its own month-end did
  const orphans = await orphanReach(config, snapshot, organizationId, window, paymentWindow);
  return pull(ctx, {
    wallets: discovery.wallets,
    // the bills of every line of credit in scope, read (like the environment summaries) by shard 0
    billWallets: discovery.allWallets,
    // Environment summaries are read once: by an unsharded run or by shard 0.
    summaryEnvironments: deps.shard === undefined || deps.shard.index === 0 ? discovery.environments : [],
    wholeEnvironments: wholeEnvironments(config, deps.shard, discovery, env.loaded.secrets.databaseUrl !== undefined && env.loaded.secrets.databaseUrl !== ''),
    readWhole: config.paymentsRead === 'environment' ? 'always' : 'when-fewer',
    window,
    paymentWindow,
    ledgerStart: (wallet: WalletRow) => snapshot.ledgerStart(organizationId, wallet, config.lookbackDays),
    orphanPaymentIds: (wallet: WalletRow) => snapshot.orphanPaymentIds(organizationId, wallet, orphans.window(wallet)),
    orphanSweep: (wallet: WalletRow) => orphans.sweep(wallet),
    // the bills the report ties reach past its window: their periods' payments are pulled too
    billPeriodPayments: billPeriodReach(snapshot.source, organizationId, window, paymentWindow),
    ...(spec.incremental ? { openPaymentIds: (wallet: WalletRow) => snapshot.openPaymentIds(organizationId, wallet) } : {}),
    concurrency: config.concurrency,
    // ledger time slices reach up to the run's clock
    now: instantFromDate(env.clock()),
    ...(gates === null ? {} : { inOrder: true, onSized: () => gates.openSized(), onWalletComplete: (wallet: WalletRow) => gates.openWallet(wallet.wallet_id) }),
  });
}

function reportHint(spec: PipelineSpec): string {
  return spec.period.kind === 'month' ? `--month ${spec.period.label} --job ${spec.job}` : `--from ${spec.period.firstDay} --to ${spec.period.lastDay} --job ${spec.job}`;
}

