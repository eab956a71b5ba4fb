import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assertBuilt, describeRun, ROOT, runCli, splitStderr } from '../support/cli/cli.js';
import { expectNoSecrets } from '../support/cli/secrets.js';
import { PLANTED_KEYS, PLANTED_SECRETS, startTestSim, type TestSim } from '../support/cli/sim.js';
import { workspace } from '../support/cli/workspace.js';
import { closedPort } from '../support/cli/closed-port.js';
import { probePostgres, urlWithPassword } from '../support/cli/pg.js';

/**
 * `payexport init` against the simulator, with flags (a script's way): it writes a config with
 * which `month-end` runs unchanged, refuses to overwrite without --force, and gives a wrong key, a
 * key of another environment and an unknown organization one-line errors that name where the key
 * came from; the snapshot answers. The books step: test/cli/init-books.test.ts; at a terminal:
 * init-terminal.test.ts; with piped answers: init-input.test.ts.
 */

const ws = workspace('init');
const pg = await probePostgres();
let sim: TestSim;

beforeAll(async () => {
  assertBuilt();
  sim = await startTestSim();
});

afterAll(async () => {
  await sim?.close();
  ws.remove();
});

const flags = (organization = sim.sim.organizationId): string[] => ['init', '--yes', '--base-url', sim.sim.baseUrl, '--organization', organization, '--tz', 'America/New_York', '--no-books'];
const accountFolder = (): string => `org-${sim.sim.organizationId.slice(0, 8)}`;

