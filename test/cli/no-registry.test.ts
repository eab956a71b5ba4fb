import { spawn } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, realpathSync } from 'node:fs';
import { createServer, type IncomingMessage } from 'node:http';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assertBuilt, ROOT } from '../support/cli/cli.js';
import { closedPort } from '../support/cli/closed-port.js';
import { workspace } from '../support/cli/workspace.js';

/**
 * Nothing a user is told to type resolves a package from the registry: nothing called payexport is
 * published, so `npx payexport` would run whatever someone publishes under that name later. The
 * README, the docs and every text the CLI prints name `payexport` (this checkout's bin/payexport,
 * put on the PATH once by `npm link`) — and `npm link` itself, then a start of the linked command
 * from another folder, run with the registry unreachable and an empty npm cache.
 */

const ws = workspace('no-registry');
const PACKAGE = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string; dependencies: Record<string, string>; devDependencies: Record<string, string> };

beforeAll(() => assertBuilt());
afterAll(() => ws.remove());

/** Every text a user reads a command from: the README, docs/, deploy/, and the CLI's sources (help, hints, next steps). */
function userTexts(): Array<{ file: string; text: string }> {
  const files = ['README.md', ...readdirSync(join(ROOT, 'docs')).map((f) => `docs/${f}`)];
  const walk = (dir: string): string[] => readdirSync(join(ROOT, dir), { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? walk(`${dir}/${e.name}`) : [`${dir}/${e.name}`]));
  files.push(...walk('deploy'), ...walk('src').filter((f) => f.endsWith('.ts')));
  return files.map((file) => ({ file, text: readFileSync(join(ROOT, file), 'utf8') }));
}

/** What asks a registry for a package by name: npx, npm exec / npm x, pnpm dlx, yarn dlx, bunx. */
const REGISTRY_RUNNER = /\b(?:npx|pnpx|bunx|npm\s+(?:exec|x)|pnpm\s+dlx|yarn\s+dlx)\s+(?:-{1,2}[\w-]+(?:=\S+)?\s+)*(?:--\s+)?([@\w./-]+)/g;

describe('the commands a user is told to type', () => {
  it('never run payexport through a registry runner; any other npx names a package this checkout installs', () => {
    const offending: string[] = [];
    const installed = new Set([...Object.keys(PACKAGE.dependencies), ...Object.keys(PACKAGE.devDependencies)]);
    for (const { file, text } of userTexts()) {
      for (const match of text.matchAll(REGISTRY_RUNNER)) {
        const name = match[1]!;
        if (name === 'payexport' || !installed.has(name)) offending.push(`${file}: ${match[0]}`);
      }
    }
    expect(offending).toEqual([]);
  });

  it("every `payexport <command>` in the README's and the docs' shell blocks is a command of this build", async () => {
    const help = await run(join(ROOT, 'bin', 'payexport'), ['--help'], { cwd: ws.fresh('help') });
    expect(help.code, help.stderr).toBe(0);
    const known = new Set([...help.stdout.matchAll(/^ {2}payexport ([a-z-]+)/gm)].map((m) => m[1]!));
    expect(known.size).toBeGreaterThan(10);
    const named = new Set<string>();
    for (const { file, text } of userTexts().filter((t) => t.file.endsWith('.md'))) {
      for (const line of fencedLines(text)) {
        // a command line: at the line's start (after a prompt or VAR=value words), or after && ; | or $(
        for (const m of line.matchAll(/(?:^(?:\$ )?(?:[A-Z_]+=\S* )*|(?:&&|;|\||\$\() )payexport ([a-z][a-z-]*)/g)) named.add(`${m[1]!} (${file})`);
      }
    }
    expect(named.size).toBeGreaterThan(10);
    expect([...named].filter((n) => !known.has(n.split(' ')[0]!))).toEqual([]);
  });
});

describe('npm link, then payexport from another folder, with the registry unreachable and an empty npm cache', () => {
  it('links this checkout without asking the registry for any package, and the linked command starts', { timeout: 180_000 }, async () => {
    const registry = await recordingRegistry();
    const place = ws.fresh('link');
    const prefix = join(place, 'prefix');
    const home = join(place, 'home');
    mkdirSync(prefix);
    mkdirSync(home);
    const npmEnv = (registryUrl: string, cache: string): Record<string, string> => ({ HOME: home, npm_config_registry: registryUrl, npm_config_cache: cache, npm_config_prefix: prefix });
    try {
      // --ignore-scripts: a user's `npm link` also runs `prepare` (the build `npm ci` already ran);
      // here it would rewrite the dist/ the other test files are running
      const linked = await run('npm', ['link', '--ignore-scripts'], { cwd: ROOT, env: npmEnv(registry.url, join(place, 'cache-link')) });
      expect(linked.code, linked.stderr).toBe(0);
      // npm's own update check (GET /npm) is npm's, on every command; no package is asked for
      expect(registry.requests.filter((r) => r !== 'GET /npm')).toEqual([]);
    } finally {
      await registry.close();
    }
    expect(realpathSync(join(prefix, 'bin', 'payexport'))).toBe(realpathSync(join(ROOT, 'bin', 'payexport')));

    const port = await closedPort();
    const elsewhere = ws.fresh('elsewhere');
    const env = { ...npmEnv(`http://127.0.0.1:${port}/`, join(place, 'cache-empty')), PATH: `${join(prefix, 'bin')}:${process.env.PATH ?? '/usr/bin:/bin'}` };
    const started = process.hrtime.bigint();
    const version = await run('payexport', ['--version'], { cwd: elsewhere, env });
    const seconds = Number(process.hrtime.bigint() - started) / 1e9;
    expect(version.code, version.stderr).toBe(0);
    expect(version.stdout.trim()).toBe(PACKAGE.version);
    // measured, not asserted (a loaded machine is slow, not wrong): the closing report quotes it
    console.log(`payexport --version through npm link, registry at a closed port, empty npm cache: ${seconds.toFixed(2)} s`);
    const demoHelp = await run('payexport', ['demo', '--help'], { cwd: elsewhere, env });
    expect(demoHelp.code, demoHelp.stderr).toBe(0);
    expect(demoHelp.stdout).toMatch(/payexport demo/);
    expect(readdirSync(elsewhere)).toEqual([]);
  });
});

/** The lines inside the Markdown's fenced blocks. */
function fencedLines(markdown: string): string[] {
  const lines: string[] = [];
  let inside = false;
  for (const line of markdown.split('\n')) {
    if (/^\s*```/.test(line)) inside = !inside;
    else if (inside) lines.push(line.trim());
  }
  return lines;
}

interface Ran {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** A command with only PATH, HOME and `env` in its environment. */
function run(command: string, args: readonly string[], options: { cwd: string; env?: Record<string, string> }): Promise<Ran> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: options.cwd, env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: options.cwd, ...options.env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
    child.once('error', reject);
    child.once('close', (code) => resolve({ code, stdout, stderr }));
  });
}

/** A registry that answers nothing (each connection reset) and remembers what it was asked. */
async function recordingRegistry(): Promise<{ url: string; requests: string[]; close(): Promise<void> }> {
  const requests: string[] = [];
  const server = createServer((request: IncomingMessage, response) => {
    requests.push(`${request.method ?? '?'} ${request.url ?? '?'}`);
    response.destroy();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return { url: `http://127.0.0.1:${port}/`, requests, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}
