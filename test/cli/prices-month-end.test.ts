import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assertBuilt, describeRun, runCli, splitStderr } from '../support/cli/cli.js';
import { workspace } from '../support/cli/workspace.js';
import { beanCheck, hledgerCheck, ledgerToolsMissing } from '../support/journal/ledger-tools.js';
import { serveFakePriceSources } from '../support/prices/fake-price-sources.js';
import { readCsvWithPython, readersMissing } from '../support/readers/readers.js';

/**
 * The "done when", end to end: the demo's journal config WITHOUT its BTC price file, the
 * price cache pointed at the local fake sources. The user fetches November's closes with
 * `payexport prices fetch`; the demo's month-end (October) fetches its own window first
 * (`prices.autoFetch`). Every BTC line is valued — by the payment's quote or by the cache, whose
 * file `rate_source` names — no `journal.needs_price`, and the ledgers check clean.
 */
const ws = workspace('prices-month-end');
const DEMO = JSON.parse(readFileSync(join(import.meta.dirname, '../../config/demo.json'), 'utf8')) as Record<string, unknown> & {
  journal: { prices: Array<{ currency: string; file: string }> };
  lots: Record<string, unknown> & { openingLots: string };
};

beforeAll(() => assertBuilt());
afterAll(() => ws.remove());

describe('month-end on the demo with the price cache and no BTC price file', () => {
  it('values every BTC line from the quote or the cache, with no journal.needs_price', { timeout: 360_000 }, async () => {
    const fake = await serveFakePriceSources({ nowSec: () => Math.floor(Date.now() / 1000) });
    const cwd = ws.fresh('demo');
    const prices = DEMO.journal.prices
      .filter((p) => p.currency !== 'btc')
      .map((p) => ({ ...p, file: join(import.meta.dirname, '../../config', p.file) }));
    expect(prices.some((p) => p.currency === 'btc')).toBe(false);
    const config = {
      ...DEMO,
      journal: { ...DEMO.journal, prices },
      // the subledger's opening-lots file stays the demo's own (the config is written elsewhere)
      lots: { ...DEMO.lots, openingLots: join(import.meta.dirname, '../../config', DEMO.lots.openingLots) },
      prices: {
        cacheDir: 'prices',
        autoFetch: true,
        policy: { 'BTC-USD': { sources: ['coinbase:1h', 'bitstamp:1h'] } },
        sources: { coinbase: { baseUrl: fake.baseUrl('coinbase') }, bitstamp: { baseUrl: fake.baseUrl('bitstamp') } },
      },
    };
    writeFileSync(join(cwd, 'demo.json'), JSON.stringify(config, null, 2));

    // What a user fetches by hand: the history before October that the lots value (the demo's data
    // starts in August 2026: every receive's cost, every send's proceeds) and November so far, for
    // the demo's export. October is left to the month-end, which fetches its own window
    // (`prices.autoFetch`; only nightly and month-end fetch by themselves).
    for (const [from, to] of [['2026-08-01', '2026-09-30'], ['2026-11-01', '2026-11-22']] as const) {
      const fetchArgs = ['prices', 'fetch', '--currency', 'BTC', '--books', 'USD', '--from', from, '--to', to, '--config', 'demo.json'];
      const fetched = await runCli(fetchArgs, { cwd });
      expect(fetched.code, describeRun(fetchArgs, fetched)).toBe(0);
    }
    expect(fake.requests('coinbase').length).toBeGreaterThan(0);
    const asked = fake.requests('coinbase').length;

    // the demo's own organization (no --scale): its opening-lots file gives the basis of exactly
    // those wallets, so the month-end closes with lots valued from the cache too (exit 0: they tie)
    const args = ['demo', '--config', join(cwd, 'demo.json')];
    const result = await runCli(args, { cwd });
    const context = describeRun(args, result);
    expect(result.code, context).toBe(0);
    expect(splitStderr(result.stderr).plain, context).toEqual([]);
    // the month-end asked the sources for October before it valued anything
    expect(fake.requests('coinbase').length).toBeGreaterThan(asked);
    expect(readFileSync(join(cwd, 'prices/closed-through'), 'utf8').trim()).toBe('2026-11-01T04:00:00.000000Z');

    // the demo's config writes under its own root, reports/demo
    for (const folder of ['reports/demo/month-end/2026-10', 'reports/demo/export/2026-11-01_2026-11-21']) {
      const dir = join(cwd, folder);
      const exceptions = readFileSync(join(dir, 'exceptions.csv'), 'utf8');
      expect(exceptions).not.toContain('journal.needs_price');
      expect(exceptions).not.toContain('journal.price_fetch_failed');
      if (readersMissing('csv') === null) {
        const journal = readCsvWithPython(join(dir, 'journal.csv'));
        const col = (name: string): number => journal.header.indexOf(name);
        const btc = journal.rows.filter((r) => r[col('source_currency')] === 'btc');
        expect(btc.length, folder).toBeGreaterThan(0);
        const sources = new Set(btc.map((r) => r[col('rate_source')]));
        expect(sources.has('price_cache:coinbase:1h'), `${folder}: ${[...sources].join(', ')}`).toBe(true);
        for (const source of sources) expect(['payment_quote', 'price_cache:coinbase:1h']).toContain(source);
        for (const row of btc) expect(row[col('needs_price')], folder).toBe('false');
      }
      if (ledgerToolsMissing() === null) {
        const bean = beanCheck(join(dir, 'journal.beancount'));
        expect(bean.code, bean.stderr + bean.stdout).toBe(0);
        const hledger = hledgerCheck(join(dir, 'journal.hledger'));
        expect(hledger.code, hledger.stderr).toBe(0);
      }
    }
  });
});
