import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { assertBuilt, ROOT } from '../support/cli/cli.js';

/**
 * bin/payexport, the command npm links: it must find the CLI through a symlink (npm's link in
 * node_modules/.bin or a global prefix), become the node process itself (signals and exit codes
 * reach the job, no parent left holding memory), and start it with two malloc arenas unless the
 * environment already says otherwise (the reason is in the launcher's own comment).
 */
const LAUNCHER = join(ROOT, 'bin', 'payexport');
const dir = mkdtempSync(join(os.tmpdir(), 'payexport-launcher-'));
const linked = join(dir, 'payexport');
symlinkSync(LAUNCHER, linked);

afterAll(() => rmSync(dir, { recursive: true, force: true }));

interface Started {
  environ: Record<string, string>;
  executable: string;
  pid: number;
}

/** Starts the linked launcher on a command that keeps running (the simulator), reads what /proc says of it, stops it. */
async function startSimThrough(env: Record<string, string>): Promise<Started> {
  const child = spawn(linked, ['sim', '--port', '0', '--scale', '10'], { cwd: dir, env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: dir, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  try {
    await new Promise<void>((resolve, reject) => {
      let out = '';
      child.stdout.on('data', (chunk: Buffer) => {
        out += chunk.toString();
        if (/http:\/\/127\.0\.0\.1:\d+/.test(out)) resolve();
      });
      child.once('exit', (code) => reject(new Error(`sim ended (${code}) before it listened: ${out}`)));
    });
    const pid = child.pid as number;
    const environ = Object.fromEntries(
      readFileSync(`/proc/${pid}/environ`, 'utf8')
        .split('\0')
        .filter(Boolean)
        .map((pair) => [pair.slice(0, pair.indexOf('=')), pair.slice(pair.indexOf('=') + 1)]),
    );
    const executable = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0')[0] ?? '';
    return { environ, executable, pid };
  } finally {
    child.kill('SIGTERM');
  }
}

describe('bin/payexport', () => {
  it('runs the CLI through a symlink, as npm links it', async () => {
    assertBuilt();
    const result = await new Promise<{ code: number | null; stdout: string }>((resolve) => {
      const child = spawn(linked, ['--version'], { cwd: dir, env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: dir } });
      let stdout = '';
      child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
      child.once('close', (code) => resolve({ code, stdout }));
    });
    expect(result.code).toBe(0);
    const { version } = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string };
    expect(result.stdout.trim()).toBe(version);
  });

  it('becomes the node process itself, with two malloc arenas', async () => {
    const started = await startSimThrough({});
    expect(started.executable).toMatch(/node$/);
    expect(started.environ.MALLOC_ARENA_MAX).toBe('2');
  });

  it("keeps the user's own MALLOC_ARENA_MAX", async () => {
    const started = await startSimThrough({ MALLOC_ARENA_MAX: '4' });
    expect(started.environ.MALLOC_ARENA_MAX).toBe('4');
  });
});
