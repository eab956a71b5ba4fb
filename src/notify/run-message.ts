/**
 * The one message a run sends, whatever the channel: built once from what the run knows, then
 * rendered per channel (render-*.ts). It is made of ids, names, counts, amounts and paths ONLY:
 * never a credential, a memo, a description or a metadata value (those may hold personal data),
 * and every free text it carries (an error's message, an exception's words) has passed the run's
 * SecretScrubber.
 */
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { basename, join } from 'node:path';
import type { PipelineOutcome } from '../jobs/pipeline.js';
import { formatBase } from '../money/format.js';
import { displayCurrency, displayScale } from '../money/units.js';
import type { Finding } from '../model/results.js';
import { MANIFEST_FILE } from '../sinks/manifest.js';
import type { Window } from '../model/window.js';
import { AppError, exitCodeOf } from '../util/errors.js';
import { EXIT_CODE_MEANINGS, type ExitCodeValue } from '../util/exit-codes.js';
import type { SecretScrubber } from '../util/secret-scrubber.js';
import { runVerdict, type CloseStatus } from './run-verdict.js';

export const RUN_MESSAGE_SCHEMA = 'payexport.run/v1';

export type RunStatusWord = 'ok' | 'exceptions' | 'failed';

export interface ExceptionLine {
  check_id: string;
  severity: 'error' | 'warning' | 'info';
  wallet_id: string | null;
  wallet_name: string | null;
  /** display code: BTC, USD or the asset's name */
  currency: string | null;
  /** display amounts (BTC, USD, the asset's decimals), or counts for checks that compare counts */
  expected: string | null;
  actual: string | null;
  difference: string | null;
  /** the finding in words, e.g. "error payment.ledger_match — Treasury (BTC): …; difference 0.00000150000 BTC" */
  text: string;
}

/** The versioned payload (docs/operations.md "Notifications"): field names are part of the contract. */
export interface RunMessage {
  schema: typeof RUN_MESSAGE_SCHEMA;
  /** true for `payexport notify test` (a sample, not a run) */
  test: boolean;
  run_id: string;
  job: string;
  command: string;
  period: string;
  window: Window | null;
  organization_id: string | null;
  status: RunStatusWord;
  exit_code: number;
  /** the exit code's meaning (contracts.md table) */
  exit_meaning: string;
  /** one line: what happened, for a subject or a notification preview */
  headline: string;
  ties_out: boolean | null;
  tie_out: string;
  close_status: CloseStatus;
  close: string;
  counts: { errors: number; warnings: number; notes: number };
  exceptions: ExceptionLine[];
  /** exceptions not listed above (all of them are in exceptions.csv) */
  exceptions_not_listed: number;
  open_items: number | null;
  report: { folder: string; manifest_sha256: string | null } | null;
  /** what became of the report at each delivery destination (empty: none chosen for this run) */
  delivery: DeliveryNote[];
  /** why the run failed, when it did not complete (scrubbed, one line) */
  failure: { type: string; message: string } | null;
  started_at: string;
  finished_at: string;
  duration_ms: number;
}

/** One delivery destination's outcome, as the message tells it (the delivery room's record, narrowed). */
export interface DeliveryNote {
  destination: string;
  outcome: 'delivered' | 'unchanged' | 'failed';
  detail: string;
}

export interface MessageInput {
  runId: string;
  job: string;
  command: string;
  period: string;
  window: Window | null;
  organizationId: string | null;
  startedAt: Date;
  finishedAt: Date;
  /** the pipeline's outcome when it returned; null when it threw */
  outcome: PipelineOutcome | null;
  /** what it threw, when it did */
  error: unknown;
  maxExceptions: number;
  scrubber: SecretScrubber;
  test?: boolean;
  deliveries?: readonly DeliveryNote[];
}

const SEVERITY_ORDER = { error: 0, warning: 1, info: 2 } as const;
const MAX_TEXT = 400;

