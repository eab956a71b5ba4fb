import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assertBuilt, describeRun, runCli } from '../support/cli/cli.js';
import { expectNoSecrets } from '../support/cli/secrets.js';
import { PLANTED_KEYS, PLANTED_SECRETS, startTestSim, type TestSim } from '../support/cli/sim.js';
import { workspace } from '../support/cli/workspace.js';
import { serveFakePriceSources } from '../support/prices/fake-price-sources.js';
import { readCsvWithPython, readersMissing, readXlsxWithOpenpyxl, sheetNamed } from '../support/readers/readers.js';

/**
 * The books step of `payexport init` (flag mode, against the simulator): the journal section maps
 * every wallet the key sees to an asset account, lots are first-in first-out from an opening-lots
 * template whose rows are each BTC or asset wallet's balance at its first event (checked against
 * the service's own ledger, read here independently), and prices are fetched. Then the commands
 * init prints — the one-time price fetch and the first month-end, run as printed — produce the
 * Journal, Lots and Crypto assets sheets, read back by openpyxl.
 *
 * The only change made to what init wrote: the price sources' base URLs point at the local fake
 * sources (tests reach no public service).
 */

const ws = workspace('init-books');
let sim: TestSim;
const readers = readersMissing('both');

beforeAll(async () => {
  assertBuilt();
  sim = await startTestSim();
});

afterAll(async () => {
  await sim?.close();
  ws.remove();
});

interface WireEvent {
  type: string;
  deposit_id?: string;
  amount?: { currency: string; amount: number | string };
  effective_time: string;
}

/** The first ledger event that moves each wallet's balance, as the service lists it. */
async function firstMoves(walletId: string): Promise<WireEvent | undefined> {
  const url = `${sim.sim.baseUrl}/organizations/${sim.sim.organizationId}/wallets/${walletId}/ledger?sort_key=effective_time&sort_order=ASC&limit=50&offset=0`;
  const response = await fetch(url, { headers: { 'X-Api-Key': PLANTED_KEYS[0] } });
  expect(response.status).toBe(200);
  const body = (await response.json()) as { items: WireEvent[] };
  return body.items.find((e) => e.type !== 'held' && e.type !== 'released');
}

