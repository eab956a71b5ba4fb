/**
 * The Crypto assets note (ASU 2023-08, ASC 350-60-50) as a controller reads it: per crypto
 * currency, its units, cost basis, fair value and unrealized gain at the period's end with the
 * price behind the fair value; the fair-value roll-forward (the CSV's figures) beside the units'
 * own; realized gains apart from both; the method in force per wallet with that wallet's holdings
 * (the Lots sheet's subtotals); the asset list's names for the ids. Built from what the lots pass
 * already computed — nothing here adds a figure the files do not tie to.
 */
import type { BuildContext } from '../journal/build-movement.js';
import { localDate } from '../journal/build-movement.js';
import type { PricePoint } from '../journal/price-file.js';
import { pow10 } from '../money/rounding.js';
import { displayScale } from '../money/units.js';
import type { Finding } from '../model/results.js';
import type { AssetRow, WalletRow } from '../model/rows.js';
import type { Window } from '../model/window.js';
import { isCustody, type CustodyRules } from './custody.js';
import { methodPeriodAt, type MethodPeriod } from './method.js';
import type { Lot } from './model.js';
import type { PeriodRun } from './period-run.js';
import type { CryptoAssetRow } from './tables/crypto-assets.js';

export interface NoteAsset {
  currency: string;
  /** BTC, or the asset's code from its name in the asset list (the journal's commodity) */
  ticker: string;
  /** Bitcoin, or the asset's name as the asset list gives it */
  name: string;
  network: string | null;
  /** decimals of a whole unit: 11 for BTC (msats), the asset's decimal_display */
  unitScale: number;
  /** the closing price the fair value uses, and where it comes from */
  price: PricePoint | null;
  priceSource: string | null;
  lots: number;
  units: bigint;
  costBasis: bigint | null;
  fairValue: bigint | null;
  unrealizedGain: bigint | null;
  value: { opening: bigint | null; additions: bigint | null; dispositions: bigint | null; transfersNet: bigint | null; remeasurement: bigint | null; closing: bigint | null };
  unitFlows: { opening: bigint; acquired: bigint; disposed: bigint; transferredIn: bigint; transferredOut: bigint; closing: bigint };
  realizedGain: bigint | null;
  cumulativeRealizedGain: bigint | null;
  /** no lots check found anything for this currency */
  ties: boolean;
  /** every lot held cost the closing price per unit: the unrealized gain is rounding alone */
  atClosingPrice: boolean;
  /** what sits in the company's own custody wallets: outside the service's wallets and the figures above (docs/lots.md "Withdrawals and own custody") */
  ownCustody: { units: bigint; costBasis: bigint | null; fairValue: bigint | null };
}

export interface NoteWallet {
  walletId: string;
  walletName: string;
  currency: string;
  ticker: string;
  method: string;
  /** when the method took effect; null = the default (fifo), in force from the first event */
  since: string | null;
  lots: number;
  units: bigint;
  costBasis: bigint | null;
  fairValue: bigint | null;
}

export interface CryptoAssetsNote {
  entity: string;
  /** the period's first and last local days (YYYY-MM-DD in the reporting zone) */
  firstDay: string;
  lastDay: string;
  /** the as-of instant: the window's end, excluded (UTC) */
  asOf: string;
  tz: string;
  booksCurrency: string;
  minorUnits: number;
  assets: NoteAsset[];
  wallets: NoteWallet[];
}

export interface NoteInput {
  rows: readonly CryptoAssetRow[];
  run: PeriodRun;
  /** figureKey → the holder's lots at the end and their fair value (service wallets and own custody wallets) */
  held: ReadonlyMap<string, { lots: readonly Lot[]; fairValue: bigint | null }>;
  custody: CustodyRules;
  ctx: BuildContext;
  window: Window;
  methods: ReadonlyMap<string, readonly MethodPeriod[]>;
  wallets: readonly WalletRow[];
  assets: readonly AssetRow[];
  entity: string;
  findings: readonly Finding[];
}

/** The lots checks whose findings mean a currency's lots do not tie (the Overview's "lots tie"). */
export const TIE_CHECKS: ReadonlySet<string> = new Set(['lots.units_tieout', 'lots.cost_tieout', 'lots.fair_value_tieout', 'lots.gain_identity', 'lots.cumulative_tieout', 'lots.basis_unknown']);

