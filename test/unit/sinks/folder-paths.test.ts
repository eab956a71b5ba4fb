import { describe, expect, it } from 'vitest';
import { amendmentNumber, assertSafeName, insideRoot } from '../../../src/sinks/folder-paths.js';
import { AppError } from '../../../src/util/errors.js';

function usageCode(fn: () => unknown): number | null {
  try {
    fn();
    return null;
  } catch (error) {
    return error instanceof AppError ? error.exitCode : -1;
  }
}

describe('output names', () => {
  it.each(['month-end', '2026-10', '2026-10-01_2026-10-31', 'nightly', 'run.1'])('accepts %j', (name) => {
    expect(usageCode(() => assertSafeName('period', name))).toBeNull();
  });

  it.each(['', '.', '..', '../etc', 'a/b', 'a\\b', '.hidden', '2026..10', 'x\u0000', 'a b', '~root', '%2e%2e'])('refuses %j with a usage error', (name) => {
    expect(usageCode(() => assertSafeName('period', name))).toBe(64);
  });

  it('keeps resolved paths inside the output root', () => {
    expect(insideRoot('/tmp/out', 'month-end', '2026-10')).toBe('/tmp/out/month-end/2026-10');
    expect(usageCode(() => insideRoot('/tmp/out', '..', 'x'))).toBe(64);
    expect(usageCode(() => insideRoot('/tmp/out', '/etc'))).toBe(64);
  });
});

describe('closed periods', () => {
  it('recognises only its own amendments', () => {
    expect(amendmentNumber('2026-10', '2026-10.amended-12')).toBe(12);
    expect(amendmentNumber('2026-10', '2026-10.amended-0')).toBeNull();
    expect(amendmentNumber('2026-10', '2026-100.amended-1')).toBeNull();
  });
});