describe.skipIf(readers !== null)('payexport init: the books step, then the first month-end as printed', () => {
  it('journal (every wallet mapped), fifo lots from an opening-lots template of each wallet\'s first deposit, prices fetched; the month-end writes the Journal, Lots and Crypto assets sheets', { timeout: 240_000 }, async () => {
    const cwd = ws.fresh('books');
    // mid-November: init proposes October, the last complete month, whatever day the suite runs
    const env = { PAYEXPORT_API_KEY: PLANTED_KEYS[0], PAYEXPORT_NOW: '2026-11-15T12:00:00Z' };
    const args = ['init', '--yes', '--base-url', sim.sim.baseUrl, '--organization', sim.sim.organizationId, '--tz', 'America/New_York', '--books-currency', 'usd'];
    const init = await runCli(args, { cwd, env });
    expect(init.code, describeRun(args, init)).toBe(0);

    const configPath = join(cwd, 'config', 'payexport.json');
    const config = JSON.parse(readFileSync(configPath, 'utf8')) as {
      journal: { booksCurrency: string; accounts: Record<string, { ledger: string }>; wallets: Record<string, string>; formats: string[] };
      lots: { openingLots: string; wallets?: unknown };
      prices: { autoFetch: boolean; sources?: unknown; retry?: unknown };
    };
    const environment = sim.sim.environments[0]!.id;
    const wallets = sim.sim.wallets.filter((w) => w.environmentId === environment);
    expect(config.journal.booksCurrency).toBe('USD');
    expect(config.journal.formats).toContain('csv');
    // every wallet mapped (inactive ones too), each to an asset account of its own
    expect(Object.keys(config.journal.wallets).sort()).toEqual(wallets.map((w) => w.id).sort());
    const accounts = Object.values(config.journal.wallets);
    expect(new Set(accounts).size).toBe(accounts.length);
    for (const key of accounts) expect(config.journal.accounts[key]!.ledger).toMatch(/^Assets:(Crypto|Cash):[A-Z0-9][A-Za-z0-9-]*$/);
    expect(config.lots).toEqual({ openingLots: 'opening-lots.csv' });
    expect(config.prices).toEqual({ autoFetch: true });

    // the template: one row per BTC or asset wallet whose history starts with a deposit, as the service's ledger says
    const template = readCsvWithPython(join(cwd, 'config', 'opening-lots.csv'));
    expect(template.header).toEqual(['wallet_id', 'currency', 'acquired_at', 'units_base', 'cost', 'ref']);
    const expected: string[][] = [];
    for (const wallet of wallets.filter((w) => w.currency !== 'usd')) {
      const first = await firstMoves(wallet.id);
      if (first?.type !== 'deposited') continue;
      expected.push([wallet.id, first.amount!.currency, first.effective_time, String(first.amount!.amount), 'unknown', `deposited:${first.deposit_id}`]);
    }
    expect(expected.length).toBeGreaterThan(0);
    const normalized = template.rows.map((r) => [r[0]!, r[1]!, r[2]!.replace(/\.000000Z$/, 'Z'), r[3]!, r[4]!, r[5]!]);
    expect(normalized.sort()).toEqual(expected.map((r) => [r[0]!, r[1]!, r[2]!.replace(/(\.\d+)?Z$/, 'Z'), r[3]!, r[4]!, r[5]!]).sort());

    // the price sources: local fakes instead of the public ones
    const fake = await serveFakePriceSources({ nowSec: () => Math.floor(Date.parse(env.PAYEXPORT_NOW) / 1000) });
    const sources = { coinbase: { baseUrl: fake.baseUrl('coinbase') }, kraken: { baseUrl: fake.baseUrl('kraken') }, bitstamp: { baseUrl: fake.baseUrl('bitstamp') }, coingecko: { baseUrl: fake.baseUrl('coingecko') } };
    writeFileSync(configPath, JSON.stringify({ ...config, prices: { ...config.prices, sources } }, null, 2));

    // the commands init printed, run as printed
    const printed = (step: number): string[] => {
      const line = init.stdout.split('\n').find((l) => l.startsWith(`  ${step}. payexport `));
      expect(line, init.stdout).toBeDefined();
      return line!.replace(`  ${step}. payexport `, '').split(' ');
    };
    const fetch = printed(0);
    expect(fetch.slice(0, 6)).toEqual(['prices', 'fetch', '--currency', 'BTC', '--books', 'USD']);
    const fetched = await runCli(fetch, { cwd, env });
    expect(fetched.code, describeRun(fetch, fetched)).toBe(0);
    const monthEnd = printed(2);
    expect(monthEnd).toEqual(['month-end', '--month', '2026-10']);
    const run = await runCli([...monthEnd, '--quiet'], { cwd, env });
    // 65: the opening lots' cost is `unknown` until the accountant writes it (and open payments keep the month open)
    expect(run.code, describeRun(monthEnd, run)).toBe(65);
    const folder = join(cwd, 'reports', `org-${sim.sim.organizationId.slice(0, 8)}`, 'month-end', '2026-10');
    const exceptions = readCsvWithPython(join(folder, 'exceptions.csv'));
    const basisUnknown = exceptions.rows.filter((r) => r[0] === 'lots.basis_unknown');
    expect(basisUnknown.length).toBeGreaterThan(0);
    // BTC is priced: no BTC movement needs a price
    expect(exceptions.rows.filter((r) => r[0] === 'journal.needs_price' && r.includes('btc'))).toEqual([]);

    const sheets = readXlsxWithOpenpyxl(join(folder, 'report.xlsx'), { cells: true });
    const journal = sheetNamed(sheets, 'Journal');
    const lots = sheetNamed(sheets, 'Lots');
    const crypto = sheetNamed(sheets, 'Crypto assets');
    expect(journal.max_row).toBeGreaterThan(10);
    expect(lots.max_row).toBeGreaterThan(1);
    const cryptoCurrencies = crypto.rows!.slice(1).map((row) => row[0]?.v).filter((v) => v !== null && v !== undefined && v !== '');
    expect(cryptoCurrencies.length, JSON.stringify(crypto.rows?.slice(0, 4))).toBeGreaterThanOrEqual(1);
    // the journal's accounts are the template's, by their ledger names
    const journalText = JSON.stringify(journal.rows);
    for (const key of accounts) expect(journalText).toContain(config.journal.accounts[key]!.ledger);
    expectNoSecrets(PLANTED_SECRETS, { texts: [init.stdout, run.stdout, run.stderr], dirs: [join(cwd, 'config'), folder] });
  });
});
