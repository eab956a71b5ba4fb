import { describe, expect, it } from 'vitest';
import { assertEnvironmentMatchesBaseUrl, environmentKindOfHost, type EnvironmentKind } from '../../../src/api/environment-guard.js';
import { AppError } from '../../../src/util/errors.js';

describe('environment guard', () => {
  it.each<[EnvironmentKind | undefined, string, string | null]>([
    ['production', 'https://voltageapi.com/v1', null],
    ['staging', 'https://staging.voltageapi.com/v1', null],
    ['staging', 'https://voltageapi.com/v1', 'environment_mismatch'],
    ['production', 'https://staging.voltageapi.com/v1', 'environment_mismatch'],
    ['production', 'https://STAGING.VoltageAPI.com./v1', 'environment_mismatch'],
    [undefined, 'https://voltageapi.com/v1', null],
    ['production', 'http://voltageapi.com/v1', 'insecure_base_url'],
    ['staging', 'http://127.0.0.1:4010/v1', null], // the simulator: unknown host, passes
    ['production', 'http://localhost:4010/v1', null],
    ['production', 'https://voltageapi.com.evil.example/v1', null],
  ])('%s against %s → %s', (kind, url, expected) => {
    const run = () => assertEnvironmentMatchesBaseUrl(kind, url);
    if (expected === null) {
      expect(run).not.toThrow();
      return;
    }
    try {
      run();
      expect.unreachable('should have thrown');
    } catch (error) {
      expect(error).toBeInstanceOf(AppError);
      expect(error).toMatchObject({ type: expected, exitCode: 78 });
    }
  });

  it('names the host kind', () => {
    expect(environmentKindOfHost('https://voltageapi.com/v1')).toBe('production');
    expect(environmentKindOfHost('https://staging.voltageapi.com/v1')).toBe('staging');
    expect(environmentKindOfHost('http://127.0.0.1:1/v1')).toBeNull();
    expect(() => environmentKindOfHost('not a url')).toThrow(AppError);
  });
});
