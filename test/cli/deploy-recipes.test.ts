import { chmodSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assertBuilt, describeRun, ROOT, runCli } from '../support/cli/cli.js';
import { expectNoSecrets } from '../support/cli/secrets.js';
import { PLANTED_KEYS, startTestSim, type TestSim } from '../support/cli/sim.js';
import { workspace } from '../support/cli/workspace.js';

/**
 * The scheduling recipes under deploy/ name real command lines: each is read from its file and
 * run here with `--dry-run` against the simulator, with the secret delivered the way the recipe
 * delivers it (a chmod-600 key file for cron and systemd; env from a Secret for Kubernetes). The
 * same commands without --dry-run are covered by jobs-*.test.ts and shard.test.ts.
 */

const ws = workspace('recipes');
let sim: TestSim;

beforeAll(async () => {
  assertBuilt();
  sim = await startTestSim();
});

afterAll(async () => {
  await sim?.close();
  ws.remove();
});

const read = (path: string): string => readFileSync(join(ROOT, 'deploy', path), 'utf8');

/** The words after `payexport` (or `main.js`) up to a redirection or the next shell command. */
function payexportArgs(commandLine: string): string[] {
  const words = commandLine.trim().split(/\s+/);
  const start = words.findIndex((w) => w === 'payexport' || w.endsWith('/dist/cli/main.js'));
  expect(start, commandLine).toBeGreaterThanOrEqual(0);
  const rest = words.slice(start + 1);
  const end = rest.findIndex((w) => /^(>>?|2>&1|&&|\|\|?|;)/.test(w));
  return end < 0 ? rest : rest.slice(0, end);
}

/** A key file as the recipes expect one: readable by its owner only. */
function keyFile(dir: string): string {
  const path = join(dir, 'api-key');
  writeFileSync(path, `${PLANTED_KEYS[1]}\n`);
  chmodSync(path, 0o600);
  return path;
}

async function dryRun(label: string, args: string[], env: Record<string, string>): Promise<string> {
  const cwd = ws.fresh(label);
  const full = [...args, '--dry-run'];
  const result = await runCli(full, { cwd, env: { PAYEXPORT_BASE_URL: sim.sim.baseUrl, PAYEXPORT_ORGANIZATION_ID: sim.sim.organizationId, ...env } });
  expect(result.code, describeRun(full, result)).toBe(0);
  expect(result.stdout).toMatch(new RegExp(`^plan for ${args[0]} `));
  expectNoSecrets(PLANTED_KEYS, { texts: [result.stdout, result.stderr], dirs: [cwd] });
  return result.stdout;
}

describe('deploy/ recipes run as written (dry run)', () => {
  it('cron: every scheduled line, with the key file the crontab names', async () => {
    const crontab = read('cron/payexport.crontab');
    const variables = Object.fromEntries([...crontab.matchAll(/^([A-Z_]+)=(.*)$/gm)].map((m) => [m[1]!, m[2]!]));
    expect(Object.keys(variables)).toEqual(expect.arrayContaining(['PAYEXPORT_CONFIG', 'PAYEXPORT_API_KEY_FILE']));
    const lines = crontab.split('\n').filter((line) => /^[\d*]/.test(line));
    expect(lines.map((line) => payexportArgs(line.split(/\s+/).slice(5).join(' '))[0])).toEqual(['nightly', 'month-end']);
    for (const line of lines) {
      const dir = ws.fresh('cron-etc');
      writeFileSync(join(dir, 'payexport.json'), JSON.stringify({ concurrency: 4 }));
      await dryRun('cron', payexportArgs(line.split(/\s+/).slice(5).join(' ')), { PAYEXPORT_CONFIG: join(dir, 'payexport.json'), PAYEXPORT_API_KEY_FILE: keyFile(dir) });
    }
  });

  it('systemd: ExecStart of both services, with the credential file', async () => {
    for (const unit of ['payexport-nightly.service', 'payexport-month-end.service']) {
      const text = read(`systemd/${unit}`);
      const exec = /^ExecStart=(.*)$/m.exec(text)?.[1];
      expect(text).toMatch(/^Environment=PAYEXPORT_API_KEY_FILE=%d\/api-key$/m);
      await dryRun('systemd', payexportArgs(exec!), { PAYEXPORT_API_KEY_FILE: keyFile(ws.fresh('credentials')) });
    }
  });

  it('Kubernetes CronJobs: args as the container gets them', async () => {
    const argsLists = [...read('kubernetes/cronjobs.yaml').matchAll(/^\s+args: (\[.*\])$/gm)].map((m) => JSON.parse(m[1]!) as string[]);
    expect(argsLists.map((a) => a[0])).toEqual(['nightly', 'month-end']);
    for (const args of argsLists) await dryRun('k8s-cron', args, { PAYEXPORT_API_KEY: PLANTED_KEYS[1], PAYEXPORT_LOG_FORMAT: 'json' });
  });

  it('Kubernetes Indexed Job: each index pulls its shard; the report Job reads the snapshot', async () => {
    const job = read('kubernetes/sharded-export.yaml');
    const args = JSON.parse(/^\s+args: (\[.*\])$/m.exec(job)![1]!) as string[];
    const shards = /name: PAYEXPORT_SHARDS, value: "(\d+)"/.exec(job)![1]!;
    const completions = /^\s+completions: (\d+)$/m.exec(job)![1]!;
    expect(shards).toBe(completions);
    const inShard: number[] = [];
    for (let index = 0; index < Number(shards); index++) {
      const plan = await dryRun('k8s-index', args, { PAYEXPORT_API_KEY: PLANTED_KEYS[1], JOB_COMPLETION_INDEX: String(index), PAYEXPORT_SHARDS: shards });
      const m = new RegExp(`wallets\\s+(\\d+) of (\\d+) \\(shard ${index}/${shards}\\)`).exec(plan);
      expect(m, plan).not.toBeNull();
      inShard.push(Number(m![1]));
      expect(plan).toContain('report         none: a shard only pulls');
    }
    expect(inShard.reduce((a, b) => a + b, 0)).toBe(sim.sim.wallets.filter((w) => w.environmentId === sim.sim.environments[1]!.id).length);

    const report = JSON.parse(/^\s+args: (\[.*\])$/m.exec(read('kubernetes/sharded-report.yaml'))![1]!) as string[];
    expect(report.slice(0, 5)).toEqual(['report', ...args.slice(1, 5)]);
    await dryRun('k8s-report', report, {});
  });
});
