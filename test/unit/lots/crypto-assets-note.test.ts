/**
 * The Crypto assets rows and note (crypto-assets-rows.ts, crypto-assets-note.ts): per currency a
 * row for every location and one per location — the service's wallets, the company's own custody —
 * that add up to it column by column; each row's roll-forward adds up (remeasurement gains and
 * losses apart, on the asset's own line) and its units roll forward from the period's flows to the
 * units held, the same when the period is read back from its record; a stablecoin whose every lot
 * cost its closing price gets the line that says its unrealized cents are rounding; the method per
 * wallet says since when and a change in the period is named with its date; restrictions are
 * "none", listed with their fair value, or flagged as not stated.
 */
import { describe, expect, it } from 'vitest';
import { journalBuildContext } from '../../../src/journal/build-context.js';
import { PriceTable } from '../../../src/journal/price-file.js';
import { custodyRules } from '../../../src/lots/custody.js';
import { cryptoAssetRows } from '../../../src/lots/crypto-assets-rows.js';
import { cryptoAssetsNote } from '../../../src/lots/crypto-assets-note.js';
import { fairValueAt } from '../../../src/lots/fair-value.js';
import type { Lot, LotEvent } from '../../../src/lots/model.js';
import { periodRecord, recordedRun } from '../../../src/lots/period-record.js';
import { figureKey, runPeriod, type PeriodRun } from '../../../src/lots/period-run.js';
import { Subledger } from '../../../src/lots/subledger.js';
import type { CryptoAssetRow } from '../../../src/lots/tables/crypto-assets.js';
import { lotsDisclosure, lotsSchema, type LotsDisclosure } from '../../../src/config/lots-schema.js';
import type { BalanceRow } from '../../../src/model/results.js';
import type { AssetRow, WalletRow } from '../../../src/model/rows.js';
import type { Window } from '../../../src/model/window.js';
import { journalConfig } from '../../support/journal/build-context.js';

const USDT = `asset:02${'ab'.repeat(32)}`;
const ASSETS: AssetRow[] = [{ currency: USDT, asset_id: USDT.slice(6), name: 'USDT', network: 'mainnet', decimal_display: 6, flags: [] }];
const [STABLE, TREASURY, COLD] = ['11111111-0000-4000-8000-000000000001', '22222222-0000-4000-8000-000000000002', '33333333-0000-4000-8000-000000000003'];
const VAULT = 'custody:vault';
const WINDOW: Window = { from: '2026-10-01T00:00:00.000000Z', to: '2026-11-01T00:00:00.000000Z', tz: 'UTC' };
const BTC = 100_000_000_000n;
const prices = new Map([
  ['btc', PriceTable.parse('btc', 'timestamp,price\n2026-09-30T20:00:00Z,80000.00\n2026-10-31T20:00:00Z,90000.00\n', 'btc.csv', 86_400)],
  [USDT, PriceTable.parse(USDT, 'timestamp,price\n2026-09-30T00:00:00Z,1.00\n', 'usdt.csv', 86_400 * 60)],
]);
const ctx = journalBuildContext(journalConfig({ prices: [{ currency: 'btc', file: '/x/btc.csv' }, { currency: USDT, file: '/x/usdt.csv' }] }), prices, ASSETS, 'UTC');
const CUSTODY = custodyRules(lotsSchema.parse({ custody: { vault: { name: 'Vault' } } }));
const METHODS = new Map([[COLD, [{ method: 'hifo' as const, from: '2026-10-15' }]]]);
const WALLETS = [STABLE, TREASURY, COLD].map((id, i) => ({ wallet_id: id, name: ['Stable', 'Treasury', 'Cold'][i] as string }) as WalletRow);

const at = (day: string): string => `2026-${day}T12:00:00.000000Z`;
const EVENTS: LotEvent[] = [
  // before the window: the opening lots
  { type: 'acquire', walletId: STABLE, currency: USDT, at: at('09-02'), ref: 'r1', origin: 'receive', units: 10_135_078n, cost: 1014n },
  { type: 'acquire', walletId: TREASURY, currency: 'btc', at: at('09-03'), ref: 'r2', origin: 'receive', units: BTC, cost: 6_000_000n },
  // in the window: a receive, a send, a transfer between the company's wallets with its fee, a move to its own custody
  { type: 'acquire', walletId: STABLE, currency: USDT, at: at('10-02'), ref: 'r3', origin: 'receive', units: 5_000_001n, cost: 500n },
  { type: 'dispose', walletId: STABLE, currency: USDT, at: at('10-03'), ref: 's1', legs: [{ part: 'principal', units: 3_333_333n, proceeds: 333n }] },
  { type: 'transfer', walletId: TREASURY, toWalletId: COLD, currency: 'btc', at: at('10-04'), ref: 't1', units: (BTC * 4n) / 10n, fees: [{ part: 'transfer_fee', units: 1_000_000n, proceeds: 90n }] },
  { type: 'transfer', walletId: COLD, toWalletId: VAULT, currency: 'btc', at: at('10-05'), ref: 'w1', units: BTC / 10n, fees: [] },
];

