import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { COMMAND_EXIT_CODES, exitCodesOf, type CommandPath } from '../../src/cli/command-exit-codes.js';
import { EXIT_CODE_MEANINGS } from '../../src/util/exit-codes.js';
import { assertBuilt, describeRun, runCli } from '../support/cli/cli.js';
import { workspace } from '../support/cli/workspace.js';

/** `--help` of every command: exit 0, examples, and the exit-code table a scheduler author needs. */

const COMMANDS = ['export', 'nightly', 'month-end', 'report', 'demo', 'sim', 'verify', 'db', 'notify', 'init', 'doctor', 'prices'];
const ws = workspace('help');

beforeAll(() => assertBuilt());
afterAll(() => ws.remove());

/** The Examples block: a command on its own line (indent 2), its purpose below (indent 6) — never a command cut in two. */
function examples(stdout: string): string[] {
  const lines = stdout.split('\n');
  const start = lines.indexOf('Examples:');
  const block: string[] = [];
  for (const line of lines.slice(start + 1)) {
    if (line.trim() === '') break;
    block.push(line);
  }
  return block;
}

function expectWholeExamples(stdout: string, command: string): void {
  const block = examples(stdout);
  expect(block.length, stdout).toBeGreaterThan(0);
  block.forEach((line, i) => expect(line, stdout).toMatch(i % 2 === 0 ? /^ {2}\S/ : /^ {6}\S/));
  expect(block.filter((_l, i) => i % 2 === 0).every((l) => l.includes(`payexport ${command}`)), stdout).toBe(true);
}

describe('payexport --help', () => {
  for (const command of ['', ...COMMANDS.filter((c) => c !== 'verify' && c !== 'db' && c !== 'prices')]) {
    it(command === '' ? '(no command)' : command, async () => {
      const args = command === '' ? ['--help'] : [command, '--help'];
      const result = await runCli(args, { cwd: ws.root });
      expect(result.code, describeRun(args, result)).toBe(0);
      expect(result.stderr).toBe('');
      expect(result.stdout).toMatch(/^Examples:$/m);
      expect(result.stdout).toMatch(new RegExp(`^  (npx )?payexport ${command}`, 'm'));
      if (command === '') {
        // the top level: the whole table
        expect(result.stdout).toMatch(/^Exit codes \(each command's --help lists its own\):$/m);
        for (const [code, meaning] of Object.entries(EXIT_CODE_MEANINGS)) expect(result.stdout).toContain(`${code.padStart(3)}  ${meaning.slice(0, 30)}`);
      }
      if (['export', 'nightly', 'month-end', 'report'].includes(command)) {
        expectWholeExamples(result.stdout, command);
        // the command's own options come first, before the options every job shares
        expect(result.stdout.indexOf('Period'), result.stdout).toBeLessThan(result.stdout.indexOf('Configuration:'));
      }
    });
  }

  it('export names its required options first', async () => {
    const result = await runCli(['export', '--help'], { cwd: ws.root });
    expect(result.stdout).toMatch(/Period \(required\):\n {2}--from .*\n {2}--to /);
  });

  it('report shows only what applies: no API options (it makes no API calls)', async () => {
    const result = await runCli(['report', '--help'], { cwd: ws.root });
    for (const flag of ['--base-url', '--concurrency', '--page-size', '--lookback-days', '--shard']) expect(result.stdout).not.toContain(flag);
    for (const flag of ['--month', '--from', '--to', '--job', '--organization', '--schema', '--database-url']) expect(result.stdout).toContain(flag);
  });

  it('verify states its own exit codes', async () => {
    const result = await runCli(['verify', '--help'], { cwd: ws.root });
    expect(result.code).toBe(0);
    expectWholeExamples(result.stdout, 'verify');
    expect(result.stdout).toMatch(/^ {4}0 {2}every file matches the manifest/m);
    expect(result.stdout).toMatch(/^ {3}65 {2}a file differs or is missing/m);
    expect(result.stdout).not.toContain('reconciliation check passed');
  });

  it('db lists its tasks; db migrate and db shell have help of their own', async () => {
    const db = await runCli(['db', '--help'], { cwd: ws.root });
    expect(db.code).toBe(0);
    expect(db.stdout).toMatch(/^ {2}payexport db migrate /m);
    expect(db.stdout).toMatch(/^ {2}payexport db shell /m);
    for (const task of ['migrate', 'shell']) {
      const result = await runCli(['db', task, '--help'], { cwd: ws.root });
      expect(result.code, describeRun(['db', task, '--help'], result)).toBe(0);
      expect(result.stdout).toMatch(new RegExp(`^payexport db ${task}$`, 'm'));
      expectWholeExamples(result.stdout, `db ${task}`);
      expect(result.stdout).toContain('--schema');
      expect(result.stdout).not.toContain('--base-url');
      expect(result.stdout).toMatch(/^Exit codes:$/m);
    }
  });

  describe("ends with the exit codes of the command, exactly those src/cli/command-exit-codes.ts lists (held to the code by test/unit/cli/command-exit-codes.test.ts)", () => {
    for (const command of Object.keys(COMMAND_EXIT_CODES) as CommandPath[]) {
      it(command, async () => {
        const args = [...command.split(' '), '--help'];
        const result = await runCli(args, { cwd: ws.root });
        expect(result.code, describeRun(args, result)).toBe(0);
        const lines = result.stdout.trimEnd().split('\n');
        const start = lines.lastIndexOf('Exit codes:');
        expect(start, result.stdout).toBeGreaterThan(0);
        // the block is the end of the help: nothing after it but its own lines (a long meaning wraps, indented)
        const block = lines.slice(start + 1);
        expect(block.every((l) => /^ {2,}\S/.test(l)), result.stdout).toBe(true);
        const codes = block.map((l) => /^ {2,4}(\d{1,3}) {2}/.exec(l)?.[1]).filter((c): c is string => c !== undefined).map(Number);
        expect(codes).toEqual(exitCodesOf(command));
      });
    }
  });

  it('lists every command at the top level', async () => {
    const result = await runCli(['--help'], { cwd: ws.root });
    for (const command of COMMANDS) expect(result.stdout).toMatch(new RegExp(`^  payexport ${command}\\b`, 'm'));
  });

  it('--version prints the package version', async () => {
    const result = await runCli(['--version'], { cwd: ws.root });
    expect(result.code).toBe(0);
    expect(result.stdout.trim()).toMatch(/^\d+\.\d+\.\d+/);
  });
});
