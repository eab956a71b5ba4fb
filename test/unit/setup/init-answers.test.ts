import { describe, expect, it } from 'vitest';
import { journalSchema } from '../../../src/config/journal-schema.js';
import { lotsSchema } from '../../../src/config/lots-schema.js';
import { pricesSchema } from '../../../src/config/prices-schema.js';
import type { WalletRow } from '../../../src/model/rows.js';
import { defaultDataDir, defaultOutRoot } from '../../../src/setup/account-folders.js';
import { booksSections } from '../../../src/setup/books-template.js';
import { checkEnvironmentName, describeEnvironments, proposeEnvironments } from '../../../src/setup/environment-names.js';
import { defaultKeyFile, userConfigDir } from '../../../src/setup/key-location.js';
import { parseService } from '../../../src/setup/service-answer.js';
import { AppError } from '../../../src/util/errors.js';

/**
 * The answers `init` turns into config: the service named or given as a URL, environments named
 * and kinded from what the service gives (it names none), the key's default place outside any
 * checkout, the account's own folders, and a books template that the config schemas accept with
 * every wallet mapped.
 */

function wallet(id: string, name: string, environment: string, currency: string, network = 'mainnet', active = true): WalletRow {
  return {
    wallet_id: id,
    organization_id: 'bedd7c8d-cd3f-482c-a379-0efce67ab08d',
    environment_id: environment,
    name,
    active,
    network,
    line_of_credit_id: null,
    limit_base: null,
    created_at: '2026-07-01T00:00:00.000000Z',
    updated_at: '2026-07-01T00:00:00.000000Z',
    deleted_at: null,
    metadata: null,
    fee_policy: null,
    flags: [],
    raw: null,
    balances: [{ currency, unit: currency === 'usd' ? 'cents' : 'msats', available_base: 0n, total_base: 0n, effective_time: '2026-11-01T00:00:00.000000Z' }],
  } as WalletRow;
}

const ENV_A = 'aaaaaaaa-0000-4000-8000-000000000001';
const ENV_B = 'bbbbbbbb-0000-4000-8000-000000000002';
const id = (n: number): string => `${String(n).padStart(8, 'a')}-0000-4000-8000-000000000000`;

describe('the service answer', () => {
  it.each([
    ['production', 'https://voltageapi.com/v1', 'production'],
    ['Staging', 'https://staging.voltageapi.com/v1', 'staging'],
    ['http://127.0.0.1:4010/v1/', 'http://127.0.0.1:4010/v1', null],
    ['https://voltageapi.com/v1', 'https://voltageapi.com/v1', 'production'],
  ] as const)('%s → %s (%s)', (answer, baseUrl, kind) => {
    expect(parseService(answer, 'the service you typed')).toEqual({ baseUrl, kind });
  });

  it('refuses a word that is no service and the real service over plain http, naming the answer', () => {
    expect(() => parseService('prod', 'the service you typed')).toThrow(/^the service you typed 'prod' is neither production, staging nor a URL/);
    expect(() => parseService('http://voltageapi.com/v1', '--base-url')).toThrow(/^--base-url 'http:\/\/voltageapi\.com\/v1': the production service is reached over https only/);
  });
});