export async function buildRunMessage(input: MessageInput): Promise<RunMessage> {
  const { outcome } = input;
  const report = outcome?.report ?? null;
  const exitCode: number = outcome ? outcome.exitCode : exitCodeOf(input.error);
  const findings = report?.result.findings ?? null;
  const count = (severity: Finding['severity']): number => (findings ?? []).filter((f) => f.severity === severity).length;
  const dir = outcome?.dir ?? null;
  const verdict = runVerdict({
    job: input.job,
    findings,
    closedBefore: dir !== null && (/\.amended-\d+$/.test(basename(dir)) || report?.publish.unchanged === true),
    notClosed: outcome?.notClosed ?? null,
    pullOnly: outcome !== null && report === null,
  });
  const status: RunStatusWord = exitCode === 0 ? 'ok' : exitCode === 65 ? 'exceptions' : 'failed';
  const failure = outcome ? null : describeFailure(input.error, input.scrubber);
  const listed = report ? exceptionLines(findings ?? [], report, input.maxExceptions, input.scrubber) : [];
  const message: RunMessage = {
    schema: RUN_MESSAGE_SCHEMA,
    test: input.test === true,
    run_id: input.runId,
    job: input.job,
    command: input.command,
    period: input.period,
    window: input.window,
    organization_id: input.organizationId,
    status,
    exit_code: exitCode,
    exit_meaning: EXIT_CODE_MEANINGS[exitCode as ExitCodeValue] ?? 'unknown exit code',
    headline: '',
    ties_out: verdict.tiesOut,
    tie_out: verdict.tieOutLine,
    close_status: verdict.closeStatus,
    close: verdict.closeLine,
    counts: { errors: count('error'), warnings: count('warning'), notes: count('info') },
    exceptions: listed,
    exceptions_not_listed: Math.max(0, (findings?.length ?? 0) - listed.length),
    open_items: report ? report.result.openItems.length : null,
    report: dir === null ? null : { folder: dir, manifest_sha256: await manifestSha256(dir) },
    delivery: (input.deliveries ?? []).map((d) => ({ destination: d.destination, outcome: d.outcome, detail: clip(input.scrubber.scrub(d.detail)) })),
    failure,
    started_at: input.startedAt.toISOString(),
    finished_at: input.finishedAt.toISOString(),
    duration_ms: Math.max(0, input.finishedAt.getTime() - input.startedAt.getTime()),
  };
  const failedDeliveries = message.delivery.filter((d) => d.outcome === 'failed').map((d) => d.destination);
  message.headline = headline(message) + (failedDeliveries.length > 0 ? ` — delivery FAILED to ${failedDeliveries.join(', ')} (payexport deliver retries it)` : '');
  return message;
}

function headline(m: RunMessage): string {
  const what = `payexport ${m.job} ${m.period}`;
  if (m.test) return `${what}: test message (no run took place)`;
  if (m.status === 'ok') return m.ties_out === null ? `${what}: pulled, no report of its own (exit 0)` : `${what}: ties out (exit 0)`;
  if (m.status === 'exceptions') return `${what}: ${m.ties_out === false ? 'does NOT tie' : 'needs attention'} — ${m.counts.errors} error(s) (exit 65)`;
  return `${what}: FAILED (exit ${m.exit_code}) — ${m.failure?.message ?? m.exit_meaning}`;
}

function describeFailure(error: unknown, scrubber: SecretScrubber): { type: string; message: string } {
  const text = error instanceof Error ? error.message : String(error);
  return { type: error instanceof AppError ? error.type : 'internal', message: clip(scrubber.scrub(text.split('\n')[0] ?? '')) };
}

function exceptionLines(findings: readonly Finding[], report: NonNullable<PipelineOutcome['report']>, max: number, scrubber: SecretScrubber): ExceptionLine[] {
  const names = new Map(report.wallets.map((w) => [w.wallet_id, w.name]));
  const decimals = new Map(report.assets.map((a) => [a.currency, a.decimal_display]));
  const assetNames = new Map(report.assets.map((a) => [a.currency, a.name]));
  // errors first; within a severity the report's own (deterministic) order
  const chosen = findings
    .map((f, i) => ({ f, i }))
    .sort((a, b) => SEVERITY_ORDER[a.f.severity] - SEVERITY_ORDER[b.f.severity] || a.i - b.i)
    .slice(0, max)
    .map(({ f }) => f);
  return chosen.map((f) => {
    const scale = f.currency === null ? null : displayScale(f.currency, decimals);
    const code = f.currency === null ? null : displayCurrency(f.currency, assetNames);
    const show = (v: string | null): string | null => {
      if (v === null) return null;
      if (scale === null || !/^-?\d+$/.test(v)) return v;
      return `${formatBase(BigInt(v), scale)} ${code}`;
    };
    const walletName = f.wallet_id === null ? null : (names.get(f.wallet_id) ?? null);
    const expected = show(f.expected);
    const actual = show(f.actual);
    const difference = show(f.difference);
    const where = f.wallet_id === null ? '' : ` — ${walletName ?? f.wallet_id}${code ? ` (${code})` : ''}`;
    const figures = [expected !== null ? `expected ${expected}` : '', actual !== null ? `actual ${actual}` : '', difference !== null ? `difference ${difference}` : ''].filter((s) => s !== '');
    const text = clip(scrubber.scrub(`${f.severity} ${f.check_id}${where}: ${f.message}${figures.length > 0 ? `; ${figures.join(', ')}` : ''}`));
    return { check_id: f.check_id, severity: f.severity, wallet_id: f.wallet_id, wallet_name: walletName, currency: code, expected, actual, difference, text };
  });
}

async function manifestSha256(dir: string): Promise<string | null> {
  try {
    return createHash('sha256').update(await readFile(join(dir, MANIFEST_FILE))).digest('hex');
  } catch {
    return null;
  }
}

function clip(text: string): string {
  return text.length > MAX_TEXT ? `${text.slice(0, MAX_TEXT - 1)}…` : text;
}
