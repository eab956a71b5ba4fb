import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assertBuilt, CLI } from '../support/cli/cli.js';

/** `payexport sim` as a subprocess: prints how to connect, serves, stops cleanly on SIGTERM. */

const root = fileURLToPath(new URL('../..', import.meta.url));
// the built CLI, as a user starts it (npm test builds first)
const cli = (args: string[]) => spawn(process.execPath, [CLI, ...args], { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
const dir = mkdtempSync(join(tmpdir(), 'payexport-sim-cli-'));

beforeAll(() => assertBuilt());
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('payexport sim', () => {
  it('prints base URL, organization, environments with kind and a vltg_ key each, then serves until SIGTERM', async () => {
    const log = join(dir, 'requests.jsonl');
    const child = cli(['sim', '--port', '0', '--seed', '7', '--scale', '300', '--request-log', log]);
    const lines: string[] = [];
    const reader = createInterface({ input: child.stdout });
    for await (const line of reader) {
      lines.push(line);
      if (line.startsWith('Serving')) break;
    }
    const text = lines.join('\n');
    const baseUrl = /base URL\s+(http:\/\/127\.0\.0\.1:\d+\/v1)/.exec(text)?.[1];
    const organization = /organization\s+([0-9a-f-]{36})/.exec(text)?.[1];
    const environments = [...text.matchAll(/environment\s+([0-9a-f-]{36}) \((production|staging)\)\s+api key (vltg_\S+)/g)];
    expect(baseUrl).toBeDefined();
    expect(environments).toHaveLength(2);
    const [, envId, , key] = environments[0] as RegExpMatchArray;
    const res = await fetch(`${baseUrl}/organizations/${organization}/environments/${envId}/payments?limit=3`, { headers: { 'x-api-key': key as string } });
    expect(res.status).toBe(200);
    expect(((await res.json()) as { items: unknown[] }).items).toHaveLength(3);
    child.kill('SIGTERM');
    const [code] = (await once(child, 'exit')) as [number | null];
    expect(code).toBe(0);
    const logged = readFileSync(log, 'utf8').trim().split('\n').map((l) => JSON.parse(l) as { status: number; path: string });
    expect(logged[0]).toMatchObject({ status: 200, path: `/v1/organizations/${organization}/environments/${envId}/payments` });
    expect(readFileSync(log, 'utf8')).not.toContain(key as string);
  });

  it('prints one JSON line with --json', async () => {
    const child = cli(['sim', '--json', '--scale', '50', '--environments', 'production,staging']);
    const [line] = (await once(createInterface({ input: child.stdout }), 'line')) as [string];
    const info = JSON.parse(line) as { baseUrl: string; environments: Array<{ kind: string; apiKey: string }>; profile: string };
    expect(info.baseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/v1$/);
    expect(info.environments.map((e) => e.kind)).toEqual(['production', 'staging']);
    // the CLI serves the business organization unless told `--profile stress` (docs/simulator.md#profiles)
    expect(info.profile).toBe('business');
    child.kill('SIGINT');
    expect(((await once(child, 'exit')) as [number | null])[0]).toBe(0);
  });

  it('exits 64 on a bad --faults spec or an unknown flag', async () => {
    for (const args of [['sim', '--faults', '503=2'], ['sim', '--bogus']]) {
      const child = cli(args);
      let stderr = '';
      child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
      const [code] = (await once(child, 'exit')) as [number | null];
      expect(code, args.join(' ')).toBe(64);
      expect(stderr).toMatch(/^payexport: /);
    }
  });
});
