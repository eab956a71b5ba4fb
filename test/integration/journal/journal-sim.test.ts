/**
 * End to end with the shipped demo mapping (config/demo.json `journal`): the real pipeline
 * against the simulator writes the journal files, and software that did not write them reads them
 * back — bean-check and hledger accept the ledgers and hledger's balances equal our figures
 * (wallet accounts = the balance roll-forward, fee accounts = the journal's fee lines, whose
 * source amounts tie to fees.csv); Python's csv module reads the QuickBooks and Xero files, which
 * keep their documented columns and rules; openpyxl finds the Journal sheet.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { JournalConfig } from '../../../src/config/journal-schema.js';
import { JOB_FLAGS } from '../../../src/jobs/pipeline-spec.js';
import type { PipelineSpec } from '../../../src/jobs/pipeline.js';
import { startSimulator, type SimHandle } from '../../../src/sim/index.js';
import { monthPeriod } from '../../../src/model/period.js';
import { ledgerToolsMissing, beanCheck, hledgerBalances, hledgerCheck, scaled } from '../../support/journal/ledger-tools.js';
import { readCsvWithPython, readersMissing, readXlsxWithOpenpyxl, type PythonCsv } from '../../support/readers/readers.js';
import { runAgainstSimulator, type PipelineRun } from '../../support/pipeline/run-pipeline.js';

const CONFIG_DIR = new URL('../../../config/', import.meta.url);
const demo = JSON.parse(readFileSync(new URL('demo.json', CONFIG_DIR), 'utf8')) as { journal: JournalConfig };
/** The demo mapping with its price files found from here (a config given as flags resolves paths from the working folder). */
const mapping = (over: Partial<JournalConfig> = {}): JournalConfig => ({
  ...demo.journal,
  prices: demo.journal.prices.map((p) => ({ ...p, file: new URL(p.file, CONFIG_DIR).pathname })),
  ...over,
});

const TZ = 'America/New_York';
const spec = (): PipelineSpec => ({ command: 'month-end', job: 'month-end', ...JOB_FLAGS['month-end'], period: monthPeriod('2026-10', TZ, new Date()), pull: true, incremental: false, closePeriod: false, allowOpen: true, dryRun: false });

const skip = ledgerToolsMissing() ?? readersMissing('both');

interface Case {
  label: string;
  journal: Partial<JournalConfig>;
}
const CASES: Case[] = [
  { label: 'per payment, largest remainder', journal: {} },
  { label: 'per day and wallet, a rounding line, half_up', journal: { entryMode: 'per-day-wallet', roundingStrategy: 'rounding-line', rounding: 'half_up' } },
];

