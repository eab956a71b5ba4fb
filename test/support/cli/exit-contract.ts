/**
 * The exit contract of one finished CLI run (docs/contracts.md#exit-codes): the code, ONE plain
 * stderr line on failure and none for 0/65, a run id on every JSON log line, and no planted
 * secret in any byte of output or of the files under `dirs`.
 */
import { expect } from 'vitest';
import { describeRun, splitStderr, type CliResult } from './cli.js';
import { expectNoSecrets } from './secrets.js';

export interface ExitExpectation {
  /** the plain stderr line must match */
  message?: RegExp;
  /** searched for in stdout, stderr and every file under `dirs` */
  secrets?: readonly string[];
  dirs?: readonly string[];
}

export function expectExit(args: readonly string[], result: CliResult, code: number, expectation: ExitExpectation = {}): void {
  const context = describeRun(args, result);
  expect(result.code, context).toBe(code);
  const { logs, plain } = splitStderr(result.stderr);
  if (code === 0 || code === 65) {
    expect(plain, context).toEqual([]);
  } else {
    expect(plain, context).toHaveLength(1);
    expect(plain[0], context).toMatch(/^payexport: \S/);
  }
  if (expectation.message) expect(plain[0] ?? '', context).toMatch(expectation.message);
  for (const record of logs) expect(record.run_id, context).toEqual(expect.any(String));
  if (expectation.secrets) expectNoSecrets(expectation.secrets, { texts: [result.stdout, result.stderr], dirs: expectation.dirs ?? [] });
}
