import { describe, expect, it } from 'vitest';
import { helpWidth } from '../../../src/cli/help.js';

describe('helpWidth', () => {
  it('wraps to the terminal, at most 120 columns, 100 without one, when the run prints help', () => {
    expect(helpWidth(['month-end', '--help'], 80)).toBe(80);
    expect(helpWidth(['--help'], 200)).toBe(120);
    expect(helpWidth(['month-end', '-h', '--month', '2026-10'], undefined)).toBe(100);
  });

  it('does not wrap the help yargs renders unasked (a command that runs, a usage error, --help as a value after --)', () => {
    expect(helpWidth(['month-end', '--month', '2026-10'], 80)).toBeNull();
    expect(helpWidth(['month-end', '--month', '2026-13'], 80)).toBeNull();
    expect(helpWidth(['sim', '--', '--help'], 80)).toBeNull();
    expect(helpWidth([], 80)).toBeNull();
  });
});
