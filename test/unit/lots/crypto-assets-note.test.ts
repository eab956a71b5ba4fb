/**
 * The Crypto assets note (crypto-assets-note.ts): units roll forward per currency from the period's
 * own flows — acquired, disposed, moved between the company's wallets — to the units held, the same
 * when the period is read back from its record; a stablecoin whose every lot cost its closing
 * price gets the line that says its unrealized cents are rounding, and an asset bought at another
 * price does not; the method in force per wallet says since when.
 */
import { describe, expect, it } from 'vitest';
import { journalBuildContext } from '../../../src/journal/build-context.js';
import { PriceTable } from '../../../src/journal/price-file.js';
import { custodyRules } from '../../../src/lots/custody.js';
import { cryptoAssetsNote, type NoteInput } from '../../../src/lots/crypto-assets-note.js';
import { fairValueAt } from '../../../src/lots/fair-value.js';
import type { Lot, LotEvent } from '../../../src/lots/model.js';
import { periodRecord, recordedRun } from '../../../src/lots/period-record.js';
import { figureKey, runPeriod, type PeriodRun } from '../../../src/lots/period-run.js';
import { Subledger } from '../../../src/lots/subledger.js';
import type { CryptoAssetRow } from '../../../src/lots/tables/crypto-assets.js';
import { roundingWords } from '../../../src/lots/tables/crypto-assets-words.js';
import type { AssetRow } from '../../../src/model/rows.js';
import type { Window } from '../../../src/model/window.js';
import { journalConfig } from '../../support/journal/build-context.js';

const USDT = `asset:02${'ab'.repeat(32)}`;
const ASSETS: AssetRow[] = [{ currency: USDT, asset_id: USDT.slice(6), name: 'USDT', network: 'mainnet', decimal_display: 6, flags: [] }];
const [STABLE, TREASURY, COLD] = ['11111111-0000-4000-8000-000000000001', '22222222-0000-4000-8000-000000000002', '33333333-0000-4000-8000-000000000003'];
const WINDOW: Window = { from: '2026-10-01T00:00:00.000000Z', to: '2026-11-01T00:00:00.000000Z', tz: 'UTC' };
const BTC = 100_000_000_000n;
const prices = new Map([
  ['btc', PriceTable.parse('btc', 'timestamp,price\n2026-10-31T20:00:00Z,90000.00\n', 'btc.csv', 86_400)],
  [USDT, PriceTable.parse(USDT, 'timestamp,price\n2026-10-31T00:00:00Z,1.00\n', 'usdt.csv', 86_400)],
]);
const ctx = journalBuildContext(journalConfig({ prices: [{ currency: 'btc', file: '/x/btc.csv' }, { currency: USDT, file: '/x/usdt.csv' }] }), prices, ASSETS, 'UTC');

const at = (day: string): string => `2026-${day}T12:00:00.000000Z`;
const EVENTS: LotEvent[] = [
  // before the window: the opening lots
  { type: 'acquire', walletId: STABLE, currency: USDT, at: at('09-02'), ref: 'r1', origin: 'receive', units: 10_135_078n, cost: 1014n },
  { type: 'acquire', walletId: TREASURY, currency: 'btc', at: at('09-03'), ref: 'r2', origin: 'receive', units: BTC, cost: 6_000_000n },
  // in the window: a receive, a send, a transfer between the company's wallets with its fee
  { type: 'acquire', walletId: STABLE, currency: USDT, at: at('10-02'), ref: 'r3', origin: 'receive', units: 5_000_001n, cost: 500n },
  { type: 'dispose', walletId: STABLE, currency: USDT, at: at('10-03'), ref: 's1', legs: [{ part: 'principal', units: 3_333_333n, proceeds: 333n }] },
  { type: 'transfer', walletId: TREASURY, toWalletId: COLD, currency: 'btc', at: at('10-04'), ref: 't1', units: (BTC * 4n) / 10n, fees: [{ part: 'transfer_fee', units: 1_000_000n, proceeds: 90n }] },
];

function periodRun(): PeriodRun {
  const methods = new Map([[COLD, [{ method: 'hifo' as const, from: '2026-10-15' }]]]);
  return runPeriod(new Subledger({ methods }), EVENTS, [], new Set(), WINDOW);
}

