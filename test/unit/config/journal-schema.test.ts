import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../../src/config/load.js';
import { journalSetup } from '../../../src/journal/journal-setup.js';
import { AppError } from '../../../src/util/errors.js';
import { JOURNAL_INPUT } from '../../support/journal/build-context.js';

function loadWith(journal: unknown): ReturnType<typeof loadConfig> {
  const dir = mkdtempSync(join(tmpdir(), 'payexport-journal-config-'));
  const file = join(dir, 'payexport.json');
  writeFileSync(file, JSON.stringify({ journal }));
  return loadConfig({ flags: { config: file }, env: {}, cwd: dir });
}

function failure(journal: unknown): AppError {
  try {
    loadWith(journal);
  } catch (error) {
    if (error instanceof AppError) return error;
    throw error;
  }
  throw new Error('expected an AppError');
}

describe('the journal config section', () => {
  it('fills the documented defaults', () => {
    const { config } = loadWith(JOURNAL_INPUT);
    expect(config.journal).toMatchObject({ booksCurrency: 'USD', minorUnits: 2, entryMode: 'per-payment', rounding: 'half_even', roundingStrategy: 'allocate', numberPrefix: 'PX-', formats: ['beancount', 'hledger', 'csv', 'qbo', 'xero'], prices: [] });
  });

  it.each([
    ['an unknown key in the section', { ...JOURNAL_INPUT, currency: 'USD' }, /unknown configuration key 'journal\.currency'/],
    ['an unknown key in an account', { ...JOURNAL_INPUT, accounts: { ...JOURNAL_INPUT.accounts, sales: { ledger: 'Income:Sales', xero: '4000', netsuite: 'x' } } }, /unknown configuration key 'journal\.accounts\.sales\.netsuite'/],
    ['an unknown key in a rule match', { ...JOURNAL_INPUT, rules: [{ name: 'r', match: { tenant: 'x' }, counter: 'sales' }] }, /unknown configuration key 'journal\.rules\[0\]\.match\.tenant'/],
  ])('refuses %s (exit 78)', (_label, journal, message) => {
    const error = failure(journal);
    expect(error.exitCode).toBe(78);
    expect(error.message).toMatch(message);
  });

  it.each([
    ['a wallet mapped to an undeclared account', { ...JOURNAL_INPUT, wallets: { 'aaaaaaaa-0000-4000-8000-000000000001': 'nope' } }, /journal\.wallets\.aaaaaaaa-0000-4000-8000-000000000001.*unknown account key 'nope'/],
    ['a rule with an undeclared counter account', { ...JOURNAL_INPUT, rules: [{ name: 'r', match: {}, counter: 'nope' }] }, /journal\.rules\[0\]\.counter.*unknown account key 'nope'/],
    ['a rule with a bad regular expression', { ...JOURNAL_INPUT, rules: [{ name: 'r', match: { memo: '(' }, counter: 'sales' }] }, /not a regular expression/],
    ['an account without its Xero code while the xero format is on', { ...JOURNAL_INPUT, accounts: { ...JOURNAL_INPUT.accounts, sales: { ledger: 'Income:Sales' } } }, /journal\.accounts\.sales\.xero.*Xero code/],
    ['a ledger account outside the five roots', { ...JOURNAL_INPUT, accounts: { ...JOURNAL_INPUT.accounts, sales: { ledger: 'Revenue:Sales', xero: '4000' } } }, /journal\.accounts\.sales\.ledger/],
    ['a number prefix that would pass QuickBooks’ 21 characters', { ...JOURNAL_INPUT, numberPrefix: 'PAYEXPORT-1' }, /journal\.numberPrefix/],
  ])('refuses %s (exit 78)', (_label, journal, message) => {
    const error = failure(journal);
    expect(error.exitCode).toBe(78);
    expect(error.message).toMatch(message);
  });

  it('loads the shipped demo mapping and its price files from any working directory', () => {
    const demo = fileURLToPath(new URL('../../../config/demo.json', import.meta.url));
    const elsewhere = mkdtempSync(join(tmpdir(), 'payexport-journal-cwd-'));
    const loaded = loadConfig({ flags: { config: demo }, env: {}, cwd: elsewhere });
    const setup = journalSetup(loaded.config, loaded.configFile, elsewhere, true);
    expect(setup?.periodEnd).toBe(true);
    expect([...(setup?.prices.keys() ?? [])]).toEqual(['btc', expect.stringMatching(/^asset:/)]);
    expect(setup?.prices.get('btc')?.at('2026-10-15T00:00:00.000000Z')).not.toBeNull();
  });

  it('stops with exit 78 when a price file cannot be read', () => {
    const { config, configFile } = loadWith({ ...JOURNAL_INPUT, prices: [{ currency: 'btc', file: 'missing.csv' }] });
    try {
      journalSetup(config, configFile, '/', false);
      expect.unreachable();
    } catch (error) {
      expect((error as AppError).exitCode).toBe(78);
      expect((error as AppError).message).toBe("cannot read price file 'missing.csv': ENOENT");
    }
  });
});