describe('payexport init with flags', () => {
  it('writes a config with which month-end runs unchanged; the key only by its variable name', async () => {
    const cwd = ws.fresh('flags');
    const env = { PAYEXPORT_API_KEY: PLANTED_KEYS[0] };
    const init = await runCli(flags(), { cwd, env });
    expect(init.code, describeRun(flags(), init)).toBe(0);
    const config = JSON.parse(readFileSync(join(cwd, 'config', 'payexport.json'), 'utf8')) as Record<string, unknown>;
    // this account's own folders, never the demo's reports/ and data/ roots
    expect(config).toMatchObject({ organization: sim.sim.organizationId, tz: 'America/New_York', out: `reports/${accountFolder()}`, dataDir: `data/${accountFolder()}`, environments: [{ id: sim.sim.environments[0]!.id, name: 'production', kind: 'production', apiKeyEnv: 'PAYEXPORT_API_KEY' }] });
    expect(config).not.toHaveProperty('journal');
    expect(init.stdout).toMatch(/No books: the month-end writes no Journal, Lots or Crypto assets sheet\. To add them, run init again with --force and answer yes/);
    // the environment by name and kind, then its wallets by name, inactive ones marked
    expect(init.stdout).toMatch(new RegExp(`^  production \\(mainnet wallets\\) — environment ${sim.sim.environments[0]!.id}: \\d+ wallet\\(s\\)`, 'm'));
    const own = sim.sim.wallets.filter((w) => w.environmentId === sim.sim.environments[0]!.id);
    for (const wallet of own) expect(init.stdout).toContain(wallet.id);
    for (const wallet of own) expect(init.stdout).toMatch(new RegExp(`${wallet.name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} +${wallet.id}.*${wallet.active ? '' : '\\(inactive\\)'}`));
    // config/payexport.json is where every command looks: no --config in what init says to type
    expect(init.stdout).toMatch(/1\. payexport month-end --dry-run$/m);
    expect(init.stdout).toMatch(/^Before tonight's run: payexport doctor$/m);
    // cron's PATH finds no `payexport`: the crontab line names this checkout's own by its path
    expect(init.stdout).toMatch(/3\. 30 6 2 \* \* {2}cd .* && /);
    expect(init.stdout).toContain(` && ${join(ROOT, 'bin', 'payexport')} month-end >>month-end.log`);
    expectNoSecrets(PLANTED_SECRETS, { texts: [init.stdout, init.stderr], dirs: [join(cwd, 'config')] });

    // the Done-when: the written config, unchanged and never named, runs a month-end and a doctor
    const args = ['month-end', '--month', '2026-10', '--allow-open'];
    const monthEnd = await runCli(args, { cwd, env });
    expect([0, 65], describeRun(args, monthEnd)).toContain(monthEnd.code);
    expect(splitStderr(monthEnd.stderr).logs[0]?.msg).toBe('config: config/payexport.json (found in the current folder)');
    expect(existsSync(join(cwd, 'reports', accountFolder(), 'month-end', '2026-10', 'manifest.json'))).toBe(true);
    const doctor = await runCli(['doctor'], { cwd, env });
    expect(doctor.code, describeRun(['doctor'], doctor)).toBe(0);
    expect(doctor.stdout.split('\n')[0]).toBe('payexport doctor — config: config/payexport.json (found in the current folder)');
  });

  it('refuses to overwrite a config without --force, and replaces it with --force', async () => {
    const cwd = ws.fresh('force');
    const env = { PAYEXPORT_API_KEY: PLANTED_KEYS[0] };
    writeFileSync(join(cwd, 'mine.json'), '{"tz": "UTC"}\n');
    const refused = await runCli([...flags(), '--config', 'mine.json'], { cwd, env });
    expect(refused.code).toBe(64);
    expect(refused.stderr).toMatch(/^payexport: mine\.json exists: pass --force to replace it/);
    expect(readFileSync(join(cwd, 'mine.json'), 'utf8')).toBe('{"tz": "UTC"}\n');
    const forced = await runCli([...flags(), '--config', 'mine.json', '--force'], { cwd, env });
    expect(forced.code, describeRun(flags(), forced)).toBe(0);
    expect(JSON.parse(readFileSync(join(cwd, 'mine.json'), 'utf8'))).toMatchObject({ organization: sim.sim.organizationId });
  });

  it('--force --yes keeps a saved key (nothing can be asked) and says so — never silently', async () => {
    const cwd = ws.fresh('force-yes');
    // runCli's HOME is the working folder: the saved key is where init keeps it
    const keyFile = join(cwd, '.config', 'payexport', `${accountFolder()}.api-key`);
    mkdirSync(join(cwd, '.config', 'payexport'), { recursive: true, mode: 0o700 });
    writeFileSync(keyFile, `${PLANTED_KEYS[0]}\n`, { mode: 0o600 });
    writeFileSync(join(cwd, 'mine.json'), '{"tz": "UTC"}\n');
    const args = [...flags(), '--config', 'mine.json', '--force'];
    const forced = await runCli(args, { cwd });
    expect(forced.code, describeRun(args, forced)).toBe(0);
    expect(forced.stdout).toContain(`  API key: kept the one saved in ${keyFile} (--yes asks nothing; to replace it, run payexport init --force at a terminal, or write the new key into that file)`);
    expect(readFileSync(keyFile, 'utf8')).toBe(`${PLANTED_KEYS[0]}\n`);
    expectNoSecrets(PLANTED_SECRETS, { texts: [forced.stdout, forced.stderr] });
  });

  it.each([
    ['a wrong key', () => ({ key: 'vltg_notAkeyNOTakey00000000000000000', extra: [] as string[], organization: sim.sim.organizationId }), () => /401 wrong_credentials: Authentication failed — the key in PAYEXPORT_API_KEY was refused: use an API key of this organization's environment$/],
    ['a key of another environment', () => ({ key: PLANTED_KEYS[0], extra: ['--environment', sim.sim.environments[1]!.id], organization: sim.sim.organizationId }), () => new RegExp(`403 access_rights: The API key is scoped to another environment — the key in PAYEXPORT_API_KEY cannot read environment ${sim.sim.environments[1]!.id} \\(--environment\\): it belongs to another environment$`)],
    ['an unknown organization', () => ({ key: PLANTED_KEYS[0], extra: [] as string[], organization: '0badc0de-0000-4000-8000-000000000000' }), () => /organizations\/0badc0de-0000-4000-8000-000000000000\/wallets → 403 access_rights: The credentials do not grant access to this organization — the key in PAYEXPORT_API_KEY cannot read organization 0badc0de-0000-4000-8000-000000000000 \(--organization\): check the id, and that the key belongs to it$/],
  ])('%s: one line naming where the key came from, exit 77, nothing written', async (_label, given, message) => {
    const cwd = ws.fresh('refused');
    const { key, extra, organization } = given();
    const args = [...flags(organization), ...extra];
    const result = await runCli(args, { cwd, env: { PAYEXPORT_API_KEY: key } });
    expect(result.code, describeRun(args, result)).toBe(77);
    const lines = result.stderr.trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(message());
    expect(existsSync(join(cwd, 'config'))).toBe(false);
    expectNoSecrets(PLANTED_SECRETS, { texts: [result.stdout, result.stderr] });
  });
});

describe('payexport init: the snapshot answer', () => {
  it.skipIf(!pg.url)("'env': Postgres at DATABASE_URL is reached, and the URL (with its password) stays out of the config", async () => {
    const cwd = ws.fresh('pg-env');
    const { url, password } = urlWithPassword(pg.url!, 'pw-PLANTED-init-5e2a');
    const result = await runCli([...flags(), '--snapshot', 'env'], { cwd, env: { PAYEXPORT_API_KEY: PLANTED_KEYS[0], DATABASE_URL: url } });
    expect(result.code, describeRun(['init', '--snapshot', 'env'], result)).toBe(0);
    expect(result.stdout).toMatch(/snapshot: Postgres postgres:\/\/[^ ]*@127\.0\.0\.1[^ ]* reached \(the jobs read DATABASE_URL\)/);
    const config = readFileSync(join(cwd, 'config', 'payexport.json'), 'utf8');
    expect(JSON.parse(config)).not.toHaveProperty('databaseUrl');
    expectNoSecrets([password, ...PLANTED_SECRETS], { texts: [result.stdout, result.stderr, config] });
  });

  it('a URL with a password is refused (it would land in the config); an unreachable server is the jobs\' 75', async () => {
    const cwd = ws.fresh('pg-url');
    const withPassword = await runCli([...flags(), '--snapshot', 'postgres://books:pw-PLANTED-url-77@127.0.0.1:5432/finance'], { cwd, env: { PAYEXPORT_API_KEY: PLANTED_KEYS[0] } });
    expect(withPassword.code).toBe(64);
    expect(withPassword.stderr).toMatch(/the URL holds a password, which would land in the config file/);
    expect(withPassword.stderr + withPassword.stdout).not.toContain('pw-PLANTED-url-77');
    const port = await closedPort();
    const unreachable = await runCli([...flags(), '--snapshot', `postgres://books@127.0.0.1:${port}/finance`], { cwd, env: { PAYEXPORT_API_KEY: PLANTED_KEYS[0] } });
    expect(unreachable.code, describeRun(['init'], unreachable)).toBe(75);
    expect(unreachable.stderr.trim().split('\n')).toHaveLength(1);
    expect(existsSync(join(cwd, 'config'))).toBe(false);
  });
});
