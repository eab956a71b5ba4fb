/**
 * The Crypto assets rows (ASU 2023-08, tables/crypto-assets.ts): per crypto currency, one row for
 * everything the company holds (`all`) and one per location beside it — the service's wallets and
 * the company's own custody wallets (custody.ts). Each row holds the lots' units, cost and fair
 * value, the roll-forward (opening fair value + additions − dispositions + transfers +
 * remeasurement gains + remeasurement losses = closing fair value), what the period's disposals
 * realized against cost (gains and losses apart) and the methods in force. The note and the
 * Overview are drawn from these rows, so the files agree line for line. Also the journal's fair
 * value per currency, which lots.fair_value_tieout compares the closing fair value with.
 */
import type { BuildContext } from '../journal/build-movement.js';
import type { BalanceRow } from '../model/results.js';
import type { WalletRow } from '../model/rows.js';
import type { Window } from '../model/window.js';
import { isCustody, type CustodyRules } from './custody.js';
import { fairValueAt } from './fair-value.js';
import { methodAt, type MethodPeriod } from './method.js';
import type { Lot, ReliefLine } from './model.js';
import { figureKey, type PeriodRun } from './period-run.js';
import { emptyAssetRow, type CryptoAssetRow, type CryptoLocation } from './tables/crypto-assets.js';

export interface CryptoAssetsInput {
  ctx: BuildContext;
  run: PeriodRun;
  window: Window;
  balances: readonly BalanceRow[];
  wallets: readonly WalletRow[];
  custody: CustodyRules;
  methods: ReadonlyMap<string, readonly MethodPeriod[]>;
  tracked: (walletId: string, currency: string) => boolean;
  /** per lot holder and currency: its lots at the window's end, and their fair value */
  held: ReadonlyMap<string, { lots: readonly Lot[]; fairValue: bigint | null }>;
  /** the own custody wallets' units at the window's end as the journal moved them (absent: the lots' own, when no journal pass ran) */
  journalCustody?: ReadonlyArray<{ currency: string; units: bigint }>;
}

type Figure = bigint | null;
const plus = (a: Figure, b: Figure): Figure => (a === null || b === null ? null : a + b);
const minus = (a: Figure, b: Figure): Figure => (b === null ? null : plus(a, -b));

/** Rows in the file's order: per currency, `all` then `service` then `own_custody` (when the custody wallets held any of it). */
export function cryptoAssetRows(input: CryptoAssetsInput): { rows: CryptoAssetRow[]; journalFair: Map<string, bigint | null> } {
  const { ctx, run, window } = input;
  const scale = ctx.config.minorUnits;
  const rows = new Map<string, CryptoAssetRow>();
  const row = (currency: string, location: CryptoLocation): CryptoAssetRow => {
    const key = `${currency}|${location}`;
    let r = rows.get(key);
    if (r === undefined) {
      r = emptyAssetRow(currency, location, scale);
      rows.set(key, r);
    }
    return r;
  };
  const journalFair = new Map<string, bigint | null>();
  const reliefs = reliefsByHolder(run.reliefs);
  const keys = new Set([...run.figures.keys(), ...input.held.keys(), ...input.balances.filter((b) => input.tracked(b.wallet_id, b.currency)).map((b) => figureKey(b.wallet_id, b.currency))]);
  // the service's wallets first, then the company's own custody wallets (the methods column reads in that order)
  for (const key of [...keys].sort((a, b) => Number(isCustody(a)) - Number(isCustody(b)) || (a < b ? -1 : a > b ? 1 : 0))) {
    const [walletId = '', currency = ''] = key.split('|');
    const custody = isCustody(walletId);
    const h = holderFigures(input, key, reliefs.get(key) ?? []);
    const name = custody ? `${input.custody.name(walletId) ?? walletId} (own custody)` : (input.wallets.find((w) => w.wallet_id === walletId)?.name ?? walletId);
    // a custody wallet that never held this currency adds nothing to its rows
    if (custody && h.lots === 0 && h.units0 === 0n && h.transfersNet === 0n) continue;
    for (const r of [row(currency, 'all'), row(currency, custody ? 'own_custody' : 'service')]) {
      addHolder(r, h);
      if (h.lots > 0 || !custody) r.methods = [r.methods, `${name}: ${methodAt(input.methods.get(walletId), window.to)}`].filter((s) => s !== '').join('; ');
    }
    if (custody) continue;
    const balance = input.balances.find((b) => b.wallet_id === walletId && b.currency === currency);
    journalFair.set(currency, plus(journalFair.get(currency) ?? 0n, balance === undefined ? 0n : fairValueAt(ctx, currency, balance.closing_base, window.to)));
  }
  // the own custody wallets as the journal moved them: their units from the ledger, independent of the lots
  const custodyUnits = input.journalCustody ?? [...input.held].filter(([key]) => isCustody(key)).map(([key, h]) => ({ currency: key.split('|')[1] ?? '', units: h.lots.reduce((a, l) => a + l.units, 0n) }));
  for (const c of custodyUnits) journalFair.set(c.currency, plus(journalFair.get(c.currency) ?? 0n, fairValueAt(ctx, c.currency, c.units, window.to)));
  // BTC first, then the assets by id; per currency all, then its locations
  const rank = (c: string): string => (c === 'btc' ? '' : c);
  const out = [...rows.values()].sort((a, b) => (a.currency === b.currency ? LOCATION_ORDER[a.location] - LOCATION_ORDER[b.location] : rank(a.currency) < rank(b.currency) ? -1 : 1));
  return { rows: splitRemeasurement(out), journalFair };
}

