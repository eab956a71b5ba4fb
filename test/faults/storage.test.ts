import { cpSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describeRun, runCli, splitStderr } from '../support/cli/cli.js';
import { PLANTED_SECRETS, type TestSim } from '../support/cli/sim.js';
import { workspace } from '../support/cli/workspace.js';
import { expectExit, expectFolderUnchanged, expectNoPartialFolders, expectPaymentsComplete, expectSameReport, folderBytes } from './support/invariants.js';
import { LONG_TAIL, longTitle, OCTOBER, PERIOD } from './support/setting.js';
import { startReferenceRun } from './support/reference-run.js';

/**
 * PROC-08/09: outputs that cannot be written — a full disk (a real ENOSPC from the kernel: the file
 * is opened on /dev/full through the `report:open` fault point; a tmpfs needs root to mount), a job
 * folder that is a file, a rename refused — exit 74 with one line naming the path and the errno;
 * the previous good report stays byte for byte; no temporary folder is left; the pull's work is
 * kept, so once the disk is fixed the rerun resumes and writes the same files as a clean run.
 *
 * Not here: EACCES from real permissions (these tests run as root, who ignores mode bits; a
 * refused rename is injected instead) and an unwritable output root before any request
 * (test/cli/exit-codes.test.ts, 74).
 */

const ws = workspace('faults-storage');
let sim: TestSim;
let truth: string[];
let reference: string;

beforeAll(async () => {
  ({ sim, truth, reference } = await startReferenceRun(ws));
});

afterAll(async () => {
  await sim?.close();
  ws.remove();
});

const ARGS = ['export', ...OCTOBER, '--no-db'];

/** A working folder whose output already holds a good report of the period. */
function withPreviousReport(label: string): { cwd: string; final: string; before: Map<string, Buffer> } {
  const cwd = ws.fresh(label);
  const final = join(cwd, 'reports/export', PERIOD);
  mkdirSync(join(cwd, 'reports/export'), { recursive: true });
  cpSync(reference, final, { recursive: true });
  return { cwd, final, before: folderBytes(final) };
}

async function failThenRecover(label: string, fault: string, message: RegExp): Promise<void> {
  const { cwd, final, before } = withPreviousReport(label);
  const failed = await runCli(ARGS, { cwd, env: { ...sim.env('token'), PAYEXPORT_FAULT_AT: fault } });
  expectExit(ARGS, failed, 74, { message, secrets: PLANTED_SECRETS, dirs: [cwd] });
  expectFolderUnchanged(final, before, 'the previous good report');
  expect(expectNoPartialFolders(join(cwd, 'reports'), 'export')).toEqual([PERIOD]);

  const rerun = await runCli(ARGS, { cwd, env: sim.env('token') });
  expectExit(ARGS, rerun, 0, { secrets: PLANTED_SECRETS, dirs: [cwd] });
  expect(splitStderr(rerun.stderr).logs.some((r) => r.msg === 'resuming an interrupted run from its checkpoints'), describeRun(ARGS, rerun)).toBe(true);
  expectSameReport(final, reference, label);
  expectPaymentsComplete(final, truth, label);
}

describe('74: outputs cannot be written', () => {
  it('the disk fills up while ledger.csv is written (ENOSPC from /dev/full)', () =>
    failThenRecover('enospc-csv', 'report:open:file=ledger.csv@full', /cannot write .*\/\.2026-10-01_2026-10-31\.tmp-\S+\/ledger\.csv: no space left on the device \(ENOSPC\)/));

  it('the disk fills up under the --no-db spool during the pull (ENOSPC)', () =>
    failThenRecover('enospc-spool', 'pull:page:pages=20@enospc', /cannot write .*\/reports\/\.state\/export\/2026-10-01_2026-10-31: no space left on the device \(ENOSPC\)/));


  it('the job folder is a file: the pull is kept, and after the fix the rerun resumes and publishes', async () => {
    const cwd = ws.fresh('job-folder-is-a-file');
    mkdirSync(join(cwd, 'reports'));
    writeFileSync(join(cwd, 'reports/export'), 'not a folder\n');
    const failed = await runCli(ARGS, { cwd, env: sim.env('token') });
    expectExit(ARGS, failed, 74, { message: /cannot write .*reports\/export: ENOTDIR/, secrets: PLANTED_SECRETS, dirs: [cwd] });
    rmSync(join(cwd, 'reports/export'));
    const requestsBefore = sim.sim.requestLog.entries().length;
    const rerun = await runCli(ARGS, { cwd, env: sim.env('token') });
    expectExit(ARGS, rerun, 0, { secrets: PLANTED_SECRETS, dirs: [cwd] });
    expect(splitStderr(rerun.stderr).logs.some((r) => r.msg === 'resuming an interrupted run from its checkpoints')).toBe(true);
    // the pages stored before the failure were not fetched again: only discovery, reads by id, and
    // each wallet's ledger past the window's end (read again on a resume for the balance bridge:
    // src/extract/streams/ledger-tail.ts)
    const again = sim.sim.requestLog.entries().slice(requestsBefore).filter((e) => /\/payments$|\/ledger$/.test(e.path));
    const tail = (e: (typeof again)[number]): boolean => e.path.endsWith('/ledger') && (new URLSearchParams(e.query).get('start_date') ?? '').startsWith('2026-11-01T00:00:00');
    expect(again.filter((e) => !tail(e))).toEqual([]);
    expect(again.filter(tail).length, 'the ledger past the window end, read again').toBeGreaterThan(0);
    expect(expectNoPartialFolders(join(cwd, 'reports'), 'export')).toEqual([PERIOD]);
    expectSameReport(join(cwd, 'reports/export', PERIOD), reference, 'after the fix');
  });

  it.skipIf(!LONG_TAIL)(longTitle('the disk fills up while the workbook is written (ENOSPC from /dev/full)'), () =>
    failThenRecover('enospc-xlsx', 'report:open:file=report.xlsx@full', /report\.xlsx: no space left on the device \(ENOSPC\)/));

  it.skipIf(!LONG_TAIL)(longTitle('publishing is refused (EACCES on the rename): nothing half-published'), () =>
    failThenRecover('eacces-publish', 'report:publish@eacces', /cannot write .*\.tmp-\S+: EACCES/));

  it.skipIf(!LONG_TAIL)(longTitle('an I/O error (EIO) on the 100th row of payments.csv'), () =>
    failThenRecover('eio-csv', 'report:csv:file=payments.csv:rows=100@eio', /payments\.csv: EIO/));
});