describe('environments by name and kind', () => {
  it('the kind from the service, else from the wallets\' networks; names numbered when a kind repeats', () => {
    const wallets = [wallet(id(1), 'Main', ENV_A, 'btc'), wallet(id(2), 'Test', ENV_B, 'btc', 'signet')];
    expect(proposeEnvironments([ENV_A, ENV_B], wallets, null).map((e) => [e.name, e.kind])).toEqual([['production', 'production'], ['staging', 'staging']]);
    expect(proposeEnvironments([ENV_A, ENV_B], wallets, 'production').map((e) => [e.name, e.kind])).toEqual([['production', 'production'], ['production 2', 'production']]);
    const mixed = [wallet(id(3), 'X', ENV_A, 'btc', 'none')];
    expect(proposeEnvironments([ENV_A], mixed, null).map((e) => [e.name, e.kind])).toEqual([['environment', null]]);
  });

  it('shows each with its name, kind and networks, then its wallets', () => {
    const wallets = [wallet(id(1), 'Main BTC node', ENV_A, 'btc'), wallet(id(2), 'Old', ENV_A, 'btc', 'mainnet', false)];
    const [environment] = proposeEnvironments([ENV_A], wallets, 'production');
    environment!.name = 'Payments';
    const lines = describeEnvironments([environment!]);
    expect(lines[0]).toBe(`  Payments (production, mainnet wallets) — environment ${ENV_A}: 2 wallet(s), 1 inactive`);
    expect(lines[2]).toMatch(/Old +aaaaaaa2-0000-4000-8000-000000000000 +btc {2}\(inactive\)$/);
  });

  it('a typed name: printable, 1 to 60 characters', () => {
    expect(checkEnvironmentName('  Payments ')).toBe('Payments');
    for (const bad of ['', 'x'.repeat(61), 'a\u0007b']) expect(() => checkEnvironmentName(bad)).toThrow(AppError);
  });
});

describe("the key's place and the account's folders", () => {
  it('the user config folder, XDG first; named for the organization', () => {
    expect(userConfigDir({ HOME: '/home/books' })).toBe('/home/books/.config/payexport');
    expect(userConfigDir({ HOME: '/home/books', XDG_CONFIG_HOME: '/etc/xdg-books' })).toBe('/etc/xdg-books/payexport');
    // a relative XDG_CONFIG_HOME is ignored, as the spec says
    expect(userConfigDir({ HOME: '/home/books', XDG_CONFIG_HOME: 'rel' })).toBe('/home/books/.config/payexport');
    expect(defaultKeyFile({ HOME: '/home/books' }, 'BEDD7C8D-cd3f-482c-a379-0efce67ab08d')).toBe('/home/books/.config/payexport/org-BEDD7C8D.api-key');
  });

  it("reports and data under folders of the organization's own, never the demo's", () => {
    expect(defaultOutRoot('bedd7c8d-cd3f-482c-a379-0efce67ab08d')).toBe('reports/org-bedd7c8d');
    expect(defaultDataDir('bedd7c8d-cd3f-482c-a379-0efce67ab08d')).toBe('data/org-bedd7c8d');
  });
});

describe('the books template', () => {
  const wallets = [
    wallet(id(1), 'Main BTC node', ENV_A, 'btc'),
    wallet(id(2), 'Main BTC node', ENV_B, 'btc'),
    wallet(id(3), 'USD treasury', ENV_A, 'usd'),
    wallet(id(4), '💰 2026', ENV_A, 'asset:02aa', 'mainnet', false),
    wallet(id(5), '', ENV_A, 'btc'),
  ];
  const sections = booksSections(wallets, { booksCurrency: 'USD', openingLotsFile: 'opening-lots.csv' });

  it('loads as the jobs load it: journal, lots and prices schemas accept it', () => {
    expect(journalSchema.safeParse(sections.journal).success).toBe(true);
    expect(lotsSchema.parse(sections.lots)).toMatchObject({ wallets: {}, openingLots: 'opening-lots.csv' });
    expect(pricesSchema.parse(sections.prices).autoFetch).toBe(true);
  });

  it('maps every wallet, inactive and unnamed ones too, each to an asset account of its own', () => {
    const journal = sections.journal as { wallets: Record<string, string>; accounts: Record<string, { ledger: string }> };
    expect(Object.keys(journal.wallets).sort()).toEqual(wallets.map((w) => w.wallet_id).sort());
    const keys = Object.values(journal.wallets);
    expect(new Set(keys).size).toBe(keys.length);
    const ledgers = keys.map((k) => journal.accounts[k]!.ledger);
    expect(new Set(ledgers).size).toBe(ledgers.length);
    expect(ledgers).toEqual(['Assets:Crypto:MainBtcNode', 'Assets:Crypto:MainBtcNode2', 'Assets:Cash:UsdTreasury', 'Assets:Crypto:2026', 'Assets:Crypto:WalletAAAAAAA5']);
  });
});