const LOCATION_ORDER: Readonly<Record<CryptoLocation, number>> = { all: 0, service: 1, own_custody: 2 };

interface HolderFigures {
  lots: number;
  units: bigint;
  units0: bigint;
  cost: Figure;
  opening: Figure;
  additions: Figure;
  dispositions: Figure;
  transfersNet: Figure;
  closing: Figure;
  flows: { acquired: bigint; disposed: bigint; transferred: bigint };
  realized: { proceeds: Figure; cost: Figure; gains: Figure; losses: Figure; net: Figure };
  cumulative: Figure;
}

function holderFigures(input: CryptoAssetsInput, key: string, reliefs: readonly ReliefLine[]): HolderFigures {
  const { ctx, run, window } = input;
  const [walletId = '', currency = ''] = key.split('|');
  const held = input.held.get(key);
  const lots = held?.lots ?? [];
  const f = run.figures.get(key);
  const u = run.units.get(key);
  // a service wallet opens at its balance (the journal's carrying value); a custody wallet at its lots
  const balance = input.balances.find((b) => b.wallet_id === walletId && b.currency === currency);
  const units0 = isCustody(walletId) ? (f?.openingUnits ?? 0n) : (balance?.opening_base ?? 0n);
  const sum = (pick: (r: ReliefLine) => Figure): Figure => reliefs.reduce<Figure>((a, r) => plus(a, pick(r)), 0n);
  return {
    lots: lots.length,
    units: lots.reduce((a, l) => a + l.units, 0n),
    units0,
    cost: lots.some((l) => l.cost === null) ? null : lots.reduce((a, l) => a + (l.cost as bigint), 0n),
    opening: fairValueAt(ctx, currency, units0, window.from),
    additions: f?.additions ?? 0n,
    dispositions: f?.dispositions ?? 0n,
    transfersNet: f?.transfersNet ?? 0n,
    closing: lots.length === 0 ? 0n : (held?.fairValue ?? null),
    flows: { acquired: u?.acquired ?? 0n, disposed: u?.disposed ?? 0n, transferred: (u?.transferredIn ?? 0n) - (u?.transferredOut ?? 0n) },
    realized: {
      proceeds: sum((r) => r.proceeds),
      cost: sum((r) => r.cost),
      gains: sum((r) => (r.gain === null ? null : r.gain > 0n ? r.gain : 0n)),
      losses: sum((r) => (r.gain === null ? null : r.gain < 0n ? r.gain : 0n)),
      net: f?.realizedGain ?? 0n,
    },
    cumulative: f?.cumulativeRealizedGain ?? 0n,
  };
}

function addHolder(r: CryptoAssetRow, h: HolderFigures): void {
  r.lots += h.lots;
  r.units += h.units;
  r.openingUnits += h.units0;
  r.unitsAcquired += h.flows.acquired;
  r.unitsDisposed += h.flows.disposed;
  r.unitsTransferred += h.flows.transferred;
  r.costBasis = plus(r.costBasis, h.cost);
  r.openingFairValue = plus(r.openingFairValue, h.opening);
  r.additions = plus(r.additions, h.additions);
  r.dispositions = plus(r.dispositions, h.dispositions);
  r.transfersNet = plus(r.transfersNet, h.transfersNet);
  r.closingFairValue = plus(r.closingFairValue, h.closing);
  // the journal's remeasurement brings the carrying value to fair value: what the flows do not explain
  r.remeasurement = plus(r.remeasurement, minus(minus(plus(minus(h.closing, h.opening), plus(0n, h.dispositions)), h.additions), h.transfersNet));
  r.proceeds = plus(r.proceeds, h.realized.proceeds);
  r.disposedCost = plus(r.disposedCost, h.realized.cost);
  r.realizedGains = plus(r.realizedGains, h.realized.gains);
  r.realizedLosses = plus(r.realizedLosses, h.realized.losses);
  r.realizedGain = plus(r.realizedGain, h.realized.net);
  r.cumulativeRealizedGain = plus(r.cumulativeRealizedGain, h.cumulative);
}

/**
 * The net remeasurement on the gains line or the losses line, asset by asset (ASC 350-60-50-3):
 * the asset's total decides, and its locations follow it, so they add up to the total line by line.
 */
function splitRemeasurement(rows: CryptoAssetRow[]): CryptoAssetRow[] {
  const gainOf = new Map(rows.filter((r) => r.location === 'all').map((r) => [r.currency, r.remeasurement === null ? null : r.remeasurement >= 0n]));
  for (const r of rows) {
    const gain = gainOf.get(r.currency) ?? null;
    r.remeasurementGains = gain === null || r.remeasurement === null ? null : gain ? r.remeasurement : 0n;
    r.remeasurementLosses = gain === null || r.remeasurement === null ? null : gain ? 0n : r.remeasurement;
  }
  return rows;
}

function reliefsByHolder(reliefs: readonly ReliefLine[]): Map<string, ReliefLine[]> {
  const out = new Map<string, ReliefLine[]>();
  for (const r of reliefs) {
    const key = figureKey(r.walletId, r.currency);
    const list = out.get(key);
    if (list === undefined) out.set(key, [r]);
    else list.push(r);
  }
  return out;
}
