/**
 * The snapshot of `--no-db`: the spool (spool-store.ts) for the run's rows, a lock file per job,
 * and the closed periods in one JSON file beside them. Nothing else is remembered between runs.
 */
import { readFile, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Snapshot } from '../../model/ports.js';
import { ensureFolder } from '../../util/ensure-folder.js';
import { clearTemporary, CREATE_NEW } from '../../util/no-follow.js';
import { acquireFileLock, describeHolder } from '../db/lock-file.js';
import { SpoolStore } from './spool-store.js';

/** `<stateRoot>/<job>/<period>` holds the run's spool; `stateRoot` the locks and the closed periods. */
export function spoolSnapshot(stateRoot: string, job: string, period: string): Snapshot {
  const spool = new SpoolStore(join(stateRoot, job, period));
  const closedFile = join(stateRoot, 'closed-periods.json');
  const readClosed = async (): Promise<Record<string, unknown>> => {
    try {
      return JSON.parse(await readFile(closedFile, 'utf8')) as Record<string, unknown>;
    } catch {
      return {};
    }
  };
  return {
    kind: 'spool',
    target: join(stateRoot, job, period),
    writer: () => spool,
    source: spool,
    journalExports: null,
    lotsRecord: null,
    async lock(organizationId, lockJob) {
      return acquireFileLock(
        join(stateRoot, 'locks', `${lockJob.replace(/[^A-Za-z0-9._-]/g, '_')}.lock`),
        `${lockJob} ${organizationId}`,
        (holder) => `another ${lockJob} run is in progress (${describeHolder(holder)}); try again later`,
      );
    },
    // The spool is per run: the whole ledger is read every time.
    ledgerStart: async () => null,
    orphanPaymentIds: (organizationId, wallet, window) => spool.orphanPaymentIds(organizationId, wallet.wallet_id, window),
    // Without a database nothing is remembered between runs, so there is nothing to refresh.
    openPaymentIds: async () => [],
    async isPeriodClosed(organizationId, p) {
      return (await readClosed())[`${organizationId}/${p}`] !== undefined;
    },
    async closePeriod(input) {
      const closed = await readClosed();
      const key = `${input.organizationId}/${input.period}`;
      if (closed[key] !== undefined) return false;
      closed[key] = { window: input.window, run_id: input.runId, closed_at: new Date().toISOString() };
      await ensureFolder(stateRoot);
      clearTemporary(`${closedFile}.tmp`);
      await writeFile(`${closedFile}.tmp`, JSON.stringify(closed, null, 2), { flag: CREATE_NEW });
      await rename(`${closedFile}.tmp`, closedFile);
      return true;
    },
    close: async () => undefined,
  };
}
