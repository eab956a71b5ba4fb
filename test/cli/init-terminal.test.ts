import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assertBuilt, CLI, describeRun, runCli } from '../support/cli/cli.js';
import { initQuestions } from '../support/cli/init-questions.js';
import { expectNoSecrets } from '../support/cli/secrets.js';
import { PLANTED_KEYS, PLANTED_SECRETS, startTestSim, type TestSim } from '../support/cli/sim.js';
import { hasTmux, tmuxCommand, tmuxSession } from '../support/cli/tmux.js';
import { workspace } from '../support/cli/workspace.js';

/**
 * `payexport init` at a real terminal (tmux: a pseudo-terminal, keys sent as a person types them,
 * the screen read back): every question asked in turn, the key without echo, a refused answer
 * asked again in the person's own terms; the key saved outside the checkout; and Ctrl-C or
 * Ctrl-D at EVERY question ends the session at once — Ctrl-C with "cancelled: nothing was
 * written" and exit 130, Ctrl-D with one line naming the question and exit 64 — never a loop,
 * and nothing written anywhere.
 */

const ws = workspace('init-tty');
let sim: TestSim;
const tmux = hasTmux();

beforeAll(async () => {
  assertBuilt();
  sim = await startTestSim();
});

afterAll(async () => {
  await sim?.close();
  ws.remove();
});

/** A checkout to run init in, and a home folder of its own (where the key goes). */
function places(label: string): { cwd: string; home: string } {
  const cwd = ws.fresh(`${label}-checkout`);
  execFileSync('git', ['init', '-q', cwd]);
  return { cwd, home: ws.fresh(`${label}-home`) };
}

function startInit(cwd: string, home: string, flags = ''): ReturnType<typeof tmuxSession> {
  return tmuxSession(cwd, tmuxCommand(home, {}, ['sh', '-c', `'${process.execPath}' '${CLI}' init${flags}; echo "exit $?"`]), home);
}

/** Nothing of a session that ended early: no config, no key, no report or database folder. */
function expectNothingWritten(cwd: string, home: string): void {
  expect(readdirSync(cwd).filter((name) => name !== '.git').sort()).toEqual([]);
  expect(readdirSync(home).filter((name) => name !== 'tmux.sock')).toEqual([]);
}

