import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EXIT_CODE_MEANINGS } from '../../src/util/exit-codes.js';
import { assertBuilt, describeRun, runCli } from '../support/cli/cli.js';
import { workspace } from '../support/cli/workspace.js';

/** `--help` of every command: exit 0, examples, and the exit-code table a scheduler author needs. */

const COMMANDS = ['export', 'nightly', 'month-end', 'report', 'demo', 'sim', 'verify', 'db', 'notify'];
const ws = workspace('help');

beforeAll(() => assertBuilt());
afterAll(() => ws.remove());

describe('payexport --help', () => {
  for (const command of ['', ...COMMANDS]) {
    it(command === '' ? '(no command)' : command, async () => {
      const args = command === '' ? ['--help'] : [command, '--help'];
      const result = await runCli(args, { cwd: ws.root });
      expect(result.code, describeRun(args, result)).toBe(0);
      expect(result.stderr).toBe('');
      expect(result.stdout).toMatch(/^Examples:$/m);
      expect(result.stdout).toMatch(new RegExp(`^  payexport ${command}`, 'm'));
      expect(result.stdout).toMatch(/^Exit codes:$/m);
      for (const [code, meaning] of Object.entries(EXIT_CODE_MEANINGS)) {
        expect(result.stdout).toContain(`${code.padStart(2)}  ${meaning.slice(0, 30)}`);
      }
    });
  }

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
