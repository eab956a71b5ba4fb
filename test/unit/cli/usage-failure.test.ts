import { describe, expect, it } from 'vitest';
import { unknownOptions, usageFailure } from '../../../src/cli/usage-failure.js';

/** yargs' failures said as what the person did: the unknown option first, the missing word named. */

const parser = (keys: string[], choices: Record<string, unknown[]> = {}, commands: string[] = []) => ({
  getOptions: () => ({ key: Object.fromEntries(keys.map((k) => [k, true])), alias: { 'dryRun': ['dry-run'] }, choices }),
  getInternalMethods: () => ({ getCommandInstance: () => ({ getCommands: () => commands }) }),
});

describe('usageFailure', () => {
  it('an unknown option is named before the required ones it hides', () => {
    const p = parser(['from', 'to', 'dryRun', 'db']);
    expect(unknownOptions(['export', '--bogus-flag', '--dry-run', '--no-db', '--from=2026-10-01', '-x', '--', '--after'], p)).toEqual(['bogus-flag', 'x']);
    const error = usageFailure('Missing required arguments: from, to', ['export', '--bogus-flag'], p);
    expect(error.message).toBe('Unknown argument: bogus-flag');
    expect(error.exitCode).toBe(64);
    expect(usageFailure('Missing required arguments: from, to', ['export'], p).message).toBe('Missing required arguments: from, to');
  });

  it('a mistyped option gets a "did you mean", as an unknown command does (issue 52: --form had none)', () => {
    const p = parser(['month', 'format', 'verbose', 'version', 'dryRun', 'out']);
    expect(usageFailure('Unknown argument: form', ['month-end', '--form', 'csv'], p).message).toBe('Unknown argument: form — did you mean --format?');
    expect(usageFailure('Unknown argument: verbos', ['month-end', '--verbos'], p).message).toBe('Unknown argument: verbos — did you mean --verbose?');
    expect(usageFailure('Unknown argument: dryrun', ['month-end', '--dryrun'], p).message).toBe('Unknown argument: dryrun — did you mean --dry-run?');
    expect(usageFailure('Unknown arguments: mnth, zzzzzz', ['month-end', '--mnth=2026-10', '--zzzzzz'], p).message).toBe('Unknown arguments: mnth (did you mean --month?), zzzzzz');
    // nothing near: the name alone, as before
    expect(usageFailure('Unknown argument: bogus-flag', ['month-end', '--bogus-flag'], p).message).toBe('Unknown argument: bogus-flag');
    // two options begin with what was typed: no guess
    expect(usageFailure('Unknown argument: ver', ['month-end', '--ver'], p).message).toBe('Unknown argument: ver');
  });

  it('a command without the word that says what to do names the words', () => {
    expect(usageFailure('Not enough non-option arguments: got 0, need at least 1', ['webhooks'], parser([], { action: ['register', 'rotate'] })).message).toBe('name what to do: payexport webhooks register, or payexport webhooks rotate');
    expect(usageFailure('Not enough non-option arguments: got 0, need at least 1', ['db'], parser([], {}, ['migrate', 'shell <x>'])).message).toBe('name what to do: payexport db migrate, or payexport db shell');
  });
});
