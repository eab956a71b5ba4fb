import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createServer } from 'node:http';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { assertBuilt, describeRun, runCli, startCli } from '../support/cli/cli.js';
import { closedPort } from '../support/cli/closed-port.js';
import { expectExit } from '../support/cli/exit-contract.js';
import { workspace } from '../support/cli/workspace.js';
import { serveFakePriceSources } from '../support/prices/fake-price-sources.js';
import { utcDaysAgo, writePricesConfig } from '../support/prices/cli-config.js';
import { readCsvWithPython, readersMissing } from '../support/readers/readers.js';

/**
 * `payexport prices fetch` as a subprocess against the local fake sources: the exit codes of each
 * failure kind with one line on stderr, the summary, and a fetch killed with SIGKILL mid-way that
 * a rerun completes without a duplicate.
 */
const ws = workspace('prices');
const now = (): number => Math.floor(Date.now() / 1000);
const FROM = utcDaysAgo(4);
const TO = utcDaysAgo(3);
const FILE = 'prices/coinbase.BTC-USD.1h.csv';

beforeAll(() => assertBuilt());
afterAll(() => ws.remove());

describe('payexport prices fetch', () => {
  it('0: fills the cache from the policy’s first source, one summary line per source; a rerun appends nothing', async () => {
    const fake = await serveFakePriceSources({ nowSec: now });
    const cwd = ws.fresh('ok');
    writePricesConfig(cwd, fake);
    const args = ['prices', 'fetch', '--currency', 'BTC', '--books', 'USD', '--from', FROM, '--to', TO, '--config', 'payexport.json'];
    const first = await runCli(args, { cwd });
    expectExit(args, first, 0);
    expect(first.stdout).toMatch(/^coinbase:1h BTC-USD: 49 close\(s\) wanted, 0 cached, 49 appended in 2 request\(s\)$/m);
    expect(first.stdout).toMatch(/^prices: BTC-USD: covered by coinbase:1h; cache /m);
    const bytes = readFileSync(join(cwd, FILE), 'utf8');
    const second = await runCli(args, { cwd });
    expectExit(args, second, 0);
    expect(second.stdout).toMatch(/49 cached, 0 appended in 0 request\(s\)/);
    expect(readFileSync(join(cwd, FILE), 'utf8')).toBe(bytes);
    if (readersMissing('csv') === null) expect(readCsvWithPython(join(cwd, FILE)).records).toBe(49);
  });

  it.each([
    ['gone', 68, /coinbase:1h failed \(source_gone: coinbase: HTTP 404: NotFound\)/],
    ['wrong_currency', 76, /wrong_currency: coinbase: asked for BTC-USD, the product is priced BTC-EUR/],
    ['rate_limited', 75, /rate_limited: coinbase: rate limited \(HTTP 429\)/],
    ['empty', 66, /coinbase:1h has 49 gap\(s\)/],
  ] as const)('%s → exit %i, one line on stderr naming it', async (behaviour, code, message) => {
    const fake = await serveFakePriceSources({ nowSec: now });
    fake.script('coinbase', ...Array.from({ length: 4 }, () => behaviour));
    const cwd = ws.fresh(behaviour);
    writePricesConfig(cwd, fake);
    const args = ['prices', 'fetch', '--source', 'coinbase', '--from', FROM, '--to', TO, '--config', 'payexport.json'];
    const result = await runCli(args, { cwd });
    expectExit(args, result, code, { message });
    if (code !== 66) expect(existsSync(join(cwd, FILE))).toBe(false);
  });

  it('64: a bad date or a reversed range', async () => {
    const cwd = ws.fresh('usage');
    const bad = ['prices', 'fetch', '--from', '2026-13-01', '--to', TO];
    expectExit(bad, await runCli(bad, { cwd }), 64, { message: /--from '2026-13-01': expected YYYY-MM-DD/ });
    const reversed = ['prices', 'fetch', '--from', TO, '--to', FROM];
    expectExit(reversed, await runCli(reversed, { cwd }), 64, { message: /is after --to/ });
    // the default policy has no daily Coinbase, Bitstamp or Kraken: --interval 1d keeps CoinGecko only; a policy of hours has none
    writeFileSync(join(cwd, 'hours.json'), JSON.stringify({ prices: { policy: { 'BTC-USD': { sources: ['coinbase:1h'] } } } }));
    const none = ['prices', 'fetch', '--interval', '1d', '--from', FROM, '--to', TO, '--config', 'hours.json'];
    expectExit(none, await runCli(none, { cwd }), 64, { message: /no source of the BTC-USD policy has the interval 1d/ });
  });

  it('a fetch killed with SIGKILL mid-way keeps what it had; the rerun appends the rest, nothing twice', { timeout: 60_000 }, async () => {
    const fake = await serveFakePriceSources({ nowSec: now });
    const cwd = ws.fresh('killed');
    writePricesConfig(cwd, fake, { requestTimeoutMs: 60_000 });
    // product check, first chunk of 300 hours, then the second chunk never answers
    fake.script('coinbase', 'ok', 'ok', 'hang');
    const args = ['prices', 'fetch', '--source', 'coinbase', '--from', utcDaysAgo(29), '--to', utcDaysAgo(3), '--config', 'payexport.json'];
    const running = startCli(args, { cwd });
    while (fake.requests('coinbase').length < 3) await new Promise((r) => setTimeout(r, 50));
    running.child.kill('SIGKILL');
    const killed = await running.result;
    expect(killed.signal, describeRun(args, killed)).toBe('SIGKILL');
    const kept = readFileSync(join(cwd, FILE), 'utf8');
    const resumed = await runCli(args, { cwd });
    expectExit(args, resumed, 0);
    const after = readFileSync(join(cwd, FILE), 'utf8');
    expect(after.startsWith(kept)).toBe(true);
    const stamps = after.trim().split('\n').slice(1).map((l) => l.split(',')[0]);
    expect(new Set(stamps).size).toBe(stamps.length);
    expect(stamps.length).toBe(27 * 24 + 1);
  });

  describe('a source that does not answer is temporary (75); one that answers it is gone is 68', () => {
    const every = (baseUrl: string): Record<string, { baseUrl: string }> => ({ coinbase: { baseUrl }, kraken: { baseUrl }, bitstamp: { baseUrl }, coingecko: { baseUrl } });
    const fetchArgs = ['prices', 'fetch', '--from', FROM, '--to', TO, '--config', 'payexport.json'];

    it('a closed port on every source (connection refused): 75, each source named unreachable', async () => {
      const fake = await serveFakePriceSources({ nowSec: now });
      const port = await closedPort();
      const cwd = ws.fresh('refused');
      writePricesConfig(cwd, fake, { sources: every(`http://127.0.0.1:${port}`) });
      const result = await runCli(fetchArgs, { cwd });
      expectExit(fetchArgs, result, 75, { message: /coinbase:1h failed \(unreachable: 127\.0\.0\.1:\d+: cannot reach 127\.0\.0\.1:\d+ \(connection refused\)\); bitstamp:1h failed \(unreachable: /, secrets: [] });
      expect(result.stderr).not.toMatch(/source_gone/);
    });

    it('a host whose name does not resolve (no network, DNS): 75, not a vanished source', async () => {
      const fake = await serveFakePriceSources({ nowSec: now });
      const cwd = ws.fresh('dns');
      // .invalid never resolves (RFC 2606)
      writePricesConfig(cwd, fake, { sources: every('http://payexport-no-such-host.invalid') });
      const result = await runCli(fetchArgs, { cwd });
      expectExit(fetchArgs, result, 75, { message: /unreachable: payexport-no-such-host\.invalid: cannot reach payexport-no-such-host\.invalid: its name does not resolve/ });
    });

    it('a source that never answers in time: 75', async () => {
      const fake = await serveFakePriceSources({ nowSec: now });
      fake.script('coinbase', 'hang', 'hang', 'hang', 'hang');
      const cwd = ws.fresh('timeout');
      writePricesConfig(cwd, fake, { requestTimeoutMs: 300 });
      const args = ['prices', 'fetch', '--source', 'coinbase', '--from', FROM, '--to', TO, '--config', 'payexport.json'];
      expectExit(args, await runCli(args, { cwd }), 75, { message: /unreachable: .*no answer in time/ });
    });

    it('a source that answers 410 Gone (a removed endpoint): 68', async () => {
      const fake = await serveFakePriceSources({ nowSec: now });
      const gone = createServer((_req, res) => {
        res.writeHead(410, { 'content-type': 'application/json' });
        res.end('{"message":"this endpoint was removed"}');
      });
      await new Promise<void>((resolve) => gone.listen(0, '127.0.0.1', resolve));
      onTestFinished(() => new Promise<void>((resolve) => gone.close(() => resolve())));
      const cwd = ws.fresh('gone-410');
      writePricesConfig(cwd, fake, { sources: { ...every(fake.baseUrl('kraken')), coinbase: { baseUrl: `http://127.0.0.1:${(gone.address() as { port: number }).port}` } } });
      const args = ['prices', 'fetch', '--source', 'coinbase', '--from', FROM, '--to', TO, '--config', 'payexport.json'];
      expectExit(args, await runCli(args, { cwd }), 68, { message: /source_gone: coinbase: HTTP 410/ });
    });
  });
});
