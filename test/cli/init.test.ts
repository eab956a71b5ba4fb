import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assertBuilt, CLI, describeRun, runCli } from '../support/cli/cli.js';
import { expectNoSecrets } from '../support/cli/secrets.js';
import { PLANTED_KEYS, PLANTED_SECRETS, startTestSim, type TestSim } from '../support/cli/sim.js';
import { workspace } from '../support/cli/workspace.js';
import { closedPort } from '../support/cli/closed-port.js';
import { probePostgres, urlWithPassword } from '../support/cli/pg.js';

/**
 * `payexport init` against the simulator: with flags (a script's way) it writes a config with
 * which `month-end` runs unchanged, refuses to overwrite without --force, and gives a wrong key,
 * a key of another environment and an unknown organization the jobs' one-line errors; at a real
 * terminal (tmux: a pseudo-terminal, keys sent, the screen captured) it asks each question, takes
 * the key without echo, asks again after a refused answer, and saves the key to a mode-600 file.
 */

const ws = workspace('init');
const pg = await probePostgres();
let sim: TestSim;
const hasTmux = (() => {
  try {
    execFileSync('tmux', ['-V'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
})();

beforeAll(async () => {
  assertBuilt();
  sim = await startTestSim();
});

afterAll(async () => {
  await sim?.close();
  ws.remove();
});

const flags = (organization = sim.sim.organizationId): string[] => ['init', '--yes', '--base-url', sim.sim.baseUrl, '--organization', organization, '--tz', 'America/New_York'];

describe('payexport init with flags', () => {
  it('writes a config with which month-end runs unchanged; the key only by its variable name', async () => {
    const cwd = ws.fresh('flags');
    const env = { PAYEXPORT_API_KEY: PLANTED_KEYS[0] };
    const init = await runCli(flags(), { cwd, env });
    expect(init.code, describeRun(flags(), init)).toBe(0);
    const config = JSON.parse(readFileSync(join(cwd, 'config', 'payexport.json'), 'utf8')) as Record<string, unknown>;
    expect(config).toMatchObject({ organization: sim.sim.organizationId, tz: 'America/New_York', out: 'reports', dataDir: 'data', environments: [{ id: sim.sim.environments[0]!.id, apiKeyEnv: 'PAYEXPORT_API_KEY' }] });
    // what the key sees: its environment's wallets by name, inactive ones marked
    const own = sim.sim.wallets.filter((w) => w.environmentId === sim.sim.environments[0]!.id);
    for (const wallet of own) expect(init.stdout).toContain(wallet.id);
    for (const wallet of own) expect(init.stdout).toMatch(new RegExp(`${wallet.name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} +${wallet.id}.*${wallet.active ? '' : '\\(inactive\\)'}`));
    expect(init.stdout).toMatch(/1\. npx payexport month-end --config config\/payexport\.json --dry-run/);
    expect(init.stdout).toMatch(/3\. 30 6 2 \* \* {2}cd .* && npx payexport month-end --config config\/payexport\.json/);
    expectNoSecrets(PLANTED_SECRETS, { texts: [init.stdout, init.stderr], dirs: [join(cwd, 'config')] });

    // the Done-when: the written config, unchanged, runs a month-end
    const args = ['month-end', '--config', 'config/payexport.json', '--month', '2026-10', '--allow-open', '--quiet'];
    const monthEnd = await runCli(args, { cwd, env });
    expect([0, 65], describeRun(args, monthEnd)).toContain(monthEnd.code);
    expect(existsSync(join(cwd, 'reports', 'month-end', '2026-10', 'manifest.json'))).toBe(true);
    const doctor = await runCli(['doctor', '--config', 'config/payexport.json'], { cwd, env });
    expect(doctor.code, describeRun(['doctor'], doctor)).toBe(0);
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

  it.each([
    ['a wrong key', () => ({ key: 'vltg_notAkeyNOTakey00000000000000000', extra: [] as string[], organization: sim.sim.organizationId }), /401 wrong_credentials: Authentication failed — check PAYEXPORT_API_KEY/],
    ['a key of another environment', () => ({ key: PLANTED_KEYS[0], extra: ['--environment', sim.sim.environments[1]!.id], organization: sim.sim.organizationId }), /403 access_rights: The API key is scoped to another environment — the key cannot reach this: check the organization id, and that the key is this environment's/],
    ['an unknown organization', () => ({ key: PLANTED_KEYS[0], extra: [] as string[], organization: '0badc0de-0000-4000-8000-000000000000' }), /organizations\/0badc0de-0000-4000-8000-000000000000\/wallets → 403 access_rights: The credentials do not grant access to this organization — the key cannot reach this: check the organization id, and that the key is this environment's/],
  ])('%s: the one-line error of the jobs, exit 77, nothing written', async (_label, given, message) => {
    const cwd = ws.fresh('refused');
    const { key, extra, organization } = given();
    const args = [...flags(organization), ...extra];
    const result = await runCli(args, { cwd, env: { PAYEXPORT_API_KEY: key } });
    expect(result.code, describeRun(args, result)).toBe(77);
    const lines = result.stderr.trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(message);
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

/** A tmux session running one command in a pseudo-terminal of its own (its own server socket). */
function tmuxSession(cwd: string, command: string[]): { send(keys: string, enter?: boolean): void; sendKey(key: string): void; screen(): string; waitFor(pattern: RegExp, timeoutMs?: number): Promise<string>; close(): void } {
  const socket = join(cwd, 'tmux.sock');
  const tmux = (...args: string[]): string => execFileSync('tmux', ['-S', socket, ...args], { encoding: 'utf8' });
  tmux('new-session', '-d', '-x', '200', '-y', '60', '-s', 'init', '-c', cwd, ...command);
  tmux('set-option', '-t', 'init', 'remain-on-exit', 'on');
  const screen = (): string => tmux('capture-pane', '-p', '-S', '-200', '-t', 'init');
  return {
    send(keys, enter = true) {
      tmux('send-keys', '-t', 'init', '-l', keys);
      if (enter) tmux('send-keys', '-t', 'init', 'Enter');
    },
    sendKey(key) {
      tmux('send-keys', '-t', 'init', key);
    },
    screen,
    async waitFor(pattern, timeoutMs = 20_000) {
      const until = Date.now() + timeoutMs;
      for (;;) {
        const text = screen();
        if (pattern.test(text)) return text;
        if (Date.now() > until) throw new Error(`the terminal never showed ${pattern}; it shows:\n${text}`);
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    },
    close() {
      try {
        tmux('kill-server');
      } catch {
        // already gone
      }
    },
  };
}

describe('payexport init at a terminal (tmux)', () => {
  it.skipIf(!hasTmux)('Ctrl-C at a question: cancelled, nothing written', async () => {
    const cwd = ws.fresh('tty-cancel');
    const term = tmuxSession(cwd, ['env', '-i', `PATH=${process.env.PATH ?? '/usr/bin:/bin'}`, `HOME=${cwd}`, 'TERM=xterm', 'sh', '-c', `'${process.execPath}' '${CLI}' init --base-url ${sim.sim.baseUrl}; echo "exit $?"`]);
    try {
      await term.waitFor(/Organization id \(UUID\):\s*$/m);
      term.send(sim.sim.organizationId);
      await term.waitFor(/typing is not shown\):\s*$/m);
      term.send('vltg_half', false);
      term.sendKey('C-c');
      const screen = await term.waitFor(/exit \d+/);
      expect(screen).toMatch(/payexport: cancelled: nothing was written/);
      expect(screen).toMatch(/exit 64/);
      expect(screen).not.toContain('vltg_half');
    } finally {
      term.close();
    }
    expect(existsSync(join(cwd, 'config'))).toBe(false);
  });

  it.skipIf(!hasTmux)('asks each question, takes the key without echo, asks again after a wrong key and an unknown organization, saves the key 0600', async () => {
    const cwd = ws.fresh('tty');
    // the child's environment: no key, so init asks for one
    const command = ['env', '-i', `PATH=${process.env.PATH ?? '/usr/bin:/bin'}`, `HOME=${cwd}`, 'TERM=xterm', process.execPath, CLI, 'init', '--base-url', sim.sim.baseUrl];
    const term = tmuxSession(cwd, command);
    try {
      await term.waitFor(/Organization id \(UUID\):\s*$/m);
      term.send('0badc0de-0000-4000-8000-000000000000');
      await term.waitFor(/API key \(it is saved to config\/payexport\.api-key, mode 600, never into the config\) \(typing is not shown\):\s*$/m);
      term.send('vltg_typedWRONGkey000000000000000000');
      await term.waitFor(/401 wrong_credentials/);
      await term.waitFor(/typing is not shown\):\s*$/m);
      term.send(PLANTED_KEYS[1]);
      await term.waitFor(/403 access_rights: The credentials do not grant access to this organization/);
      await term.waitFor(/Organization id \(UUID\):\s*$/m);
      term.send(sim.sim.organizationId);
      await term.waitFor(/Time zone of the books \(IANA\) \[[^\]]+\]:\s*$/m);
      term.send('Mars/Olympus_Mons');
      await term.waitFor(/invalid --tz 'Mars\/Olympus_Mons'/);
      term.send('Europe/Berlin');
      await term.waitFor(/Snapshot database: .* \[embedded\]:\s*$/m);
      term.send('');
      await term.waitFor(/Output root \(report folders go under it\) \[reports\]:\s*$/m);
      term.send('books');
      const done = await term.waitFor(/Before tonight's run: npx payexport doctor --config config\/payexport\.json/);
      expect(done).toContain(`environment ${sim.sim.environments[1]!.id}`);
      for (const secret of [...PLANTED_SECRETS, 'vltg_typedWRONGkey']) expect(done).not.toContain(secret);
    } finally {
      term.close();
    }
    const keyFile = join(cwd, 'config', 'payexport.api-key');
    expect(statSync(keyFile).mode & 0o777).toBe(0o600);
    expect(readFileSync(keyFile, 'utf8')).toBe(`${PLANTED_KEYS[1]}\n`);
    const config = JSON.parse(readFileSync(join(cwd, 'config', 'payexport.json'), 'utf8')) as Record<string, unknown>;
    expect(config).toMatchObject({ organization: sim.sim.organizationId, tz: 'Europe/Berlin', out: 'books', environments: [{ id: sim.sim.environments[1]!.id, apiKeyFile: 'config/payexport.api-key' }] });
    expectNoSecrets(PLANTED_SECRETS, { texts: [readFileSync(join(cwd, 'config', 'payexport.json'), 'utf8')] });
    // and the jobs load it with nothing in the environment: the key comes from the file
    const dryRun = await runCli(['month-end', '--config', 'config/payexport.json', '--month', '2026-10', '--dry-run'], { cwd });
    expect(dryRun.code, describeRun(['month-end', '--dry-run'], dryRun)).toBe(0);
  });
});