function periodRun(): PeriodRun {
  return runPeriod(new Subledger({ methods: METHODS }), EVENTS, [], new Set(), WINDOW);
}

/** The service wallets' balances at the window's edges, as balances.csv has them. */
function balances(run: PeriodRun): BalanceRow[] {
  return [...run.figures.values()].filter((f) => !f.walletId.startsWith('custody:')).map((f) => {
    const closing = run.closing.filter((l) => l.walletId === f.walletId && l.currency === f.currency).reduce((a, l) => a + l.units, 0n);
    return { wallet_id: f.walletId, currency: f.currency, unit: '', opening_base: f.openingUnits, closing_base: closing } as BalanceRow;
  });
}

function noteOf(run: PeriodRun, disclosure: LotsDisclosure = lotsDisclosure({})) {
  const byHolder = new Map<string, Lot[]>();
  for (const l of run.closing) byHolder.set(figureKey(l.walletId, l.currency), [...(byHolder.get(figureKey(l.walletId, l.currency)) ?? []), l]);
  const held = new Map([...byHolder].map(([key, lots]) => [key, { lots, fairValue: fairValueAt(ctx, lots[0]?.currency ?? '', lots.reduce((a, l) => a + l.units, 0n), WINDOW.to) }]));
  const { rows } = cryptoAssetRows({ ctx, run, window: WINDOW, balances: balances(run), wallets: [], custody: CUSTODY, methods: METHODS, tracked: () => true, held });
  const note = cryptoAssetsNote({ rows, held, custody: CUSTODY, ctx, window: WINDOW, methods: METHODS, wallets: WALLETS, assets: ASSETS, entity: 'Test Co.', findings: [], disclosure });
  return { rows, note };
}

const MONEY = ['lots', 'units', 'costBasis', 'openingFairValue', 'additions', 'dispositions', 'transfersNet', 'remeasurementGains', 'remeasurementLosses', 'closingFairValue', 'proceeds', 'disposedCost', 'realizedGains', 'realizedLosses', 'realizedGain', 'openingUnits', 'unitsAcquired', 'unitsDisposed', 'unitsTransferred'] as const;

describe('the Crypto assets rows', () => {
  it('give each currency a row for all its locations, then one per location, which add up to it column by column', () => {
    const { rows } = noteOf(periodRun());
    expect(rows.map((r) => [r.currency, r.location])).toEqual([['btc', 'all'], ['btc', 'service'], ['btc', 'own_custody'], [USDT, 'all'], [USDT, 'service']]);
    for (const currency of ['btc', USDT]) {
      const all = rows.find((r) => r.currency === currency && r.location === 'all') as CryptoAssetRow;
      const parts = rows.filter((r) => r.currency === currency && r.location !== 'all');
      for (const field of MONEY) expect({ currency, field, sum: parts.reduce((a, r) => a + BigInt(r[field] as bigint | number), 0n) }).toEqual({ currency, field, sum: BigInt(all[field] as bigint | number) });
    }
    const custody = rows.find((r) => r.location === 'own_custody') as CryptoAssetRow;
    expect([custody.units, custody.lots, custody.costBasis, custody.closingFairValue]).toEqual([BTC / 10n, 1, 600_000n, 900_000n]);
    expect(custody.methods).toBe('Vault (own custody): fifo');
  });

  it("roll forward on every row, the remeasurement on the asset's own line, and the units from the period's flows to the units held", () => {
    const { rows } = noteOf(periodRun());
    for (const r of rows) {
      const sum = (r.openingFairValue as bigint) + (r.additions as bigint) - (r.dispositions as bigint) + (r.transfersNet as bigint) + (r.remeasurementGains as bigint) + (r.remeasurementLosses as bigint);
      expect({ at: `${r.currency} ${r.location}`, sum }).toEqual({ at: `${r.currency} ${r.location}`, sum: r.closingFairValue });
      expect(r.openingUnits + r.unitsAcquired - r.unitsDisposed + r.unitsTransferred).toBe(r.units);
    }
    // BTC rose from 80,000 to 90,000: a gain, on the gains line for the asset and each of its locations
    const btc = rows.filter((r) => r.currency === 'btc');
    expect(btc.map((r) => r.remeasurementLosses)).toEqual([0n, 0n, 0n]);
    expect(btc[0]?.remeasurementGains).toBeGreaterThan(0n);
    // between the company's wallets the units cancel in the total: what went to the vault left the service
    expect(btc.map((r) => r.unitsTransferred)).toEqual([0n, -(BTC / 10n), BTC / 10n]);
  });
});