describe.skipIf(skip !== null)(`journal files against the simulator${skip ? ` (skipped: ${skip})` : ''}`, () => {
  let sim: SimHandle;
  beforeAll(async () => {
    sim = await startSimulator({ seed: 7, scale: 1_200, wallets: 12 });
  });
  afterAll(async () => {
    await sim?.close();
  });

  describe.each(CASES)('$label', (c) => {
    let run: PipelineRun;
    let journalCsv: Array<Record<string, string>>;
    beforeAll(async () => {
      run = await runAgainstSimulator({ sim, spec: spec(), tz: TZ, flags: { db: false, formats: ['csv', 'xlsx'], journal: mapping(c.journal) } });
      journalCsv = await run.csv('journal.csv');
    }, 240_000);
    afterAll(async () => {
      await run?.cleanup();
    });

    it('exits 0 with every journal check run and clean, and lists the files in the manifest', async () => {
      const manifest = await run.manifest();
      const errors = (await run.csv('exceptions.csv')).filter((f) => f['severity'] === 'error');
      expect(errors).toEqual([]);
      expect(run.outcome.exitCode).toBe(0);
      for (const id of ['journal.wallet_unmapped', 'journal.needs_price', 'journal.unbalanced', 'journal.unposted', 'journal.wallet_tieout', 'journal.fee_tieout']) {
        const check = manifest.checks.find((k) => k.check_id === id);
        expect(check, id).toMatchObject({ passed: true, skipped_reason: null });
        expect(check?.evaluated, id).toBeGreaterThan(0);
      }
      const files = (manifest as unknown as { files: Array<{ path: string }> }).files.map((f) => f.path);
      expect(files).toEqual(expect.arrayContaining(['journal.csv', 'journal.beancount', 'journal.hledger', 'journal-qbo.csv', 'journal-xero.csv']));
      expect(journalCsv.length).toBeGreaterThan(100);
      expect(journalCsv.every((l) => l['needs_price'] === 'false')).toBe(true);
      // USD wallets are native; the simulator quotes only cross-currency payments of USD wallets, so every
      // BTC and USDT movement is valued from the price files (the quote path: test/unit/journal)
      expect(new Set(journalCsv.map((l) => l['rate_source']))).toEqual(new Set(['native', 'price_file']));
    });

    it('bean-check accepts the Beancount file', () => {
      const r = beanCheck(join(run.dir, 'journal.beancount'));
      expect(r.stderr + r.stdout).toBe('');
      expect(r.code).toBe(0);
    });

    it('hledger checks the journal, and its balances equal the roll-forward and our fee lines', async () => {
      const path = join(run.dir, 'journal.hledger');
      const check = hledgerCheck(path);
      expect(check.code, check.stderr).toBe(0);
      const hledger = hledgerBalances(path);
      const ledgerOf = (key: string): string => demo.journal.accounts[key]!.ledger;

      // wallet asset accounts: Σ over the wallets mapped to the account of (credits − debits) in balances.csv
      const expected = new Map<string, Map<string, bigint>>();
      for (const b of await run.csv('balances.csv')) {
        const key = demo.journal.wallets[b['wallet_id']!];
        if (key === undefined) continue;
        const commodity = b['currency'] === 'btc' ? 'SATS' : b['currency'] === 'usd' ? 'USD' : 'USDT';
        const perCommodity = expected.get(ledgerOf(key)) ?? new Map<string, bigint>();
        perCommodity.set(commodity, (perCommodity.get(commodity) ?? 0n) + BigInt(b['credits_base']!) - BigInt(b['debits_base']!));
        expected.set(ledgerOf(key), perCommodity);
      }
      const scale: Record<string, number> = { SATS: 3, USD: 2, USDT: 6 };
      for (const [account, amounts] of expected) {
        for (const [commodity, base] of amounts) {
          const shown = hledger.get(account)?.get(commodity) ?? '0';
          expect({ account, commodity, base: scaled(shown, scale[commodity]!) }).toEqual({ account, commodity, base });
        }
      }

      // fee accounts: hledger's USD = Σ of our journal.csv fee lines
      for (const key of [demo.journal.fees.network, demo.journal.fees.processing]) {
        const account = ledgerOf(key);
        const ours = journalCsv.filter((l) => l['account'] === account).reduce((s, l) => s + scaled(l['debit'] || '0', 2) - scaled(l['credit'] || '0', 2), 0n);
        expect(ours).toBeGreaterThan(0n);
        expect(scaled(hledger.get(account)?.get('USD') ?? '0', 2)).toBe(ours);
      }
    });

    it("the journal's fee lines tie to fees.csv, recomputed from the files alone", async () => {
      const payments = new Map((await run.csv('payments.csv')).map((p) => [p['payment_id']!, p]));
      const journaled = new Set(journalCsv.map((l) => l['payment_id']));
      const sums = new Map<string, bigint>();
      const add = (key: string, v: bigint): void => void sums.set(key, (sums.get(key) ?? 0n) + v);
      for (const l of journalCsv) {
        const p = payments.get(l['payment_id'] ?? '');
        // fees.csv counts completed sends created in the window
        if (p === undefined || p['direction'] !== 'send' || p['status_class'] !== 'completed') continue;
        if (l['component'] === 'network_fee') add(`${p['wallet_id']}|${p['currency']}|network`, BigInt(l['source_amount_base']!));
        if (l['component'] === 'processing_fee') add(`${p['wallet_id']}|${p['currency']}|processing`, BigInt(l['source_amount_base']!));
      }
      for (const p of payments.values()) {
        if (journaled.has(p['payment_id']) || p['direction'] !== 'send' || p['status_class'] !== 'completed') continue;
        add(`${p['wallet_id']}|${p['currency']}|network`, BigInt(p['network_fee_base'] || '0'));
        add(`${p['wallet_id']}|${p['currency']}|processing`, BigInt(p['processing_fee_base'] || '0'));
      }
      const fees = new Map<string, bigint>();
      for (const f of await run.csv('fees.csv')) {
        if (f['direction'] !== 'send') continue;
        for (const [component, column] of [['network', 'network_fee_base'], ['processing', 'processing_fee_base']] as const) {
          const key = `${f['wallet_id']}|${f['currency']}|${component}`;
          fees.set(key, (fees.get(key) ?? 0n) + BigInt(f[column]!));
        }
      }
      const nonZero = (m: Map<string, bigint>): Array<[string, bigint]> => [...m].filter(([, v]) => v !== 0n).sort();
      expect(nonZero(sums)).toEqual(nonZero(fees));
      expect(nonZero(fees).length).toBeGreaterThan(0);
    });

    it('the QuickBooks Online CSV keeps its documented columns: Journal No. ≤ 21, one date per entry, positive debits or credits that balance', () => {
      const qbo: PythonCsv = readCsvWithPython(join(run.dir, 'journal-qbo.csv'));
      expect(qbo.header).toEqual(['Journal No.', 'Journal Date', 'Account Name', 'Debits', 'Credits', 'Description', 'Name']);
      expect(qbo.records).toBeGreaterThan(0);
      const entries = new Map<string, { dates: Set<string>; net: bigint }>();
      for (const [no, date, account, debit, credit] of qbo.rows as Array<[string, string, string, string, string]>) {
        expect(no.length).toBeLessThanOrEqual(21);
        expect(date).toMatch(/^(0[1-9]|1[0-2])\/(0[1-9]|[12]\d|3[01])\/2026$/);
        expect(account.trim()).toBe(account);
        expect((debit === '') !== (credit === ''), `${no}: exactly one of Debits/Credits`).toBe(true);
        const amount = scaled(debit || credit, 2);
        expect(amount).toBeGreaterThan(0n);
        const e = entries.get(no) ?? { dates: new Set<string>(), net: 0n };
        e.dates.add(date);
        e.net += debit ? amount : -amount;
        entries.set(no, e);
      }
      for (const [no, e] of entries) {
        expect(e.dates.size, no).toBe(1);
        expect(e.net, no).toBe(0n);
      }
    });

    it("the Xero CSV keeps the template's columns, one journal per Narration and Date, positive = debit, each journal netting to zero", () => {
      const xero = readCsvWithPython(join(run.dir, 'journal-xero.csv'));
      expect(xero.header).toEqual(['*Narration', '*Date', 'Description', '*AccountCode', '*TaxRate', '*Amount', 'TrackingName1', 'TrackingOption1', 'TrackingName2', 'TrackingOption2']);
      const journals = new Map<string, bigint>();
      const debitsByEntry = new Map<string, bigint>();
      for (const [narration, date, , code, tax, amount] of xero.rows as Array<[string, string, string, string, string, string]>) {
        expect(date).toMatch(/^\d{2} (Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) \d{4}$/);
        expect(code).toMatch(/^\d{4}$/);
        expect(tax).toBe('Tax Exempt');
        const value = scaled(amount, 2);
        expect(value).not.toBe(0n);
        const key = `${narration}|${date}`;
        journals.set(key, (journals.get(key) ?? 0n) + value);
        const entryNo = narration.split(' ')[0]!;
        if (value > 0n) debitsByEntry.set(entryNo, (debitsByEntry.get(entryNo) ?? 0n) + value);
      }
      for (const [key, net] of journals) expect(net, key).toBe(0n);
      // one journal per entry number: the narration keeps same-day entries apart
      expect(journals.size).toBe(new Set([...journals.keys()].map((k) => k.split(' ')[0])).size);
      // the positive amounts are the entry's debits in the generic journal
      const ours = new Map<string, bigint>();
      for (const l of journalCsv) {
        const no = l['summary_entry_no'] || l['entry_no']!;
        if (l['debit']) ours.set(no, (ours.get(no) ?? 0n) + scaled(l['debit'], 2));
      }
      for (const [no, debits] of debitsByEntry) expect(debits, no).toBe(ours.get(no));
    });

    it('report.xlsx has the Journal sheet with every line of journal.csv: dates as date cells, rates and amounts as numbers', () => {
      const sheets = readXlsxWithOpenpyxl(join(run.dir, 'report.xlsx'), { maxRows: 1 });
      const journal = sheets.find((s) => s.name === 'Journal');
      expect(journal?.max_row).toBe(journalCsv.length + 1);
      const [header, ...rows] = readXlsxWithOpenpyxl(join(run.dir, 'report.xlsx'), { cells: true, maxRows: 40, sheets: ['Journal'] })[0]?.rows ?? [];
      const at = (name: string): number => (header ?? []).findIndex((c) => c.v === name);
      for (const [i, row] of rows.entries()) {
        expect({ i, date: row[at('entry_date')]?.t, fmt: row[at('entry_date')]?.fmt }).toEqual({ i, date: 'd', fmt: 'yyyy-mm-dd' });
        expect({ i, rate: row[at('rate')]?.t, unit: row[at('rate_unit')]?.v }).toEqual({ i, rate: 'n', unit: journalCsv[i]?.['rate_unit'] });
        expect(Number(row[at('rate')]?.v)).toBe(Number(journalCsv[i]?.['rate']));
        expect(row[at(journalCsv[i]?.['debit'] ? 'debit' : 'credit')]?.t).toBe('n');
      }
    });

    it('numbers the entries JE-2026-10-00001, … in the order of journal.csv, without a gap or a duplicate; the ledger files carry the same numbers; a re-run numbers them alike', async () => {
      const numbered = (lines: ReadonlyArray<Record<string, string>>, column: string): string[] => lines.map((l) => l[column]!).filter((no, i, all) => no !== '' && no !== all[i - 1]);
      const sequence = (prefix: string, n: number): string[] => Array.from({ length: n }, (_, i) => `${prefix}${String(i + 1).padStart(5, '0')}`);
      // each entry's lines are together, and the numbers run 1, 2, 3, … with none twice
      const entries = numbered(journalCsv, 'entry_no');
      expect(entries.length).toBeGreaterThan(100);
      expect(entries).toEqual(sequence('JE-2026-10-', entries.length));
      expect(new Set(journalCsv.map((l) => `${l['entry_no']}|${l['entry_id']}`)).size).toBe(entries.length);
      expect(journalCsv.every((l) => /^PX-[A-Z2-7]{12}$/.test(l['entry_id']!))).toBe(true);
      const posted = new Set(readCsvWithPython(join(run.dir, 'journal-qbo.csv')).rows.map((r) => r[0]!));
      if (c.journal.entryMode === 'per-day-wallet') {
        // the daily summaries the ledger files post: a series of their own, also without a gap
        const days = [...new Set(journalCsv.map((l) => l['summary_entry_no']!).filter((no) => no !== ''))];
        expect(days.sort()).toEqual(sequence('JD-2026-10-', days.length));
        for (const no of posted) expect(no).toMatch(/^J[DE]-2026-10-\d{5}$/);
      } else for (const no of posted) expect(entries).toContain(no);
      expect(readFileSync(join(run.dir, 'journal.beancount'), 'utf8')).toContain(`^${[...posted][0]}`);

      const again = await runAgainstSimulator({ sim, spec: spec(), tz: TZ, flags: { db: false, formats: ['csv'], journal: mapping(c.journal) } });
      try {
        const pairs = (lines: ReadonlyArray<Record<string, string>>): string[] => lines.map((l) => `${l['entry_no']}|${l['entry_id']}|${l['summary_entry_no']}`);
        expect(pairs(await again.csv('journal.csv'))).toEqual(pairs(journalCsv));
      } finally {
        await again.cleanup();
      }
    }, 240_000);
  });

  describe('a wallet without an account and a currency without a price', () => {
    let run: PipelineRun;
    const unmapped = '3fa3fc16-5616-4b4c-ac53-92c14efbb8d3';
    beforeAll(async () => {
      const wallets = Object.fromEntries(Object.entries(demo.journal.wallets).filter(([id]) => id !== unmapped));
      const journal = mapping({ wallets, formats: ['beancount', 'hledger', 'csv'] });
      run = await runAgainstSimulator({ sim, spec: spec(), tz: TZ, flags: { db: false, journal: { ...journal, prices: journal.prices.filter((p) => p.currency === 'btc') } } });
    }, 240_000);
    afterAll(async () => {
      await run?.cleanup();
    });

    it('names the wallet and every unpriced movement in Exceptions (exit 65) and keeps them out of the ledger files, which still check', async () => {
      expect(run.outcome.exitCode).toBe(65);
      const exceptions = await run.csv('exceptions.csv');
      const unmappedFindings = exceptions.filter((f) => f['check_id'] === 'journal.wallet_unmapped');
      expect(unmappedFindings.map((f) => [f['severity'], f['subject_id']])).toEqual([['error', unmapped]]);
      expect(unmappedFindings[0]?.['message']).toContain('Retired BTC node');
      const journalCsv = await run.csv('journal.csv');
      expect(journalCsv.some((l) => l['wallet_id'] === unmapped)).toBe(false);

      // the stablecoin wallet has no price: its movements are one finding of that cause (count, first and
      // last instants), each stays in journal.csv flagged needs_price, and is in no ledger file
      const unpriced = journalCsv.filter((l) => l['needs_price'] === 'true');
      const unpricedEntries = new Set(unpriced.map((l) => l['entry_no']));
      expect(unpricedEntries.size).toBeGreaterThan(1);
      expect(unpriced.every((l) => l['debit'] === '' && l['credit'] === '' && l['source_currency']!.startsWith('asset:'))).toBe(true);
      const needsPrice = exceptions.filter((f) => f['check_id'] === 'journal.needs_price');
      // one for the movements, one for the wallet's period-end remeasurement
      expect(needsPrice.map((f) => f['subject_kind']).sort()).toEqual(['run', 'wallet']);
      const grouped = needsPrice.find((f) => f['subject_kind'] === 'run')!;
      expect(grouped['message']).toMatch(new RegExp(`^${unpricedEntries.size} ledger entries of asset:\\w+ in wallet \\S+ from \\S+ to \\S+ have no USD price .*; each is listed in journal\\.csv \\(needs_price true\\)`));
      const beancount = readFileSync(join(run.dir, 'journal.beancount'), 'utf8');
      for (const no of unpricedEntries) expect(beancount).not.toContain(no);
      expect(beanCheck(join(run.dir, 'journal.beancount')).code).toBe(0);
      expect(hledgerCheck(join(run.dir, 'journal.hledger')).code).toBe(0);
      // the model still ties: unpriced movements count in the wallet tie-out
      const manifest = await run.manifest();
      expect(manifest.checks.find((k) => k.check_id === 'journal.wallet_tieout')).toMatchObject({ passed: true });
    });
  });
});
