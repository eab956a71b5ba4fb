import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../../src/config/load.js';
import { fail, pass, type DoctorCheck } from '../../../src/setup/doctor/check.js';
import { runDoctor } from '../../../src/setup/doctor/run-doctor.js';
import { configError } from '../../../src/util/errors.js';
import { SecretScrubber } from '../../../src/util/secret-scrubber.js';

/**
 * The checklist's runner without a service: the config line first, each check on its own (one
 * that throws is a ✗ of its own and the next still runs), checks passed in by other rooms run
 * after the defaults, and the exit code is 0 only when every line passed.
 */

const cwd = mkdtempSync(join(tmpdir(), 'payexport-doctor-unit-'));
afterAll(() => rmSync(cwd, { recursive: true, force: true }));

async function run(options: { load?: () => ReturnType<typeof loadConfig>; extra: DoctorCheck[] }): Promise<{ code: number; lines: string[]; ran: string[] }> {
  const lines: string[] = [];
  const ran: string[] = [];
  const spy = (check: DoctorCheck): DoctorCheck => ({ id: check.id, run: async (ctx) => (ran.push(check.id), check.run(ctx)) });
  const code = await runDoctor({
    // no organization and no network: the default checks that need them fail fast, offline
    load: options.load ?? (() => loadConfig({ flags: { baseUrl: 'http://127.0.0.1:9/v1', db: false, out: join(cwd, 'reports') }, env: {}, cwd })),
    configChoice: { path: 'test.json', origin: 'flag' },
    env: {},
    cwd,
    scrubber: new SecretScrubber(),
    now: () => new Date('2026-11-27T00:00:00Z'),
    print: (line) => lines.push(line),
    extraChecks: options.extra.map(spy),
  });
  return { code, lines, ran };
}

describe('runDoctor', () => {
  it('runs checks passed in after the defaults; a check that throws is a ✗ and the next still runs', async () => {
    const probe: DoctorCheck = { id: 'delivery-probe', run: async () => [pass('delivery sftp-books', 'host key matches')] };
    const broken: DoctorCheck = {
      id: 'price-cache',
      run: async () => {
        throw new Error('cache folder unreadable');
      },
    };
    const after: DoctorCheck = { id: 'last', run: async () => [fail('last one', 'planted', 'do the planted thing')] };
    const { code, lines, ran } = await run({ extra: [probe, broken, after] });
    expect(ran).toEqual(['delivery-probe', 'price-cache', 'last']);
    expect(lines).toContain('  ✓ delivery sftp-books: host key matches');
    expect(lines).toContain('  ✗ price-cache: cache folder unreadable');
    expect(lines).toContain('  ✗ last one: planted');
    expect(lines).toContain('      fix: do the planted thing');
    expect(code).toBe(78);
  });

  it('a config that does not load: its ✗ with the message, every check skipped and none run', async () => {
    const { code, lines, ran } = await run({
      load: () => {
        throw configError('config_invalid', "invalid configuration 'tz': planted");
      },
      extra: [{ id: 'extra', run: async () => [pass('never')] }],
    });
    expect(code).toBe(78);
    expect(ran).toEqual([]);
    expect(lines[1]).toBe("  ✗ config valid: invalid configuration 'tz': planted");
    expect(lines).toContain('  – extra: not checked: it reads the config, which does not load');
    expect(lines.at(-1)).toMatch(/failed, \d+ skipped — tonight's run would not work as configured$/);
  });
});