/** The note's input from a run, with crypto-assets.csv's rows as lots-stage.ts sums them. */
function noteInput(run: PeriodRun): NoteInput {
  const byWallet = new Map<string, Lot[]>();
  for (const l of run.closing) byWallet.set(figureKey(l.walletId, l.currency), [...(byWallet.get(figureKey(l.walletId, l.currency)) ?? []), l]);
  const walletFair = new Map([...byWallet].map(([key, lots]) => [key, fairValueAt(ctx, lots[0]?.currency ?? '', lots.reduce((a, l) => a + l.units, 0n), WINDOW.to)]));
  const rows = ['btc', USDT].map((currency): CryptoAssetRow => {
    const lots = run.closing.filter((l) => l.currency === currency);
    const fair = [...walletFair].filter(([k]) => k.endsWith(`|${currency}`)).reduce((a, [, v]) => a + (v ?? 0n), 0n);
    return { currency, methods: '', units: lots.reduce((a, l) => a + l.units, 0n), costBasis: lots.reduce((a, l) => a + (l.cost ?? 0n), 0n), openingFairValue: 0n, additions: 0n, dispositions: 0n, transfersNet: 0n, remeasurementGain: fair, closingFairValue: fair, realizedGain: 0n, cumulativeRealizedGain: 0n, ownCustodyUnits: 0n, ownCustodyCost: 0n, ownCustodyFairValue: 0n, minorUnits: 2 };
  });
  const held = new Map([...byWallet].map(([key, lots]) => [key, { lots, fairValue: walletFair.get(key) ?? null }]));
  return { rows, run, held, custody: custodyRules({ custody: {}, withdrawals: [], deposits: [] }), ctx, window: WINDOW, methods: new Map([[COLD, [{ method: 'hifo', from: '2026-10-15' }]]]), wallets: [], assets: ASSETS, entity: 'Test Co.', findings: [] };
}

describe('the Crypto assets note', () => {
  it("rolls each currency's units forward from the period's own flows to the units held", () => {
    const note = cryptoAssetsNote(noteInput(periodRun()));
    const btc = note.assets.find((a) => a.currency === 'btc')!;
    expect(btc.unitFlows).toEqual({ opening: BTC, acquired: 0n, disposed: 1_000_000n, transferredIn: (BTC * 4n) / 10n, transferredOut: (BTC * 4n) / 10n, closing: BTC - 1_000_000n });
    for (const a of note.assets) expect(a.unitFlows.opening + a.unitFlows.acquired - a.unitFlows.disposed + a.unitFlows.transferredIn - a.unitFlows.transferredOut).toBe(a.units);
    const usdt = note.assets.find((a) => a.currency === USDT)!;
    expect(usdt).toMatchObject({ ticker: 'USDT', name: 'USDT', unitScale: 6, lots: 2 });
    expect(usdt.unitFlows).toMatchObject({ opening: 10_135_078n, acquired: 5_000_001n, disposed: 3_333_333n });
    expect(note).toMatchObject({ entity: 'Test Co.', firstDay: '2026-10-01', lastDay: '2026-10-31' });
    expect(btc.priceSource).toBe('price file btc.csv');
  });

  it('rolls the same units forward, flow by flow, when the period is read back from its record', () => {
    const run = periodRun();
    const fresh = cryptoAssetsNote(noteInput(run));
    const recorded = cryptoAssetsNote(noteInput(recordedRun(periodRecord(run, '2026-10', WINDOW), WINDOW)));
    expect(recorded.assets.map((a) => a.unitFlows)).toEqual(fresh.assets.map((a) => a.unitFlows));
  });

  it('derives the same net flows from a period recorded before its unit flows were (migration 012)', () => {
    const run = periodRun();
    const fresh = cryptoAssetsNote(noteInput(run));
    const record = periodRecord(run, '2026-10', WINDOW);
    const older = { ...record, figures: record.figures.map(({ unitFlows: _recordedLater, ...f }) => f) };
    const recorded = cryptoAssetsNote(noteInput(recordedRun(older, WINDOW)));
    const net = (a: (typeof fresh.assets)[number]): bigint[] => [a.unitFlows.opening, a.unitFlows.acquired + a.unitFlows.transferredIn - a.unitFlows.transferredOut, a.unitFlows.disposed, a.unitFlows.closing];
    expect(recorded.assets.map(net)).toEqual(fresh.assets.map(net));
  });

  it("says a stablecoin's cents of unrealized gain are rounding when every lot cost its closing price, and not for an asset bought at another price", () => {
    const note = cryptoAssetsNote(noteInput(periodRun()));
    const usdt = note.assets.find((a) => a.currency === USDT)!;
    const btc = note.assets.find((a) => a.currency === 'btc')!;
    // 10.135078 booked at 10.14 and 5.000001 at 5.00; fifo relieved 3.333333 of the first at 3.33: 6.801745 + 5.000001 units cost 6.81 + 5.00
    expect([usdt.costBasis, usdt.fairValue, usdt.unrealizedGain]).toEqual([1181n, 1180n, -1n]);
    expect(usdt.atClosingPrice).toBe(true);
    expect(btc.atClosingPrice).toBe(false);
    expect(roundingWords(note)).toEqual([expect.stringMatching(/^USDT: every lot held cost 1\.00 USD per USDT, the closing price, so its unrealized gain of -0\.01 USD is rounding alone/)]);
  });

  it('gives each wallet the method in force at the end and since when', () => {
    const note = cryptoAssetsNote(noteInput(periodRun()));
    expect(note.wallets.map((w) => [w.walletId, w.method, w.since, w.lots])).toEqual([
      [STABLE, 'fifo', null, 2],
      [TREASURY, 'fifo', null, 1],
      [COLD, 'hifo', '2026-10-15', 1],
    ]);
  });
});