export function cryptoAssetsNote(input: NoteInput): CryptoAssetsNote {
  const { ctx, window, run } = input;
  const assetRow = (currency: string): AssetRow | undefined => input.assets.find((a) => a.currency === currency);
  // the roll-forward's scope is the service's wallets: a move to or from own custody is a transfer across its edge
  const lotsOf = (currency: string): Lot[] => [...input.held].filter(([key]) => key.endsWith(`|${currency}`) && !isCustody(key)).flatMap(([, h]) => [...h.lots]);
  const sumUnits = (currency: string, pick: (key: string) => bigint): bigint => [...new Set([...run.figures.keys(), ...run.units.keys(), ...input.held.keys()])].filter((k) => k.endsWith(`|${currency}`) && !isCustody(k)).reduce((a, k) => a + pick(k), 0n);
  const assets = input.rows.map((row): NoteAsset => {
    const currency = row.currency;
    const lots = lotsOf(currency);
    const price = ctx.valuation.prices.get(currency)?.at(window.to) ?? null;
    const unitScale = currency === 'btc' ? 11 : (displayScale(currency, new Map(input.assets.map((a) => [a.currency, a.decimal_display]))) ?? 0);
    const unrealizedGain = row.closingFairValue === null || row.costBasis === null ? null : row.closingFairValue - row.costBasis;
    const flow = (pick: 'acquired' | 'disposed' | 'transferredIn' | 'transferredOut'): bigint => sumUnits(currency, (k) => run.units.get(k)?.[pick] ?? 0n);
    const perWhole = ctx.valuation.baseUnitsPerWhole(currency);
    return {
      currency,
      ticker: currency === 'btc' ? 'BTC' : ctx.valuation.displayCode(currency),
      name: currency === 'btc' ? 'Bitcoin' : (assetRow(currency)?.name ?? currency),
      network: assetRow(currency)?.network ?? null,
      unitScale,
      price,
      priceSource: price === null ? null : priceSource(price, currency, ctx),
      lots: lots.length,
      units: row.units,
      costBasis: row.costBasis,
      fairValue: row.closingFairValue,
      unrealizedGain,
      value: { opening: row.openingFairValue, additions: row.additions, dispositions: row.dispositions, transfersNet: row.transfersNet, remeasurement: row.remeasurementGain, closing: row.closingFairValue },
      unitFlows: { opening: sumUnits(currency, (k) => run.figures.get(k)?.openingUnits ?? 0n), acquired: flow('acquired'), disposed: flow('disposed'), transferredIn: flow('transferredIn'), transferredOut: flow('transferredOut'), closing: row.units },
      realizedGain: row.realizedGain,
      cumulativeRealizedGain: row.cumulativeRealizedGain,
      ties: !input.findings.some((f) => f.currency === currency && TIE_CHECKS.has(f.check_id)),
      atClosingPrice: price !== null && perWhole !== null && lots.length > 0 && lots.every((l) => costIsPrice(l, price, perWhole, ctx.config.minorUnits)),
      ownCustody: { units: row.ownCustodyUnits, costBasis: row.ownCustodyCost, fairValue: row.ownCustodyFairValue },
    };
  });
  const names = new Map(input.wallets.map((w) => [w.wallet_id.toLowerCase(), w.name]));
  // the service's wallets first, then the own custody wallets that hold lots
  const keys = [...new Set([...run.figures.keys(), ...input.held.keys()])]
    .filter((k) => input.rows.some((r) => k.endsWith(`|${r.currency}`)) && (!isCustody(k) || (input.held.get(k)?.lots.length ?? 0) > 0))
    .sort((a, b) => Number(isCustody(a)) - Number(isCustody(b)) || (a < b ? -1 : a > b ? 1 : 0));
  const wallets = keys.map((key): NoteWallet => {
    const [walletId = '', currency = ''] = key.split('|');
    const lots = input.held.get(key)?.lots ?? [];
    const period = methodPeriodAt(input.methods.get(walletId.toLowerCase()), window.to);
    const custodyName = input.custody.name(walletId);
    return {
      walletId,
      walletName: custodyName !== null ? `${custodyName} (own custody)` : names.get(walletId.toLowerCase()) || walletId,
      currency,
      ticker: assets.find((a) => a.currency === currency)?.ticker ?? currency,
      method: period?.method ?? 'fifo',
      since: period?.from ?? null,
      lots: lots.length,
      units: lots.reduce((a, l) => a + l.units, 0n),
      costBasis: lots.some((l) => l.cost === null) ? null : lots.reduce((a, l) => a + (l.cost as bigint), 0n),
      fairValue: lots.length === 0 ? 0n : (input.held.get(key)?.fairValue ?? null),
    };
  });
  const lastInstant = new Date(Date.parse(window.to.slice(0, 23) + 'Z') - 1).toISOString().replace(/\.(\d{3})Z$/, '.$1000Z');
  return {
    entity: input.entity,
    firstDay: localDate(ctx.clock, window.from),
    lastDay: localDate(ctx.clock, lastInstant),
    asOf: window.to,
    tz: window.tz,
    booksCurrency: ctx.config.booksCurrency,
    minorUnits: ctx.config.minorUnits,
    assets,
    wallets,
  };
}

/**
 * Whether a lot's cost per whole unit is the price, to the price's own precision — exactly:
 * |cost / 10^m × perWhole / units − digits / 10^d| ≤ ½ · 10^−d, multiplied out.
 */
function costIsPrice(lot: Lot, price: PricePoint, perWhole: bigint, minorUnits: number): boolean {
  if (lot.cost === null || lot.units === 0n) return false;
  const left = 2n * lot.cost * perWhole * pow10(price.decimals);
  const right = 2n * price.digits * lot.units * pow10(minorUnits);
  const gap = left > right ? left - right : right - left;
  return gap <= lot.units * pow10(minorUnits);
}

/** Where a price comes from, in words: the user's price file (its name) or the fetched cache (its source and interval). */
function priceSource(price: PricePoint, currency: string, ctx: BuildContext): string {
  if (price.source === 'price_file') {
    const file = ctx.config.prices.find((p) => p.currency === currency)?.file;
    return file === undefined ? 'the price file' : `price file ${file.split(/[\\/]/).pop() ?? file}`;
  }
  const [, source = '', interval = ''] = price.source.split(':');
  return `${source} (${interval} prices, the price cache)`;
}
