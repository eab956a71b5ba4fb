import { existsSync, lstatSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describeRun, runCli } from '../support/cli/cli.js';
import { PLANTED_SECRETS, type TestSim } from '../support/cli/sim.js';
import { workspace } from '../support/cli/workspace.js';
import { expectExit, expectPaymentsComplete, expectSameReport, folderBytes } from './support/invariants.js';
import { LONG_TAIL, longTitle, OCTOBER, PERIOD } from './support/setting.js';
import { startReferenceRun } from './support/reference-run.js';

/**
 * SEC-09: a symbolic link planted where the job writes — a temporary file of the spool, the spool
 * folder itself, a spool stream file between a kill and the resume, the period's report folder —
 * and at the listener's secrets file. Whatever the run answers (0 when the link stood at a name of
 * ours that is simply replaced, 74 naming the path when it stood where a folder of ours should be),
 * the file or folder the link points to is byte for byte what it was and nothing new is in it.
 */

const ws = workspace('faults-symlinks');
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

/** Somewhere outside the run's folder a link could send its writes: a file and a folder with known bytes. */
function victims(cwd: string): { file: string; dir: string; unchanged(): void } {
  const root = join(cwd, '..', `${cwd.split('/').pop()!}-victim`);
  mkdirSync(join(root, 'dir'), { recursive: true });
  writeFileSync(join(root, 'file'), 'the victim file: must never change\n');
  writeFileSync(join(root, 'dir/kept'), 'kept\n');
  const before = folderBytes(root);
  return {
    file: join(root, 'file'),
    dir: join(root, 'dir'),
    unchanged() {
      const after = folderBytes(root);
      expect([...after.keys()].sort(), 'nothing new where the link points').toEqual([...before.keys()].sort());
      for (const [name, bytes] of before) expect(after.get(name)?.equals(bytes), `${name} unchanged`).toBe(true);
    },
  };
}

function plant(target: string, at: string): void {
  mkdirSync(join(at, '..'), { recursive: true });
  symlinkSync(target, at);
}

const spool = (cwd: string): string => join(cwd, 'reports/.state/export', PERIOD);

describe('SEC-09: a symbolic link planted at a path the job writes is never followed', () => {
  it("at the spool's temporary state file: replaced, not written through; the run completes", async () => {
    const cwd = ws.fresh('spool-temp');
    const victim = victims(cwd);
    plant(victim.file, join(spool(cwd), 'state.json.tmp'));
    const result = await runCli(ARGS, { cwd, env: sim.env('token') });
    expectExit(ARGS, result, 0, { secrets: PLANTED_SECRETS, dirs: [cwd] });
    victim.unchanged();
    expectSameReport(join(cwd, 'reports/export', PERIOD), reference, 'with a link at the temporary file');
    expectPaymentsComplete(join(cwd, 'reports/export', PERIOD), truth, 'with a link at the temporary file');
  });

  it('at the spool folder itself: 74 naming it, nothing written where it points', async () => {
    const cwd = ws.fresh('spool-folder');
    const victim = victims(cwd);
    plant(victim.dir, spool(cwd));
    const result = await runCli(ARGS, { cwd, env: sim.env('token') });
    expectExit(ARGS, result, 74, { message: /cannot write .*\.state\/export\/2026-10-01_2026-10-31: the spool folder is a symbolic link; refusing to follow it/, secrets: PLANTED_SECRETS, dirs: [cwd] });
    victim.unchanged();
  });

  it.skipIf(!LONG_TAIL)(longTitle('at a spool stream file between a kill and the resume: the stream is pulled again, the target untouched'), async () => {
    const cwd = ws.fresh('spool-stream');
    const victim = victims(cwd);
    const killed = await runCli([...ARGS, '--page-size', '10'], { cwd, env: { ...sim.env('token'), PAYEXPORT_FAULT_AT: 'pull:page:pages=30' } });
    expect(killed.signal, describeRun(ARGS, killed)).toBe('SIGKILL');
    const streams = join(spool(cwd), 'streams');
    const file = readdirSync(streams).sort((a, b) => statSync(join(streams, b)).size - statSync(join(streams, a)).size)[0]!;
    rmSync(join(streams, file));
    symlinkSync(victim.file, join(streams, file));
    const rerun = await runCli([...ARGS, '--page-size', '10'], { cwd, env: sim.env('token') });
    expectExit(ARGS, rerun, 0, { secrets: PLANTED_SECRETS, dirs: [cwd] });
    victim.unchanged();
    expectPaymentsComplete(join(cwd, 'reports/export', PERIOD), truth, 'with a link at a stream file');
    expectSameReport(join(cwd, 'reports/export', PERIOD), reference, 'with a link at a stream file');
  });

  it("at the period's report folder: 74, the folder it points to untouched, no partial folder", async () => {
    const cwd = ws.fresh('report-folder');
    const victim = victims(cwd);
    plant(victim.dir, join(cwd, 'reports/export', PERIOD));
    const result = await runCli(ARGS, { cwd, env: sim.env('token') });
    expectExit(ARGS, result, 74, { message: /2026-10-01_2026-10-31.* symbolic link|ELOOP/, secrets: PLANTED_SECRETS, dirs: [cwd] });
    victim.unchanged();
    expect(lstatSync(join(cwd, 'reports/export', PERIOD)).isSymbolicLink(), 'the link itself is left for its owner to judge').toBe(true);
    expect(readdirSync(join(cwd, 'reports/export')), 'no temporary folder left beside it').toEqual([PERIOD]);
  });

  it("at the listener's secrets file (`webhooks register --secrets-file`): a dangling link is replaced by a 0600 file, its target never created", async () => {
    const cwd = ws.fresh('secrets-file');
    const victim = victims(cwd);
    const secretsFile = join(cwd, 'webhook-secrets.json');
    const target = join(victim.dir, 'would-be-secrets.json');
    symlinkSync(target, secretsFile);
    const args = ['webhooks', 'register', '--environment', sim.sim.environments[0]!.id, '--url', 'http://127.0.0.1:9/webhooks/voltage', '--secrets-file', secretsFile];
    const result = await runCli(args, { cwd, env: sim.env('token') });
    expectExit(args, result, 0, { secrets: PLANTED_SECRETS, dirs: [cwd] });
    expect(existsSync(target), 'the link target was never created').toBe(false);
    victim.unchanged();
    const stat = lstatSync(secretsFile);
    expect(stat.isFile() && !stat.isSymbolicLink(), 'the secrets file is a regular file now').toBe(true);
    expect(stat.mode & 0o777).toBe(0o600);
    expect(Object.keys(JSON.parse(readFileSync(secretsFile, 'utf8')) as Record<string, unknown>)).toHaveLength(1);
  });
});
