/**
 * The CLI as a subprocess: `node dist/bundle/main.js`, the bundled CLI that bin/payexport starts
 * (what users and cron run; `npm test` builds first). Spawned asynchronously, never spawnSync: the
 * simulator the CLI talks to runs in THIS process's event loop. The child's environment is built
 * from scratch, so nothing of the developer's shell (DATABASE_URL, PAYEXPORT_*) leaks into a test.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = fileURLToPath(new URL('../../..', import.meta.url));
export const CLI = join(ROOT, 'dist', 'bundle', 'main.js');

/** Fails with a clear message when dist/ is missing or older than src/ (run `npm run build`). */
export function assertBuilt(): void {
  if (!existsSync(CLI)) throw new Error(`${CLI} is missing: run \`npm run build\` first (npm test does)`);
  const built = statSync(CLI).mtimeMs;
  const newest = newestMtime(join(ROOT, 'src'));
  if (newest.mtimeMs > built) throw new Error(`dist/ is older than ${newest.path}: run \`npm run build\` first (npm test does)`);
}

function newestMtime(dir: string): { path: string; mtimeMs: number } {
  let best = { path: dir, mtimeMs: 0 };
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    const candidate = entry.isDirectory() ? newestMtime(path) : { path, mtimeMs: statSync(path).mtimeMs };
    if (candidate.mtimeMs > best.mtimeMs) best = candidate;
  }
  return best;
}

/**
 * The suite run under faketime (scripts/test-dates.sh) moves the CLI's clock too: libfaketime's
 * preload and its settings are the one part of the test's environment every child inherits.
 */
function fakedClock(): Record<string, string> {
  const faked: Record<string, string> = {};
  for (const [name, value] of Object.entries(process.env)) {
    if (value !== undefined && (name === 'LD_PRELOAD' || name.startsWith('FAKETIME'))) faked[name] = value;
  }
  return faked;
}

export interface CliResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

export interface CliOptions {
  cwd: string;
  /** the child's whole environment besides PATH and HOME */
  env?: Record<string, string>;
  /** written to the child's stdin, which then ends; null: a pipe left open (default: no stdin at all, as from /dev/null) */
  stdin?: string | null;
  /** run as this user (and its group): a root test process checking what an ordinary user may not write */
  uid?: number;
}

export interface RunningCli {
  child: ChildProcess;
  result: Promise<CliResult>;
  /** resolves with the first stderr line matching `pattern` (rejects if the process ends first) */
  waitForStderr(pattern: RegExp): Promise<string>;
}

export function startCli(args: readonly string[], options: CliOptions): RunningCli {
  const child = spawn(process.execPath, [CLI, ...args], {
    cwd: options.cwd,
    env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: options.cwd, ...fakedClock(), ...options.env },
    stdio: [options.stdin === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'],
    ...(options.uid === undefined ? {} : { uid: options.uid, gid: options.uid }),
  });
  if (typeof options.stdin === 'string') child.stdin!.end(options.stdin);
  let stdout = '';
  let stderr = '';
  const waiters: Array<{ pattern: RegExp; resolve: (line: string) => void; reject: (error: Error) => void }> = [];
  child.stdout!.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
  child.stderr!.on('data', (chunk: Buffer) => {
    stderr += chunk.toString('utf8');
    for (const waiter of [...waiters]) {
      const line = stderr.split('\n').find((l) => waiter.pattern.test(l));
      if (line !== undefined) {
        waiters.splice(waiters.indexOf(waiter), 1);
        waiter.resolve(line);
      }
    }
  });
  const result = new Promise<CliResult>((resolve, reject) => {
    child.once('error', reject);
    child.once('close', (code, signal) => {
      for (const waiter of waiters.splice(0)) waiter.reject(new Error(`payexport ${args.join(' ')} exited (${code}) before printing ${waiter.pattern}; stderr:\n${stderr}`));
      resolve({ code, signal, stdout, stderr });
    });
  });
  return {
    child,
    result,
    waitForStderr: (pattern) =>
      new Promise<string>((resolve, reject) => {
        const line = stderr.split('\n').find((l) => pattern.test(l));
        if (line !== undefined) resolve(line);
        else if (child.exitCode !== null) reject(new Error(`payexport exited before printing ${pattern}`));
        else waiters.push({ pattern, resolve, reject });
      }),
  };
}

export function runCli(args: readonly string[], options: CliOptions): Promise<CliResult> {
  return startCli(args, options).result;
}

/** JSON log lines (pino, one object per line) and everything else on stderr, apart. */
export function splitStderr(stderr: string): { logs: Array<Record<string, unknown>>; plain: string[] } {
  const logs: Array<Record<string, unknown>> = [];
  const plain: string[] = [];
  for (const line of stderr.split('\n')) {
    if (line === '') continue;
    if (line.startsWith('{')) {
      try {
        logs.push(JSON.parse(line) as Record<string, unknown>);
        continue;
      } catch {
        // not a log record: counted as plain text below
      }
    }
    plain.push(line);
  }
  return { logs, plain };
}

/** For assertion messages: the command and what it printed. */
export function describeRun(args: readonly string[], result: CliResult): string {
  return `payexport ${args.join(' ')} → ${result.code}\n--- stdout\n${result.stdout}\n--- stderr\n${result.stderr}`;
}
