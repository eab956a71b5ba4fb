/**
 * The dry run: the plan of a job — its scope, window, streams and an estimate of its requests —
 * printed without writing anything. A pulling job discovers its wallets and asks one summary per
 * wallet (through the extract layer's own pool); `report` only peeks at the snapshot.
 */
import { join, resolve } from 'node:path';
import { reportRoot, type ReportRoot } from '../config/output-root.js';
import { scopeWords } from '../sinks/output-scope.js';
import { readRootRecord } from '../sinks/root-scope.js';
import { AppError } from '../util/errors.js';
import { checkOutputRoot } from './output-root-check.js';
import type { Discovery } from '../extract/wallets.js';
import { countPayments } from '../extract/payment-counts.js';
import { chainWidth } from '../extract/chain-budget.js';
import { planPaymentsRead, type PaymentsRead } from '../extract/payments-read-plan.js';
import { wholeEnvironments } from './whole-environments.js';
import type { WalletRow } from '../model/rows.js';
import { lookbackWindow, type Period } from '../model/period.js';
import type { Shard } from '../util/shard.js';
import type { ApiSet } from './api-clients.js';
import { discoverScope } from './discover-scope.js';
import type { JobEnv } from './job-env.js';
import type { PipelineSpec } from './pipeline-spec.js';
import { peekSnapshot } from '../store/snapshot.js';

export interface Plan {
  organizationId: string;
  environments: string[];
  wallets: number;
  walletsInShard: number;
  window: Period['window'];
  paymentWindow: Period['window'];
  streams: number;
  estimatedRequests: number;
  /** the environments whose payments are read whole, and the requests that saves over per-wallet reads */
  paymentsRead: PaymentsRead;
  snapshot: string;
  /** what the output root holds for this run: its books, none yet, or why the run would be refused */
  outputRoot: string;
  /** the wallets in scope; `payments` = the service's count in the payments window (null: not asked) */
  walletList: Array<{ wallet_id: string; environment_id: string; name: string; active: boolean; payments: number | null }>;
}

/** Prints the plan of `spec` and returns it; nothing is written. */
export async function dryRun(env: JobEnv, spec: PipelineSpec, apis: ApiSet | null, organizationId: string, shard: Shard | undefined): Promise<Plan> {
  const { config } = env.loaded;
  const window = spec.period.window;
  const paymentWindow = spec.incremental ? lookbackWindow(window, config.lookbackDays) : window;
  let discovery: Discovery | null = null;
  let estimatedRequests = 0;
  let counts = new Map<string, number>();
  let paymentsRead: PaymentsRead = { environments: [], saved: 0 };
  if (apis) {
    discovery = await discoverScope(env, apis, organizationId, shard);
    counts = await countPayments({ organizationId, apiFor: (environmentId) => apis.apiFor(environmentId), wallets: discovery.wallets, window: paymentWindow, concurrency: config.concurrency });
    let pages = 0;
    for (const wallet of discovery.wallets) pages += Math.max(1, Math.ceil((counts.get(wallet.wallet_id) ?? 0) / config.pageSize));
    paymentsRead = planPaymentsRead(wholeEnvironments(config, shard, discovery, env.loaded.secrets.databaseUrl !== undefined && env.loaded.secrets.databaseUrl !== ''), discovery.wallets, counts, config.pageSize, chainWidth(config.concurrency), config.paymentsRead === 'environment');
    // payments pages (per wallet, or the environments read whole) + a ledger estimate of two events
    // per payment + one summary per wallet and environment + one policies read per wallet in scope (discovery)
    estimatedRequests = 1 + 1 + pages - paymentsRead.saved + pages * 2 + discovery.wallets.length + discovery.environments.length + discovery.allWallets.length;
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
  const where = reportRoot(config, env.cwd);
  const plan: Plan = {
    organizationId,
    environments: discovery?.environments ?? [...new Set(wallets.map((w) => w.environment_id))].sort(),
    wallets: discovery?.allWallets.length ?? wallets.length,
    walletsInShard: wallets.length,
    window,
    paymentWindow,
    streams: apis ? wallets.length * 3 + (discovery?.environments.length ?? 0) : 0,
    estimatedRequests,
    paymentsRead,
    snapshot,
    outputRoot: shard ? 'none: a shard writes no report' : await outputRootLine(where, organizationId, config, spec),
    walletList: wallets.map((w) => ({ wallet_id: w.wallet_id, environment_id: w.environment_id, name: w.name, active: w.active, payments: counts.get(w.wallet_id) ?? null })),
  };
  env.print(formatPlan(spec, plan, shard, where.root, config.formats, apis !== null));
  return plan;
}

/** The pre-flight of the real run (output-root-check.ts), told instead of thrown. */
async function outputRootLine(where: ReportRoot, organizationId: string, config: JobEnv['loaded']['config'], spec: PipelineSpec): Promise<string> {
  try {
    const state = await checkOutputRoot({ where, organizationId, environmentIds: config.environments.map((e) => e.id), walletIds: config.wallets, adopt: spec.adoptOut === true, job: spec.job, period: spec.period.label });
    const record = await readRootRecord(where.root);
    const held = record === null ? `${where.root}: no books yet (the run records it as ${scopeWords(state.check.scope)})` : `${where.root}: ${scopeWords(record.scope)}, the run's scope`;
    const adopting = state.adoption.folders.length > 0 || state.adoption.previous !== null ? `; --adopt-out takes over ${state.adoption.folders.length} folder(s)` : '';
    const closed = spec.closable && state.period.closed ? `; ${spec.period.label} is closed on disk: the run writes its next amendment, or nothing` : '';
    return `${held}${adopting}${closed}`;
  } catch (error) {
    return `${where.root}: the run would stop here — ${error instanceof AppError ? `${error.message} (exit ${error.exitCode})` : String(error)}`;
  }
}

function paymentsReadLine(plan: Plan): string {
  const whole = plan.paymentsRead.environments;
  if (whole.length === 0) return '  payments       per wallet';
  const rest = plan.environments.length - whole.length;
  const saved = plan.paymentsRead.saved;
  const versus = saved >= 0 ? `~${saved} requests fewer than per wallet` : `~${-saved} requests more than per wallet: paymentsRead is "environment"`;
  return `  payments       environment-level read of ${whole.length} environment(s) (${versus})${rest > 0 ? `; per wallet in ${rest}` : ''}`;
}

function formatPlan(spec: PipelineSpec, plan: Plan, shard: Shard | undefined, outRoot: string, formats: readonly string[], apis: boolean): string {
  return [
    `plan for ${spec.command} ${spec.period.label} (dry run: ${spec.pull ? 'nothing is read beyond the wallet list and summaries' : 'no API calls; the snapshot is only read'}, nothing is written)`,
    `  organization   ${plan.organizationId}`,
    `  window         [${plan.window.from}, ${plan.window.to}) in ${plan.window.tz}`,
    ...(plan.paymentWindow.from !== plan.window.from ? [`  payments sweep [${plan.paymentWindow.from}, ${plan.paymentWindow.to}) (look-back)`] : []),
    `  environments   ${plan.environments.length} ${plan.environments.join(', ')}`,
    `  wallets        ${plan.walletsInShard}${shard ? ` of ${plan.wallets} (shard ${shard.index}/${shard.count})` : ''}`,
    `  streams        ${plan.streams} (payments, ledger and summary per wallet; summary per environment)`,
    `  requests       ~${plan.estimatedRequests} (estimate)`,
    ...(apis ? [paymentsReadLine(plan)] : []),
    `  snapshot       ${plan.snapshot}`,
    `  output root    ${plan.outputRoot}`,
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
