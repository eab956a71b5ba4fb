/**
 * Withdrawals to the company's own custody (issue 37, part 3), end to end on the demo (spool): the
 * Cold BTC node's withdrawals go to the company's cold storage (config/demo.json lots.custody,
 * lots.withdrawals). Its lots leave with their dates and cost and no gain — no relief line, no
 * Form 8949 row — and are listed in lots.csv under the cold storage (location own_custody); the
 * journal posts the move to the cold storage's asset account and remeasures that account at the
 * period's end; the Crypto assets rows show it as a transfer out of the service's wallets and into
 * the cold storage, nothing in the company's total, which holds both. In November a deposit into Main BTC node
 * classified as coming back from the cold storage takes its basis from there (its opening-lots row
 * is gone: without the custody lots it would be lots.basis_unknown). Every other withdrawal is a
 * disposal. With no classification at all, every withdrawal is a warning with its amount, a
 * disposal on Form 8949, and the Overview line counts them.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LotsConfig } from '../../../src/config/lots-schema.js';
import { JOB_FLAGS } from '../../../src/jobs/pipeline-spec.js';
import { rangePeriod } from '../../../src/model/period.js';
import { startSimulator, type SimHandle } from '../../../src/sim/index.js';
import { scaled } from '../../support/journal/ledger-tools.js';
import { demoJournal as journal, demoLots, monthEnd, pythonRows, type Rows } from '../../support/lots/demo-month-ends.js';
import { wireLedger } from '../../support/lots/stress-books.js';
import { runAgainstSimulator, type PipelineRun } from '../../support/pipeline/run-pipeline.js';
import { readersMissing } from '../../support/readers/readers.js';

const TZ = 'America/New_York';
const COLD_NODE = '086d41a7-d600-4778-91bb-6e19c5d461d0';
const MAIN_NODE = '80160507-2947-4f71-b0ae-fc547e9c221a';
const CUSTODY = 'custody:cold-storage';
const BACK = 'deposited:45461fe8-7012-4a26-b824-83a149a26900';
const skip = readersMissing('csv');
const cents = (s: string | undefined): bigint => scaled(s === undefined || s === '' ? '0' : s, 2);
const sum = (rows: Rows, column: string, parse: (s: string) => bigint = (s) => BigInt(s)): bigint => rows.reduce((a, r) => a + parse(r[column] ?? '0'), 0n);

describe.skipIf(skip !== null)(`withdrawals to the company's own custody on the demo${skip ? ` (skipped: ${skip})` : ''}`, () => {
  let sim: SimHandle;
  const runs: PipelineRun[] = [];
  let october: PipelineRun;
  let november: PipelineRun;
  let unclassified: PipelineRun;
  const run = async (spec: Parameters<typeof runAgainstSimulator>[0]['spec'], lots: LotsConfig): Promise<PipelineRun> => {
    const r = await runAgainstSimulator({ sim, spec, tz: TZ, flags: { db: false, journal, lots } });
    runs.push(r);
    return r;
  };
  /** the Cold BTC node's withdrawals up to `end`, from the simulator's ground truth */
  const coldWithdrawals = (end: string): Array<{ ref: string; units: bigint }> =>
    wireLedger(sim, COLD_NODE)
      .filter((e) => e.type === 'withdrawn' && e.effective_time < end)
      .map((e) => ({ ref: `withdrawn:${String(e['withdraw_id'])}`, units: BigInt(String((e['amount'] as { amount: unknown }).amount)) }));

  beforeAll(async () => {
    sim = await startSimulator({ seed: 7, scale: 5_000, wallets: 12, profile: 'business' });
    october = await run(monthEnd('2026-10', false), demoLots());
    november = await run({ command: 'export', job: 'export', ...JOB_FLAGS.export, period: rangePeriod('2026-11-01', '2026-11-21', TZ, new Date()), pull: true, incremental: false, closePeriod: false, allowOpen: false, dryRun: false }, demoLots());
    unclassified = await run(monthEnd('2026-10', false), { ...demoLots(), withdrawals: [] });
  }, 600_000);
  afterAll(async () => {
    for (const r of runs) await r.cleanup();
    await sim?.close();
  });

  it('moves the lots to the cold storage with their dates and cost, and realizes nothing on them', async () => {
    expect(october.outcome.exitCode).toBe(0);
    const sent = coldWithdrawals('2026-11-01');
    expect(sent.length).toBe(2);
    const held = pythonRows(join(october.dir, 'lots.csv'));
    const cold = held.filter((l) => l['location'] === 'own_custody');
    expect(cold.every((l) => l['wallet_id'] === CUSTODY && l['wallet_name'] === 'Company cold storage (2-of-3 multisig)' && l['origin'] === 'transfer_in')).toBe(true);
    expect(sum(cold, 'units_base')).toBe(sent.reduce((a, w) => a + w.units, 0n));
    // the Cold BTC node's fifo sent slices of its 2024 lot: that date and its cost per unit (65,000 USD/BTC)
    for (const l of cold) expect({ at: l['acquired_at_utc'], cost: cents(l['cost_basis']) }).toEqual({ at: '2024-03-15T12:00:00.000000Z', cost: (BigInt(l['units_base'] ?? '0') * 6_500_000n + 50_000_000_000n) / 100_000_000_000n });
    expect(held.filter((l) => l['location'] === 'service').length).toBe(held.length - cold.length);
    const reliefs = pythonRows(join(october.dir, 'lot-reliefs.csv'));
    const form = readFileSync(join(october.dir, 'form-8949.csv'), 'utf8');
    for (const w of sent) {
      expect(reliefs.filter((r) => r['disposal_ref'] === w.ref)).toEqual([]);
      expect(form.includes(w.ref)).toBe(false);
    }
    // every other wallet's withdrawal of October is a disposal, on Form 8949
    const disposed = [...new Set(reliefs.filter((r) => r['disposal_part'] === 'withdrawal').map((r) => r['disposal_ref']))];
    expect(disposed.length).toBe(6);
    for (const ref of disposed) expect(form.includes(ref ?? '')).toBe(true);
    expect(october.outcome.report?.lots?.overview).toContain('Withdrawals: 1 to own custody, 6 disposals, 0 unclassified.');
    const manifest = await october.manifest();
    expect(manifest.checks.find((c) => c.check_id === 'lots.withdrawal_unclassified')).toMatchObject({ passed: true, evaluated: 7 });
    for (const id of ['lots.units_tieout', 'lots.cost_tieout', 'lots.fair_value_tieout', 'lots.cumulative_tieout']) expect(manifest.checks.find((c) => c.check_id === id), id).toMatchObject({ passed: true });
  });

  it('posts the move to the cold storage account, remeasures that account, and shows the move as a transfer between two locations of one set of books', async () => {
    const [october21] = coldWithdrawals('2026-11-01').slice(-1);
    const lines = pythonRows(join(october.dir, 'journal.csv')).filter((l) => l['ledger_entry'] === october21?.ref);
    expect(lines.map((l) => [l['account'], l['component'], l['side']])).toEqual([
      ['Assets:Crypto:Voltage:ColdBtc', 'wallet', 'credit'],
      ['Assets:Crypto:ColdStorage', 'principal', 'debit'],
    ]);
    const value = cents(lines[0]?.['credit']);
    const rows = pythonRows(join(october.dir, 'crypto-assets.csv')).filter((r) => r['currency'] === 'btc');
    const [all, service, own] = ['all', 'service', 'own_custody'].map((location) => rows.find((r) => r['location'] === location));
    // the demo's treasury pairs net to zero (one price for both legs): what is left is the move to the cold storage,
    // out of the service's wallets and into the cold storage: nothing in the company's total
    expect([cents(service?.['transfers_net']), cents(own?.['transfers_net']), cents(all?.['transfers_net'])]).toEqual([-value, value, 0n]);
    for (const r of [all, service, own]) {
      const roll = cents(r?.['opening_fair_value']) + cents(r?.['additions']) - cents(r?.['dispositions']) + cents(r?.['transfers_net']) + cents(r?.['remeasurement_gains']) + cents(r?.['remeasurement_losses']);
      expect({ location: r?.['location'], roll }).toEqual({ location: r?.['location'], roll: cents(r?.['closing_fair_value']) });
    }
    const cold = pythonRows(join(october.dir, 'lots.csv')).filter((l) => l['location'] === 'own_custody');
    expect({ units: BigInt(own?.['units_base'] ?? ''), cost: cents(own?.['cost_basis']), fair: cents(own?.['closing_fair_value']) }).toEqual({ units: sum(cold, 'units_base'), cost: sum(cold, 'cost_basis', cents), fair: sum(cold, 'fair_value', cents) });
    // the service's units exclude them: they tie to the wallets' balances
    const held = pythonRows(join(october.dir, 'lots.csv')).filter((l) => l['location'] === 'service' && l['currency'] === 'btc');
    expect(BigInt(service?.['units_base'] ?? '')).toBe(sum(held, 'units_base'));
    // the cold storage is remeasured at the period's end like any crypto account: the journal's entry on its account is the roll-forward's
    const remeasured = pythonRows(join(october.dir, 'journal.csv')).filter((l) => l['entry_kind'] === 'remeasurement' && l['wallet_id'] === CUSTODY);
    expect(remeasured.map((l) => l['account'])).toEqual(['Assets:Crypto:ColdStorage', 'Income:Crypto:FairValue']);
    const booked = remeasured[0]?.['side'] === 'debit' ? cents(remeasured[0]?.['debit']) : -cents(remeasured[0]?.['credit']);
    expect(booked).toBe(cents(own?.['remeasurement_gains']) + cents(own?.['remeasurement_losses']));
  });

  it('brings the lots back with their basis when a deposit comes from the cold storage', async () => {
    expect(november.outcome.exitCode).toBe(0);
    // (the demo's USDT price file has one price, of 1 August: lots.price_stale says so, and is no concern here)
    expect((await november.csv('exceptions.csv')).filter((x) => x['check_id']?.startsWith('lots.') && x['check_id'] !== 'lots.price_stale' && x['severity'] !== 'info')).toEqual([]);
    const back = wireLedger(sim, MAIN_NODE).find((e) => `deposited:${String(e['deposit_id'])}` === BACK);
    const units = BigInt(String((back?.['amount'] as { amount: unknown }).amount));
    const held = pythonRows(join(november.dir, 'lots.csv'));
    const sent = coldWithdrawals('2026-11-22').reduce((a, w) => a + w.units, 0n);
    expect(sum(held.filter((l) => l['wallet_id'] === CUSTODY), 'units_base')).toBe(sent - units);
    // what came back is in Main BTC node, dated 15 March 2024 (the cold storage's lots), not 13 November
    const returned = held.filter((l) => l['wallet_id'] === MAIN_NODE && l['origin'] === 'transfer_in' && l['acquired_at_utc'] === '2024-03-15T12:00:00.000000Z');
    expect(sum(returned, 'units_base')).toBeGreaterThanOrEqual(units);
    expect(november.outcome.report?.lots?.overview).toContain('Withdrawals: 1 to own custody, 6 disposals, 0 unclassified.');
  });

  it('books an unclassified withdrawal as a disposal, warns with its amount, and counts it on the Overview line', async () => {
    expect(unclassified.outcome.exitCode).toBe(0);
    const warnings = (await unclassified.csv('exceptions.csv')).filter((x) => x['check_id'] === 'lots.withdrawal_unclassified');
    expect(warnings.length).toBe(7);
    expect(warnings.every((w) => w['severity'] === 'warning' && /^withdrawn:/.test(w['subject_id'] ?? '') && BigInt(w['actual'] ?? '0') > 0n)).toBe(true);
    const [october21] = coldWithdrawals('2026-11-01').slice(-1);
    expect(warnings.find((w) => w['subject_id'] === october21?.ref)?.['actual']).toBe(String(october21?.units));
    const reliefs = pythonRows(join(unclassified.dir, 'lot-reliefs.csv')).filter((r) => r['disposal_ref'] === october21?.ref);
    expect(reliefs.map((r) => r['disposal_part'])).toEqual(['withdrawal']);
    expect(readFileSync(join(unclassified.dir, 'form-8949.csv'), 'utf8').includes(october21?.ref ?? '-')).toBe(true);
    expect(unclassified.outcome.report?.lots?.overview).toContain('Withdrawals: 0 to own custody, 7 disposals, 7 unclassified (booked as disposals until classified).');
  });
});
