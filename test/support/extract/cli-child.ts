/**
 * `payexport` as a child process: the built CLI, as cron runs it, checked newer than src/ so the
 * test runs the code of this checkout (tsx over src/ cost about a second of transpiling per
 * start). Optionally SIGKILLed once the simulator has answered N requests: no cleanup of any kind
 * runs in the child, as after a power cut or an OOM kill.
 */
import { spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { SimHandle } from '../../../src/sim/index.js';
import { assertBuilt, CLI } from '../cli/cli.js';

export interface ChildOutcome {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  /** requests the simulator received from this child (arrived after it started) */
  requests: number;
}

export interface ChildOptions {
  env: Record<string, string>;
  /** SIGKILL the child once the simulator has logged this many requests (counted from the start) */
  killAfterRequests?: number;
  /** or once this says so (polled) */
  killWhen?: () => Promise<boolean>;
}

export async function runCli(sim: SimHandle, args: readonly string[], options: ChildOptions): Promise<ChildOutcome> {
  sim.requestLog.clear();
  const startedAt = Date.now();
  // a killed predecessor's requests may still be closing: they arrived before this child started
  const ours = (): number => sim.requestLog.entries().filter((e) => Date.parse(e.at) >= startedAt).length;
  assertBuilt();
  const child = spawn(process.execPath, [CLI, ...args], {
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...options.env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const killAt = options.killAfterRequests;
  let polling = false;
  const watcher =
    killAt === undefined && options.killWhen === undefined
      ? undefined
      : setInterval(() => {
          if (killAt !== undefined && ours() >= killAt) child.kill('SIGKILL');
          if (options.killWhen && !polling) {
            polling = true;
            options
              .killWhen()
              .then((yes) => yes && child.kill('SIGKILL'))
              .finally(() => (polling = false));
          }
        }, 1);
  const [code, signal] = await new Promise<[number | null, NodeJS.Signals | null]>((resolve) => child.once('exit', (c, s) => resolve([c, s])));
  if (watcher) clearInterval(watcher);
  return { code, signal, stdout, stderr, requests: ours() };
}

/** The files of a published report folder (the manifest, its signature and the pull's evidence excluded: they describe the run), by name. */
export function reportFiles(dir: string): Record<string, string> {
  const files: Record<string, string> = {};
  for (const name of readdirSync(dir).sort()) {
    if (name === 'manifest.json' || name === 'manifest.json.sig' || name === 'evidence.jsonl') continue;
    files[name] = readFileSync(join(dir, name), 'utf8');
  }
  return files;
}
