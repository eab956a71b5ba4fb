/**
 * One published report folder to each chosen destination, one after the other, each within its own
 * time budget and attempts (the notify room's retry loop: a pure predicate, a pure delay, injected
 * sleep). Nothing here throws: every destination ends as a DeliveryRecord, delivered, unchanged or
 * failed with the reason — the report and its exit code are never touched by a delivery.
 */
import { resolve } from 'node:path';
import type { DeliveryConfig, DeliveryDestination } from '../config/delivery-schema.js';
import { DeliveryError } from '../util/delivery-error.js';
import type { Env } from '../util/env.js';
import { attemptDelivery, type AttemptsOutcome, type DeliveryRetryPolicy } from '../util/delivery-attempts.js';
import type { Logger } from '../util/log.js';
import type { SecretScrubber } from '../util/secret-scrubber.js';
import { resolveCredentials, type DeliveryCredentials } from './delivery-secrets.js';
import type { DeliveryRecord } from './delivery-record.js';
import { localTree } from './local-tree.js';
import type { ReportToDeliver } from './report-to-deliver.js';
import { objectKey } from './s3-names.js';
import { openSftpTree, sftpLabel } from './sftp-tree.js';
import { noTransfer, type TransferStats } from './transfer-stats.js';
import { deliverToTree } from './tree-delivery.js';

export interface DeliverInput {
  delivery: Pick<DeliveryConfig, 'timeoutMs' | 'attempts'>;
  destinations: readonly DeliveryDestination[];
  report: ReportToDeliver;
  runId: string;
  env: Env;
  cwd: string;
  scrubber: SecretScrubber;
  log: Logger;
  /** tests: instant, deterministic backoff */
  retry?: Pick<DeliveryRetryPolicy, 'sleep' | 'random' | 'now'>;
}

export async function deliverReport(input: DeliverInput): Promise<DeliveryRecord[]> {
  const records: DeliveryRecord[] = [];
  for (const d of input.destinations) records.push(await deliverOne(input, d));
  return records;
}

/** Where a report lands at a destination, in words without a credential. */
export function remoteOf(d: DeliveryDestination, report: Pick<ReportToDeliver, 'job' | 'folder'>, cwd: string): string {
  switch (d.kind) {
    case 'folder':
      return resolve(cwd, d.path, report.job, report.folder);
    case 'sftp':
      return `${sftpLabel(d)}/${[d.remoteDir.replace(/^\/+|\/+$/g, ''), report.job, report.folder].filter((p) => p !== '').join('/')}`;
    case 's3':
      return `s3://${d.bucket}/${objectKey(d, report.job, report.folder)}/`;
  }
}

async function deliverOne(input: DeliverInput, d: DeliveryDestination): Promise<DeliveryRecord> {
  const began = Date.now();
  const { report } = input;
  let stats: TransferStats = noTransfer();
  const outcome = await attempts(input, d, (sent) => {
    stats = { filesSent: stats.filesSent + sent.filesSent, bytesSent: stats.bytesSent + sent.bytesSent, unchanged: sent.unchanged && stats.filesSent === 0, warnings: sent.warnings };
  });
  const record: DeliveryRecord = {
    destination: d.name,
    kind: d.kind,
    report: `${report.job}/${report.folder}`,
    remote: remoteOf(d, report, input.cwd),
    outcome: !outcome.ok ? 'failed' : stats.unchanged ? 'unchanged' : 'delivered',
    files_sent: stats.filesSent,
    bytes_sent: stats.bytesSent,
    attempts: outcome.attempts,
    detail: input.scrubber.scrub(outcome.ok ? [stats.unchanged ? 'already delivered, unchanged: nothing sent' : 'delivered', ...stats.warnings].join('; ') : outcome.detail),
    duration_ms: Date.now() - began,
  };
  const fields = { destination: record.destination, kind: record.kind, report: record.report, remote: record.remote, files_sent: record.files_sent, bytes_sent: record.bytes_sent, attempts: record.attempts, duration_ms: record.duration_ms };
  if (record.outcome === 'failed') input.log.warn({ ...fields, reason: record.detail }, `delivery of ${record.report} to ${record.destination} failed: ${record.detail}`);
  else input.log.info(fields, `${record.report} ${record.outcome} at ${record.destination}`);
  return record;
}

/** The credentials, then the attempts; a missing secret is a failure with no attempt, a bug in a transport a failure too. */
async function attempts(input: DeliverInput, d: DeliveryDestination, onSent: (sent: TransferStats) => void): Promise<AttemptsOutcome> {
  let creds: DeliveryCredentials;
  try {
    creds = resolveCredentials(d, input.env, input.cwd, input.scrubber);
  } catch (error) {
    return { ok: false, attempts: 0, detail: error instanceof Error ? error.message : String(error) };
  }
  try {
    return await attemptDelivery({ budgetMs: input.delivery.timeoutMs, attempts: input.delivery.attempts, ...input.retry }, async (timeoutMs) => {
      onSent(await withDeadline(timeoutMs, d.name, (onClose) => attemptOnce(d, creds, input, timeoutMs, onClose)));
    });
  } catch (error) {
    return { ok: false, attempts: 1, detail: error instanceof Error ? error.message : String(error) };
  }
}

async function attemptOnce(d: DeliveryDestination, creds: DeliveryCredentials, input: DeliverInput, timeoutMs: number, onClose: (close: () => Promise<void>) => void): Promise<TransferStats> {
  const { report } = input;
  if (d.kind === 'folder') {
    const root = resolve(input.cwd, d.path);
    return deliverToTree(localTree(root), root, report, input.runId);
  }
  if (d.kind === 'sftp' && creds.kind === 'sftp') {
    const tree = await openSftpTree(d, creds.sftp, timeoutMs);
    onClose(() => tree.close());
    try {
      return await deliverToTree(tree, d.remoteDir, report, input.runId);
    } finally {
      await tree.close();
    }
  }
  if (d.kind === 's3' && creds.kind === 's3') {
    // the AWS SDK is loaded by the runs that deliver to S3, not by every run (s3-names.ts)
    const { deliverToS3, s3Client } = await import('./s3-delivery.js');
    const client = s3Client(d, creds.s3, timeoutMs);
    onClose(async () => client.destroy());
    try {
      return await deliverToS3(client, d, report);
    } finally {
      client.destroy();
    }
  }
  throw new Error(`destination ${d.name}: credentials of the wrong kind`);
}

/** One attempt within its share of the budget: past it, the connection is closed and the attempt fails (retryable). */
async function withDeadline<T>(ms: number, name: string, run: (onClose: (close: () => Promise<void>) => void) => Promise<T>): Promise<T> {
  let close: (() => Promise<void>) | null = null;
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      void close?.().catch(() => undefined);
      reject(new DeliveryError(`${name}: the attempt did not finish within ${ms} ms`, true));
    }, ms);
    timer.unref();
  });
  try {
    return await Promise.race([run((c) => (close = c)), deadline]);
  } finally {
    clearTimeout(timer);
  }
}
