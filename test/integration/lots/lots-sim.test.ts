/**
 * End to end with the shipped demo (config/demo.json `journal` and `lots`, its opening-lots file):
 * the real pipeline closes October against the simulator the demo runs (seed 7, business profile, 5,000 payments,
 * 12 wallets) and writes the subledger's files; Python's csv module and openpyxl read them back,
 * and the figures are re-derived from the other files: lots per wallet = balances.csv's closing
 * balance, each relief's proceeds add up to the journal's leg, gain = proceeds − cost, the Crypto
 * assets roll-forward adds up and its totals equal lots.csv's.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { JournalConfig } from '../../../src/config/journal-schema.js';
import type { LotsConfig } from '../../../src/config/lots-schema.js';
import { JOB_FLAGS } from '../../../src/jobs/pipeline-spec.js';
import type { PipelineSpec } from '../../../src/jobs/pipeline.js';
import { monthPeriod } from '../../../src/model/period.js';
import { startSimulator, type SimHandle } from '../../../src/sim/index.js';
import { scaled } from '../../support/journal/ledger-tools.js';
import { checkFolderWithIndependentReaders } from '../../support/readers/folder-check.js';
import { readCsvWithPython, readersMissing, readXlsxWithOpenpyxl, sheetNamed } from '../../support/readers/readers.js';
import { runAgainstSimulator, type PipelineRun } from '../../support/pipeline/run-pipeline.js';

const CONFIG_DIR = new URL('../../../config/', import.meta.url);
const demo = JSON.parse(readFileSync(new URL('demo.json', CONFIG_DIR), 'utf8')) as { journal: JournalConfig; lots: LotsConfig };
const journal: JournalConfig = { ...demo.journal, prices: demo.journal.prices.map((p) => ({ ...p, file: new URL(p.file, CONFIG_DIR).pathname })) };
const lots: LotsConfig = { ...demo.lots, openingLots: new URL(demo.lots.openingLots as string, CONFIG_DIR).pathname };
const TZ = 'America/New_York';
const spec = (): PipelineSpec => ({ command: 'month-end', job: 'month-end', ...JOB_FLAGS['month-end'], period: monthPeriod('2026-10', TZ, new Date()), pull: true, incremental: false, closePeriod: false, allowOpen: true, dryRun: false });
const skip = readersMissing('both');

type Rows = Array<Record<string, string>>;
function pythonRows(path: string): { header: string[]; rows: Rows } {
  const csv = readCsvWithPython(path);
  return { header: csv.header, rows: csv.rows.map((r) => Object.fromEntries(csv.header.map((h, i) => [h, r[i] ?? '']))) };
}
const cents = (s: string | undefined): bigint => scaled(s === undefined || s === '' ? '0' : s, 2);

describe.skipIf(skip !== null)(`the crypto subledger against the demo's simulator${skip ? ` (skipped: ${skip})` : ''}`, () => {
  let sim: SimHandle;
  let run: PipelineRun;
  let reliefs: { header: string[]; rows: Rows };
  let held: { header: string[]; rows: Rows };
  beforeAll(async () => {
    sim = await startSimulator({ seed: 7, scale: 5_000, wallets: 12, profile: 'business' });
    run = await runAgainstSimulator({ sim, spec: spec(), tz: TZ, flags: { db: false, formats: ['csv', 'xlsx'], journal, lots } });
    reliefs = pythonRows(join(run.dir, 'lot-reliefs.csv'));
    held = pythonRows(join(run.dir, 'lots.csv'));
  }, 300_000);
  afterAll(async () => {
    await run?.cleanup();
    await sim?.close();
  });

  it('exits 0 with every lots check run and clean, and lists the files in the manifest', async () => {
    const manifest = await run.manifest();
    expect((await run.csv('exceptions.csv')).filter((f) => f['severity'] === 'error')).toEqual([]);
    expect(run.outcome.exitCode).toBe(0);
    for (const id of ['lots.basis_unknown', 'lots.units_tieout', 'lots.cost_tieout', 'lots.gain_identity', 'lots.fair_value_tieout']) {
      const check = manifest.checks.find((k) => k.check_id === id);
      expect(check, id).toMatchObject({ passed: true, skipped_reason: null });
      expect(check?.evaluated, id).toBeGreaterThan(0);
    }
    const files = (manifest as unknown as { files: Array<{ path: string; rows: number }> }).files;
    expect(files.map((f) => f.path)).toEqual(expect.arrayContaining(['lot-reliefs.csv', 'lots.csv', 'form-8949.csv', 'crypto-assets.csv']));
    expect(files.find((f) => f.path === 'lot-reliefs.csv')?.rows).toBe(reliefs.rows.length);
  });

  it('writes the columns the issue lists, in its order', () => {
    const inOrder = (header: string[], wanted: string[]): string[] => header.filter((h) => wanted.includes(h));
    const reliefColumns = ['wallet_id', 'wallet_name', 'currency', 'disposal_ref', 'disposal_part', 'disposed_at', 'lot_id', 'acquired_at', 'units_base', 'proceeds', 'cost_basis', 'gain', 'term'];
    expect(inOrder(reliefs.header, reliefColumns)).toEqual(reliefColumns);
    const lotColumns = ['wallet_id', 'wallet_name', 'currency', 'lot_id', 'acquired_at', 'origin', 'units_base', 'cost_basis', 'fair_value', 'unrealized_gain'];
    expect(inOrder(held.header, lotColumns)).toEqual(lotColumns);
    expect(reliefs.rows.length).toBeGreaterThan(100);
    const parts = new Set(reliefs.rows.map((r) => r['disposal_part']));
    for (const part of parts) expect(['principal', 'network_fee', 'processing_fee', 'transfer_fee', 'withdrawal', 'swap']).toContain(part);
    for (const part of ['principal', 'network_fee', 'processing_fee']) expect(parts).toContain(part);
  });

  it("holds, per wallet, exactly the roll-forward's closing balance", async () => {
    const units = new Map<string, bigint>();
    for (const l of held.rows) units.set(`${l['wallet_id']}|${l['currency']}`, (units.get(`${l['wallet_id']}|${l['currency']}`) ?? 0n) + BigInt(l['units_base']!));
    const balances = (await run.csv('balances.csv')).filter((b) => b['currency'] !== 'usd');
    expect(balances.length).toBeGreaterThan(5);
    for (const b of balances) expect({ wallet: b['wallet_id'], units: units.get(`${b['wallet_id']}|${b['currency']}`) ?? 0n }).toEqual({ wallet: b['wallet_id'], units: BigInt(b['closing_base']!) });
  });

  it("moves lots with their 2024 acquisition date and cost by the business's treasury transfers; the fee is the sender's disposal", () => {
    const moved = held.rows.filter((l) => l['origin'] === 'transfer_in');
    expect(moved.length).toBeGreaterThan(0);
    // the demo's opening lots were bought on 15 March 2024: a transfer keeps that date (and the long term)
    for (const l of moved) expect(l['acquired_at_utc']!.slice(0, 10) < '2026-01-01').toBe(true);
    const fees = reliefs.rows.filter((r) => r['disposal_part'] === 'transfer_fee');
    expect(fees.length).toBeGreaterThan(0);
    expect(new Set(fees.map((r) => r['term']))).toEqual(new Set(['long']));
  });

  it("relieves each leg at the journal's value, with gain = proceeds − cost", async () => {
    const journalLeg = new Map<string, bigint>();
    for (const l of await run.csv('journal.csv')) if (l['component'] !== 'wallet' && l['entry_kind'] === 'movement') journalLeg.set(`${l['ledger_entry']}|${l['component']}`, cents(l['debit']));
    // a withdrawal or a swap is the journal's principal leg; a transfer fee its network fee
    const component = (part: string | undefined): string => (part === 'withdrawal' || part === 'swap' ? 'principal' : part === 'transfer_fee' ? 'network_fee' : (part ?? ''));
    const proceeds = new Map<string, bigint>();
    for (const r of reliefs.rows) {
      expect(cents(r['gain'])).toBe(cents(r['proceeds']) - cents(r['cost_basis']));
      expect(r['cost_basis']).not.toBe('');
      const key = `${r['disposal_ref']}|${component(r['disposal_part'])}`;
      proceeds.set(key, (proceeds.get(key) ?? 0n) + cents(r['proceeds']));
    }
    for (const [key, sum] of proceeds) expect({ key, sum }).toEqual({ key, sum: journalLeg.get(key) });
  });

  it('adds up the ASU 2023-08 roll-forward and ties it to lots.csv; the Form 8949 rows are the relief lines, short term first', () => {
    const assets = pythonRows(join(run.dir, 'crypto-assets.csv')).rows;
    expect(assets.map((a) => a['currency'])).toContain('btc');
    expect(assets.filter((a) => a['location'] === 'own_custody').map((a) => a['currency'])).toEqual(['btc']);
    for (const a of assets) {
      expect(cents(a['opening_fair_value']) + cents(a['additions']) - cents(a['dispositions']) + cents(a['transfers_net']) + cents(a['remeasurement_gains']) + cents(a['remeasurement_losses'])).toBe(cents(a['closing_fair_value']));
      // every location, and each one beside it: the lots held there (lots.csv location)
      const mine = held.rows.filter((l) => l['currency'] === a['currency'] && (a['location'] === 'all' || l['location'] === a['location']));
      expect(cents(a['closing_fair_value'])).toBe(mine.reduce((s, l) => s + cents(l['fair_value']), 0n));
      expect(cents(a['cost_basis'])).toBe(mine.reduce((s, l) => s + cents(l['cost_basis']), 0n));
      expect(BigInt(a['units_base']!)).toBe(mine.reduce((s, l) => s + BigInt(l['units_base']!), 0n));
      expect(Number(a['lots'])).toBe(mine.length);
      // what the period's disposals realized: proceeds − cost = gains + losses, each apart
      expect(cents(a['proceeds']) - cents(a['disposed_cost_basis'])).toBe(cents(a['realized_gains']) + cents(a['realized_losses']));
      expect(cents(a['realized_losses'])).toBeLessThanOrEqual(0n);
    }
    const btc = assets.find((a) => a['currency'] === 'btc' && a['location'] === 'all')!;
    const gains = reliefs.rows.filter((r) => r['currency'] === 'btc').map((r) => cents(r['gain']));
    expect([cents(btc['realized_gains']), cents(btc['realized_losses'])]).toEqual([gains.filter((g) => g > 0n).reduce((s, g) => s + g, 0n), gains.filter((g) => g < 0n).reduce((s, g) => s + g, 0n)]);
    expect(cents(btc['realized_gain'])).toBe(reliefs.rows.filter((r) => r['currency'] === 'btc').reduce((s, r) => s + cents(r['gain']), 0n));
    const form = pythonRows(join(run.dir, 'form-8949.csv')).rows;
    expect(form.length).toBe(reliefs.rows.length);
    const parts = form.map((f) => f['part']);
    expect(parts.indexOf('II') === -1 || parts.lastIndexOf('I') < parts.indexOf('II')).toBe(true);
    expect(parts.filter((p) => p === 'I').length).toBe(reliefs.rows.filter((r) => r['term'] === 'short').length);
  });

  it('shows the Crypto assets note, the Lots sheet with a subtotal per wallet and a total per currency, and the Overview\'s crypto block', () => {
    const sheets = readXlsxWithOpenpyxl(join(run.dir, 'report.xlsx'), { cells: true, maxRows: 400 });
    const assetsSheet = sheetNamed(sheets, 'Crypto assets');
    expect(String(assetsSheet.rows?.[0]?.[0]?.v)).toMatch(/^Crypto assets — /);
    const wallets = new Set(held.rows.map((l) => `${l['wallet_id']}|${l['currency']}`)).size;
    const currencies = new Set(held.rows.map((l) => l['currency'])).size;
    expect(sheetNamed(sheets, 'Lots').max_row).toBe(held.rows.length + 1 + wallets + currencies);
    const overview = sheetNamed(sheets, 'Overview').rows ?? [];
    const block = overview.findIndex((r) => String(r[0]?.v ?? '').startsWith('Crypto assets (the lots'));
    expect(block).toBeGreaterThan(0);
    expect(overview[block + 1]?.map((c) => c.v)).toEqual(['currency', 'lots', 'units held', 'cost basis', 'fair value', 'realized gain, period', 'unrealized gain, 31 October 2026', 'lots tie', null]);
    expect(overview[block + 2]?.[0]?.v).toBe('BTC');
    expect(overview[block + 2]?.[7]?.v).toBe('yes');
    const lines = overview.flat().map((c) => String(c?.v ?? ''));
    expect(lines).toContain('Withdrawals: 1 to own custody, 6 disposals, 0 unclassified.');
  }, 120_000);

  it("reads as its manifest says in Python's csv and openpyxl (every file, every sheet, every row count)", () => {
    checkFolderWithIndependentReaders(run.dir);
  }, 180_000);
});