describe.skipIf(!tmux)('payexport init at a terminal (tmux)', () => {
  it('asks each question, takes the key without echo, asks again after a wrong key, an unknown organization and a bad time zone; the key goes to the user\'s config folder, outside the checkout', async () => {
    const { cwd, home } = places('full');
    const questions = initQuestions(sim);
    const term = startInit(cwd, home);
    try {
      const [service, organization, key, name, tz, snapshot, out, books, currency] = questions;
      await term.waitFor(service!.prompt);
      term.send(service!.answer);
      await term.waitFor(organization!.prompt);
      term.send('0badc0de-0000-4000-8000-000000000000');
      await term.waitFor(key!.prompt);
      term.send('vltg_typedWRONGkey000000000000000000');
      // the refusal names what the person did: the key they typed, by its length only
      await term.waitFor(/401 wrong_credentials: .* — the key you typed \(36 characters\) was refused: type the API key again \(Ctrl-C stops\)/);
      await term.waitFor(key!.prompt);
      term.send(PLANTED_KEYS[0]);
      await term.waitFor(/403 access_rights: .* — the key you typed \(\d+ characters\) cannot read organization 0badc0de-0000-4000-8000-000000000000 \(the organization id you typed\): type the organization id again/);
      await term.waitFor(organization!.prompt);
      term.send(sim.sim.organizationId);
      await term.waitFor(name!.prompt);
      term.send(name!.answer);
      await term.waitFor(tz!.prompt);
      term.send('Mars/Olympus_Mons');
      await term.waitFor(/the time zone you typed 'Mars\/Olympus_Mons' is not a time zone of the IANA database/);
      term.send(tz!.answer);
      for (const q of [snapshot!, out!, books!, currency!]) {
        await term.waitFor(q.prompt);
        term.send(q.answer);
      }
      const done = await term.waitFor(/exit \d+/);
      expect(done).toMatch(/exit 0/);
      expect(done).toMatch(/Before tonight's run: payexport doctor$/m);
      expect(done).toMatch(new RegExp(`Payments \\(.*\\) — environment ${sim.sim.environments[0]!.id}|environment ${sim.sim.environments[0]!.id}`));
      expect(done).not.toContain('--tz');
      for (const secret of [...PLANTED_SECRETS, 'vltg_typedWRONGkey']) expect(done).not.toContain(secret);
    } finally {
      term.close();
    }
    // the key: in the user's config folder, 0600 in a 0700 folder, named in the config — and nowhere in the checkout
    const keyFile = join(home, '.config', 'payexport', `org-${sim.sim.organizationId.slice(0, 8)}.api-key`);
    expect(statSync(keyFile).mode & 0o777).toBe(0o600);
    expect(statSync(join(home, '.config', 'payexport')).mode & 0o777).toBe(0o700);
    expect(readFileSync(keyFile, 'utf8')).toBe(`${PLANTED_KEYS[0]}\n`);
    const config = JSON.parse(readFileSync(join(cwd, 'config', 'payexport.json'), 'utf8')) as { environments: Array<Record<string, unknown>>; out: string; tz: string; journal: { booksCurrency: string } };
    expect(config.environments).toEqual([expect.objectContaining({ id: sim.sim.environments[0]!.id, name: 'Payments', apiKeyFile: keyFile })]);
    expect(config.tz).toBe('Europe/Berlin');
    expect(config.out).toBe(`reports/org-${sim.sim.organizationId.slice(0, 8)}`);
    expect(config.journal.booksCurrency).toBe('USD');
    const status = execFileSync('git', ['-C', cwd, 'status', '--porcelain', '--untracked-files=all'], { encoding: 'utf8' });
    expect(status).not.toMatch(/api-key/);
    expectNoSecrets(PLANTED_SECRETS, { dirs: [cwd] });
    // the jobs load it with nothing in the environment: the key comes from the file
    const dryRun = await runCli(['month-end', '--config', 'config/payexport.json', '--month', '2026-10', '--dry-run'], { cwd });
    expect(dryRun.code, describeRun(['month-end', '--dry-run'], dryRun)).toBe(0);
  });

  // issue 52: --force said it replaced the key file, and silently went on with the saved key
  it('--force asks for the API key again, says it replaces the saved one, and replaces it', async () => {
    const { cwd, home } = places('force');
    const keyFile = join(home, '.config', 'payexport', `org-${sim.sim.organizationId.slice(0, 8)}.api-key`);
    mkdirSync(join(home, '.config', 'payexport'), { recursive: true, mode: 0o700 });
    // an earlier init's key: the other environment's, so a reuse would show that environment
    writeFileSync(keyFile, `${PLANTED_KEYS[1]}\n`, { mode: 0o600 });
    mkdirSync(join(cwd, 'config'));
    writeFileSync(join(cwd, 'config', 'payexport.json'), '{"tz": "UTC"}\n');
    const [service, organization, , name, tz, snapshot, out, books, currency] = initQuestions(sim);
    const term = startInit(cwd, home, ' --force');
    try {
      await term.waitFor(service!.prompt);
      term.send(service!.answer);
      await term.waitFor(organization!.prompt);
      term.send(organization!.answer);
      await term.waitFor(/API key \(replaces the key saved in .*\.api-key, mode 600, never into the config\) \(typing is not shown\):\s*$/m);
      term.send(PLANTED_KEYS[0]);
      for (const q of [name!, tz!, snapshot!, out!, books!, currency!]) {
        await term.waitFor(q.prompt);
        term.send(q.answer);
      }
      const done = await term.waitFor(/exit \d+/);
      expect(done).toMatch(/^exit 0$/m);
      expect(done).toContain(`Wrote ${keyFile} (mode 600`);
      for (const secret of PLANTED_SECRETS) expect(done).not.toContain(secret);
    } finally {
      term.close();
    }
    expect(readFileSync(keyFile, 'utf8')).toBe(`${PLANTED_KEYS[0]}\n`);
    expect(statSync(keyFile).mode & 0o777).toBe(0o600);
    const config = JSON.parse(readFileSync(join(cwd, 'config', 'payexport.json'), 'utf8')) as { environments: Array<{ id: string }> };
    expect(config.environments.map((e) => e.id)).toEqual([sim.sim.environments[0]!.id]);
  });

  describe('Ctrl-C at each question: "cancelled: nothing was written", exit 130', () => {
    const questions = (): ReturnType<typeof initQuestions> => initQuestions(sim);
    it.each(Array.from({ length: 9 }, (_, i) => i))('question %i', async (index) => {
      const q = questions();
      const { cwd, home } = places(`ctrl-c-${index}`);
      const term = startInit(cwd, home);
      try {
        for (const before of q.slice(0, index)) {
          await term.waitFor(before.prompt);
          term.send(before.answer);
        }
        await term.waitFor(q[index]!.prompt);
        term.send('half an answer', false);
        term.sendKey('C-c');
        const screen = await term.waitFor(/exit \d+/);
        expect(screen, q[index]!.name).toMatch(/^payexport: cancelled: nothing was written$/m);
        expect(screen, q[index]!.name).toMatch(/^exit 130$/m);
        expect(screen.match(/payexport: /g), 'one line, never a loop').toHaveLength(1);
      } finally {
        term.close();
      }
      expectNothingWritten(cwd, home);
    });
  });

  describe('Ctrl-D at each question: one line naming the question, exit 64', () => {
    it.each(Array.from({ length: 9 }, (_, i) => i))('question %i', async (index) => {
      const q = initQuestions(sim);
      const { cwd, home } = places(`ctrl-d-${index}`);
      const term = startInit(cwd, home);
      try {
        for (const before of q.slice(0, index)) {
          await term.waitFor(before.prompt);
          term.send(before.answer);
        }
        await term.waitFor(q[index]!.prompt);
        term.sendKey('C-d');
        const screen = await term.waitFor(/exit \d+/);
        expect(screen, q[index]!.name).toMatch(new RegExp(`^payexport: no answer to "${q[index]!.text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}.*" \\(the input ended\\): nothing was written`, 'm'));
        expect(screen, q[index]!.name).toMatch(/^exit 64$/m);
        expect(screen.match(/payexport: /g), 'one line, never a loop').toHaveLength(1);
      } finally {
        term.close();
      }
      expectNothingWritten(cwd, home);
      expect(existsSync(join(cwd, 'config'))).toBe(false);
    });
  });
});
