import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assertBuilt, describeRun, runCli, splitStderr } from '../support/cli/cli.js';
import { closedPort } from '../support/cli/closed-port.js';
import { PLANTED_KEYS, startTestSim, type TestSim } from '../support/cli/sim.js';
import { workspace } from '../support/cli/workspace.js';
import { serveFakePriceSources } from '../support/prices/fake-price-sources.js';
import { readCsvWithPython, readersMissing } from '../support/readers/readers.js';

/**
 * A first month-end on a machine whose price sources do not answer (issue 52): the books `init`
 * writes (journal, lots, `prices.autoFetch`) against the simulator, every source of the default
 * policy on a closed port. Doctor says ✗ on its price cache line first; the run stops once — exit 75, ONE stderr line naming each source tried,
 * its error and the fix — before it writes books: no report folder. The same month-end with the
 * sources answering (local fakes) doctor's line is ✓ and the month-end writes the month, and no BTC movement needs a price.
 */
const ws = workspace('prices-unreachable');
let sim: TestSim;
const NOW = '2026-11-15T12:00:00Z';

beforeAll(async () => {
  assertBuilt();
  sim = await startTestSim();
});

afterAll(async () => {
  await sim?.close();
  ws.remove();
});

describe('month-end when no price source answers', () => {
  it('exits 75 with one line naming the sources and the fix, writes no books; with the sources answering, the month is valued', { timeout: 300_000 }, async () => {
    const cwd = ws.fresh('first-month');
    const env = { PAYEXPORT_API_KEY: PLANTED_KEYS[0], PAYEXPORT_NOW: NOW, PAYEXPORT_LOG_FORMAT: 'json' };
    const initArgs = ['init', '--yes', '--base-url', sim.sim.baseUrl, '--organization', sim.sim.organizationId, '--tz', 'America/New_York', '--books-currency', 'usd'];
    const init = await runCli(initArgs, { cwd, env });
    expect(init.code, describeRun(initArgs, init)).toBe(0);
    const configPath = join(cwd, 'config', 'payexport.json');
    const config = JSON.parse(readFileSync(configPath, 'utf8')) as Record<string, unknown> & { prices: Record<string, unknown> };
    expect(config.prices).toEqual({ autoFetch: true });

    // every source of the default policy refuses the connection; few, short retries (a subprocess sleeps for real)
    const refused = `http://127.0.0.1:${await closedPort()}`;
    const retry = { maxAttempts: 2, runBudget: 8, maxDelayMs: 20, maxRetryAfterMs: 50 };
    const closed = { coinbase: { baseUrl: refused }, kraken: { baseUrl: refused }, bitstamp: { baseUrl: refused }, coingecko: { baseUrl: refused } };
    writeFileSync(configPath, JSON.stringify({ ...config, prices: { ...config.prices, sources: closed, retry } }, null, 2));

    // doctor says so first: ✗ on the price cache line, a non-zero exit
    const doctor = await runCli(['doctor'], { cwd, env });
    expect(doctor.code, describeRun(['doctor'], doctor)).toBe(78);
    expect(doctor.stdout).toMatch(/^ {2}✗ price cache BTC-USD \(prices\): .* no source of the policy sends closes now \(coinbase:1h unreachable: /m);

    const args = ['month-end', '--month', '2026-10'];
    const run = await runCli(args, { cwd, env });
    const context = describeRun(args, run);
    expect(run.code, context).toBe(75);
    const lines = splitStderr(run.stderr).plain;
    expect(lines, context).toHaveLength(1);
    const line = lines[0]!;
    expect(line).toMatch(/^payexport: month-end 2026-10 cannot value its BTC: no price for BTC-USD at 2026-10-01T04:00:00\.000Z in the price file or the cache, and no price source answered \(/);
    for (const source of ['coinbase:1h', 'bitstamp:1h', 'kraken:1h', 'coingecko:1d']) expect(line).toMatch(new RegExp(`${source} cannot reach 127\\.0\\.0\\.1:\\d+ \\(connection refused\\)`));
    expect(line).toContain('nothing was written');
    expect(line).toContain('payexport prices fetch --currency BTC --books USD --from 2026-10-01 --to 2026-11-01 --config config/payexport.json');
    expect(line).toContain('journal.prices');
    expect(line).toContain('prices.autoFetch');
    // the window ends at 04:00 UTC on 1 November (midnight in New York): that UTC day's closes are in it
    // no books: no folder of the month under the output root
    const root = join(cwd, 'reports', `org-${sim.sim.organizationId.slice(0, 8)}`);
    expect(existsSync(join(root, 'month-end')), existsSync(root) ? readdirSync(root).join(', ') : '(no root)').toBe(false);

    // the sources answer: the same command values the month
    const fake = await serveFakePriceSources({ nowSec: () => Math.floor(Date.parse(NOW) / 1000) });
    const answering = { coinbase: { baseUrl: fake.baseUrl('coinbase') }, kraken: { baseUrl: fake.baseUrl('kraken') }, bitstamp: { baseUrl: fake.baseUrl('bitstamp') }, coingecko: { baseUrl: fake.baseUrl('coingecko') } };
    writeFileSync(configPath, JSON.stringify({ ...config, prices: { ...config.prices, sources: answering, retry } }, null, 2));
    const ready = await runCli(['doctor'], { cwd, env });
    expect(ready.stdout, describeRun(['doctor'], ready)).toMatch(/^ {2}✓ price cache BTC-USD \(prices\): .*; coinbase:1h answers now /m);
    const again = await runCli([...args, '--quiet'], { cwd, env });
    const againContext = describeRun(args, again);
    // 65 at most: the opening lots' cost is `unknown` until the accountant writes it (init-books.test.ts)
    expect([0, 65], againContext).toContain(again.code);
    expect(splitStderr(again.stderr).plain, againContext).toEqual([]);
    if (readersMissing('csv') === null) {
      const exceptions = readCsvWithPython(join(root, 'month-end', '2026-10', 'exceptions.csv'));
      const ids = exceptions.rows.map((r) => r[0]);
      expect(ids).not.toContain('journal.price_fetch_failed');
      expect(exceptions.rows.filter((r) => r[0] === 'journal.needs_price' && r.includes('btc'))).toEqual([]);
    }
  });
});
