import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assertBuilt, describeRun, runCli, splitStderr } from '../support/cli/cli.js';
import { workspace } from '../support/cli/workspace.js';
import { beanCheck, hledgerCheck, ledgerToolsMissing } from '../support/journal/ledger-tools.js';

/**
 * `npm run demo` from a clean checkout, without copying the repository (too slow for `npm ci`):
 * the built CLI run in a fresh empty directory with no DATABASE_URL, so the embedded database is
 * created under that directory; then `payexport verify` accepts both report folders.
 */

const ws = workspace('demo');
beforeAll(() => assertBuilt());
afterAll(() => ws.remove());

describe('payexport demo', () => {
  it('runs end to end in an empty directory, and both folders verify', async () => {
    const cwd = ws.fresh('clean');
    // Settings a user might have exported must not reach the demo: it is hermetic.
    const env = { DATABASE_URL: 'postgres://nobody@127.0.0.1:1/none', PAYEXPORT_API_KEY: 'vltg_users-own-key', PAYEXPORT_OUT: 'elsewhere' };
    const result = await runCli(['demo'], { cwd, env });
    const context = describeRun(['demo'], result);
    // The simulated organization is clean: its books must reconcile (notes allowed, no errors).
    expect(result.code, context).toBe(0);
    expect(result.stdout).toMatch(/result\s+complete; (every reconciliation check passed|no reconciliation errors)/);
    expect(splitStderr(result.stderr).plain, context).toEqual([]);
    expect(result.stdout).toMatch(/^simulator: http:\/\/127\.0\.0\.1:\d+\/v1 — organization \S+, 5000 payments over 12 wallets \(seed 7\)$/m);
    expect(result.stdout).toContain('== month-end 2026-10 (America/New_York)');
    expect(result.stdout).toContain('== export 2026-11-01 .. 2026-11-21 (America/New_York)');

    const folders = [join(cwd, 'reports/month-end/2026-10'), join(cwd, 'reports/export/2026-11-01_2026-11-21')];
    expect(result.stdout).toContain(`Check them: payexport verify ${folders[0]} && payexport verify ${folders[1]}`);
    expect(existsSync(join(cwd, 'data/demo/pgdata')), 'embedded database under the working directory').toBe(true);
    expect(readdirSync(cwd).sort()).toEqual(['data', 'reports']);
    for (const folder of folders) {
      const verified = await runCli(['verify', folder], { cwd, env: {} });
      expect(verified.code, describeRun(['verify', folder], verified)).toBe(0);
      expect(verified.stdout).toMatch(/^verified \d+ file\(s\) of run \S+: sha256, bytes and rows match the manifest$/m);
    }

    // The shipped mapping and price files journal both periods; ledgers that did not write them accept them.
    const noTools = ledgerToolsMissing();
    for (const folder of folders) {
      expect(readdirSync(folder)).toEqual(expect.arrayContaining(['journal.csv', 'journal.beancount', 'journal.hledger', 'journal-qbo.csv', 'journal-xero.csv']));
      if (noTools !== null) continue;
      const bean = beanCheck(join(folder, 'journal.beancount'));
      expect(bean.code, bean.stderr + bean.stdout).toBe(0);
      const hledger = hledgerCheck(join(folder, 'journal.hledger'));
      expect(hledger.code, hledger.stderr).toBe(0);
    }
    // two pulls, two reports and their journals, as a subprocess on a shared 2-core machine
  }, 360_000);
});
