import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { installInterruptWatchdog, type Watchdog } from '../../../src/cli/interrupt-watchdog.js';
import { removeRunTempFoldersSync } from '../../../src/sinks/run-temp-folders.js';
import { AppError } from '../../../src/util/errors.js';
import { createLogger } from '../../../src/util/log.js';
import { SecretScrubber } from '../../../src/util/secret-scrubber.js';

const root = mkdtempSync(join(tmpdir(), 'payexport-watchdog-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

let installed: Watchdog | null = null;
afterEach(() => installed?.dispose());

function setup(graceMs: number) {
  const lines: string[] = [];
  const stderr: string[] = [];
  const exits: number[] = [];
  const controller = new AbortController();
  let exited: () => void = () => undefined;
  const exitedPromise = new Promise<void>((resolve) => (exited = resolve));
  const scrubber = new SecretScrubber();
  scrubber.add('PLANTEDwatchdogSecret-91');
  installed = installInterruptWatchdog({
    controller,
    log: createLogger({ runId: 'r1', scrubber, format: 'json', destination: { write: (line: string) => lines.push(line) } }),
    jsonLog: true,
    stderr: { write: (text: string) => stderr.push(text) },
    scrubber,
    cleanup: () => ['/out/export/.p.tmp-r1'],
    graceMs,
    exit: (code) => {
      exits.push(code);
      exited();
    },
  });
  return { controller, lines, stderr, exits, exited: exitedPromise };
}

describe('installInterruptWatchdog', () => {
  it('aborts the run at the first signal and leaves the exit to it when it ends in time', () => {
    const s = setup(60_000);
    process.emit('SIGTERM', 'SIGTERM');
    expect(s.controller.signal.aborted).toBe(true);
    expect(s.controller.signal.reason).toBeInstanceOf(AppError);
    expect((s.controller.signal.reason as AppError).exitCode).toBe(75);
    installed?.dispose();
    expect(s.exits).toEqual([]);
    expect(s.stderr).toEqual([]);
  });

  it('forces exit 75 after the grace period, once, with one stderr line and a JSON record naming what it removed', async () => {
    const s = setup(10);
    process.emit('SIGTERM', 'SIGTERM');
    await s.exited;
    expect(s.exits).toEqual([75]);
    expect(s.stderr).toEqual(['payexport: interrupted by SIGTERM; run again with the same arguments to resume (cleanup did not finish within 0.01 s: stopped without waiting)\n']);
    const record = JSON.parse(s.lines.at(-1) ?? '{}') as Record<string, unknown>;
    expect(record).toMatchObject({ exit_code: 75, error_type: 'interrupted', removed: ['/out/export/.p.tmp-r1'], run_id: 'r1' });
  });

  it('a second signal forces at once', () => {
    const s = setup(60_000);
    process.emit('SIGINT', 'SIGINT');
    process.emit('SIGINT', 'SIGINT');
    expect(s.exits).toEqual([75]);
    expect(s.stderr[0]).toMatch(/interrupted by SIGINT; .* \(second SIGINT: stopped without waiting\)\n$/);
  });
});

describe('removeRunTempFoldersSync', () => {
  it("removes only this run's temp folders, in every job folder", () => {
    const out = join(root, 'out');
    const mine = [join(out, 'export', '.2026-10-01_2026-10-31.tmp-RUN1'), join(out, 'month-end', '.2026-10.tmp-RUN1')];
    const others = [join(out, 'export', '.2026-10-01_2026-10-31.tmp-RUN2'), join(out, 'export', '2026-10-01_2026-10-31'), join(out, 'export', '.2026-10.old-RUN1')];
    for (const dir of [...mine, ...others]) {
      mkdirSync(dir, { recursive: true });
      writeFileSync(join(dir, 'payments.csv'), 'x');
    }
    expect(removeRunTempFoldersSync(out, 'RUN1').sort()).toEqual([...mine].sort());
    for (const dir of mine) expect(existsSync(dir)).toBe(false);
    for (const dir of others) expect(existsSync(dir)).toBe(true);
  });

  it('is quiet about an output root that does not exist', () => {
    expect(removeRunTempFoldersSync(join(root, 'nowhere'), 'RUN1')).toEqual([]);
  });
});