describe('the Crypto assets note', () => {
  it('shows each asset with its locations beside the total when it is held in more than one place', () => {
    const { note } = noteOf(periodRun());
    const [btc, usdt] = note.assets;
    expect(btc?.locations.map((l) => [l.label, l.figures.units])).toEqual([['service wallets', BTC - 1_000_000n - BTC / 10n], ['own custody', BTC / 10n]]);
    expect(usdt?.locations).toEqual([]);
    expect(usdt).toMatchObject({ ticker: 'USDT', name: 'USDT', unitScale: 6, priceStale: true });
    expect(btc?.price).toMatchObject({ text: '90000.00', source: 'price file btc.csv' });
    expect(note).toMatchObject({ entity: 'Test Co.', periodWords: '1 October 2026 to 31 October 2026' });
    expect(note.holdingsNotes).toEqual(expect.arrayContaining([expect.stringMatching(/^USDT: the closing price may be stale — .*price of 2026-09-30 00:00:00 UTC, older than 1 day/)]));
  });

  it('rolls the same units forward, flow by flow, when the period is read back from its record', () => {
    const run = periodRun();
    const fresh = noteOf(run).rows;
    const recorded = noteOf(recordedRun(periodRecord(run, '2026-10', WINDOW), WINDOW)).rows;
    const units = (rows: CryptoAssetRow[]): bigint[][] => rows.map((r) => [r.openingUnits, r.unitsAcquired, r.unitsDisposed, r.unitsTransferred, r.units]);
    expect(units(recorded)).toEqual(units(fresh));
  });

  it("says a stablecoin's cents of unrealized gain are rounding when every lot cost its closing price, and not for an asset bought at another price", () => {
    const { note } = noteOf(periodRun());
    const usdt = note.assets.find((a) => a.currency === USDT)!;
    // 10.135078 booked at 10.14 and 5.000001 at 5.00; fifo relieved 3.333333 of the first at 3.33: 6.801745 + 5.000001 units cost 6.81 + 5.00
    expect([usdt.total.costBasis, usdt.total.fairValue]).toEqual([1181n, 1180n]);
    expect([usdt.atClosingPrice, note.assets[0]?.atClosingPrice]).toEqual([true, false]);
    expect(note.holdingsNotes).toEqual(expect.arrayContaining([expect.stringMatching(/^USDT: every lot held cost 1\.00 USD per USDT, the closing price, so its unrealized gain of -0\.01 USD is rounding alone/)]));
  });

  it('gives each wallet the method in force at the end and since when, and names the change of the period with its date', () => {
    const { note } = noteOf(periodRun());
    expect(note.wallets.map((w) => [w.name, w.method, w.location, w.lots])).toEqual([
      ['Stable', 'fifo (default)', 'service', 2],
      ['Treasury', 'fifo (default)', 'service', 1],
      ['Cold', 'hifo, since 15 October 2026', 'service', 1],
      ['Vault', 'fifo (default)', 'own custody', 1],
    ]);
    expect(note.methodChanges).toEqual([expect.stringMatching(/^Cold: fifo \(default\) → hifo from 15 October 2026;/)]);
  });

  it('states the restrictions as configured: none, each with its fair value and duration, or not stated', () => {
    const run = periodRun();
    expect(noteOf(run).note.restrictions).toBeNull();
    expect(noteOf(run, { ...lotsDisclosure({}), restrictions: 'none' }).note.restrictions).toBe('none');
    const listed = noteOf(run, { ...lotsDisclosure({}), restrictions: [{ wallet: 'vault', currency: 'btc', nature: 'pledged as collateral', until: '2027-01-31', lapse: 'repayment of the loan' }] }).note.restrictions;
    expect(listed).toEqual([{ holder: 'Vault', ticker: 'BTC', fairValue: 900_000n, nature: 'pledged as collateral', remaining: 'until 31 January 2027 (92 days after the period\'s end)', lapse: 'repayment of the loan' }]);
  });
});
