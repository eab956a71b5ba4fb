import { execFileSync } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assertBuilt, describeRun, runCli, startCli } from '../support/cli/cli.js';
import { initQuestions } from '../support/cli/init-questions.js';
import { expectNoSecrets } from '../support/cli/secrets.js';
import { PLANTED_KEYS, PLANTED_SECRETS, startTestSim, type TestSim } from '../support/cli/sim.js';
import { workspace } from '../support/cli/workspace.js';

/**
 * `payexport init` with its answers piped in (not a terminal): stdin from /dev/null, and an answer
 * file that ends after each question in turn — one line on stderr naming the question left
 * unanswered, exit 64, nothing written, and the process ends (the session ended once: it cannot
 * print "readline was closed" in a loop). A whole answer file is read ahead while init checks the
 * answers against the service, and no line of it is lost. Ctrl-C reaches a piped init as SIGINT:
 * exit 130. A `--key-file` inside a checkout is written with a .gitignore entry beside it.
 */

const ws = workspace('init-input');
let sim: TestSim;

beforeAll(async () => {
  assertBuilt();
  sim = await startTestSim();
});

afterAll(async () => {
  await sim?.close();
  ws.remove();
});

const answersFile = (count: number): string => initQuestions(sim).slice(0, count).map((q) => `${q.answer}\n`).join('');

describe('payexport init with piped answers', () => {
  it('stdin from /dev/null: one line naming the first question, exit 64, nothing written', async () => {
    const cwd = ws.fresh('dev-null');
    const result = await runCli(['init'], { cwd });
    expect(result.code, describeRun(['init'], result)).toBe(64);
    expect(result.stderr.trim().split('\n')).toEqual([expect.stringMatching(/^payexport: no answer to "Service: production .*" \(the input ended\): nothing was written/)]);
    expect(readdirSync(cwd)).toEqual([]);
  });

  it.each(Array.from({ length: 9 }, (_, i) => i))('an answer file that ends before question %i: that question named, exit 64, nothing written', async (count) => {
    const cwd = ws.fresh(`ends-${count}`);
    const result = await runCli(['init'], { cwd, stdin: answersFile(count) });
    const why = describeRun(['init'], result);
    const question = initQuestions(sim)[count]!;
    expect(result.code, why).toBe(64);
    const lines = result.stderr.trim().split('\n');
    expect(lines, why).toEqual([expect.stringContaining(`payexport: no answer to "${question.text}`)]);
    expect(lines[0], why).toMatch(/\(the input ended\): nothing was written/);
    expect(result.stdout).not.toMatch(/readline was closed/);
    // nothing in the working folder, nothing in the home folder (HOME is the working folder here)
    expect(readdirSync(cwd), why).toEqual([]);
    expectNoSecrets(PLANTED_SECRETS, { texts: [result.stdout, result.stderr] });
  });

  it('a whole answer file: every line used (read ahead while the service is asked), the config written', async () => {
    const cwd = ws.fresh('whole');
    const result = await runCli(['init'], { cwd, stdin: answersFile(9) });
    expect(result.code, describeRun(['init'], result)).toBe(0);
    const config = JSON.parse(readFileSync(join(cwd, 'config', 'payexport.json'), 'utf8')) as { environments: Array<{ name: string }>; tz: string };
    expect(config.environments[0]!.name).toBe('Payments');
    expect(config.tz).toBe('Europe/Berlin');
    // HOME is the working folder here: the key lands in its .config, mode 600
    expect(statSync(join(cwd, '.config', 'payexport', `org-${sim.sim.organizationId.slice(0, 8)}.api-key`)).mode & 0o777).toBe(0o600);
    expectNoSecrets(PLANTED_SECRETS, { texts: [result.stdout, result.stderr, readFileSync(join(cwd, 'config', 'payexport.json'), 'utf8')] });
  });

  it('Ctrl-C while a piped init waits (SIGINT): "cancelled: nothing was written", exit 130', async () => {
    const cwd = ws.fresh('sigint');
    // stdin stays open: init waits at its first question
    const running = startCli(['init'], { cwd, stdin: null });
    let shown = '';
    await new Promise<void>((resolve) => running.child.stdout!.on('data', (chunk: Buffer) => ((shown += chunk.toString('utf8')), /Service: .*: $/m.test(shown) && resolve())));
    running.child.kill('SIGINT');
    const result = await running.result;
    expect(result.code, describeRun(['init'], result)).toBe(130);
    expect(result.stderr.trim().split('\n')).toEqual(['payexport: cancelled: nothing was written']);
    expect(readdirSync(cwd)).toEqual([]);
  });

  it('--key-file inside a git checkout: the key is written with a .gitignore entry, and git would not commit it', async () => {
    const cwd = ws.fresh('key-in-checkout');
    execFileSync('git', ['init', '-q', cwd]);
    mkdirSync(join(cwd, 'config'));
    const result = await runCli(['init', '--key-file', 'config/prod.api-key'], { cwd, stdin: answersFile(9) });
    expect(result.code, describeRun(['init'], result)).toBe(0);
    expect(result.stdout).toMatch(/Wrote config\/prod\.api-key \(mode 600: the API key, outside the config; .*config\/\.gitignore now keeps it out of git\)/);
    expect(readFileSync(join(cwd, 'config', '.gitignore'), 'utf8')).toBe('/prod.api-key\n');
    expect(readFileSync(join(cwd, 'config', 'prod.api-key'), 'utf8')).toBe(`${PLANTED_KEYS[0]}\n`);
    // git's own answer: `git add -A` would not take it
    const added = execFileSync('git', ['-C', cwd, 'add', '-A', '--dry-run'], { encoding: 'utf8' });
    expect(added).toMatch(/config\/payexport\.json/);
    expect(added).not.toMatch(/prod\.api-key/);
    // and doctor agrees
    const doctor = await runCli(['doctor', '--config', 'config/payexport.json'], { cwd });
    expect(doctor.stdout, describeRun(['doctor'], doctor)).toMatch(/✓ key file config\/prod\.api-key: only its owner can read it; git ignores it/);
    // the key went where --key-file said, not to the user configuration folder (which holds the signing key only)
    expect(readdirSync(join(cwd, '.config', 'payexport')).filter((n) => n.endsWith('.api-key'))).toEqual([]);
  });
});
