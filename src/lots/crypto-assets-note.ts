/**
 * The Crypto assets note (ASU 2023-08, ASC 350-60-50) as data (model/crypto-note.ts), built from
 * the rows crypto-assets.csv holds, so the note and the file agree line for line: per asset its
 * holdings at every location and per location, the roll-forward with remeasurement gains and
 * losses apart, what the disposals realized against cost (gains and losses apart), the methods
 * per wallet and their changes in the period, the income-statement line, the restrictions, and the
 * words around them (crypto-assets-words.ts). The report folder draws it (sinks/crypto-note-sheet.ts).
 */
import type { LotsDisclosure } from '../config/lots-schema.js';
import type { BuildContext } from '../journal/build-movement.js';
import { localDate } from '../journal/build-movement.js';
import { pow10 } from '../money/rounding.js';
import { displayScale } from '../money/units.js';
import type { CryptoNote, NoteAsset, NoteFigures, NoteLocation, NoteWallet } from '../model/crypto-note.js';
import type { CryptoOverview } from '../model/crypto-overview.js';
import type { Finding } from '../model/results.js';
import type { AssetRow, WalletRow } from '../model/rows.js';
import type { Window } from '../model/window.js';
import type { PricePoint } from '../journal/price-file.js';
import { isCustody, type CustodyRules } from './custody.js';
import { additionsWords, dayWords, definitions, dispositionsWords, methodChanges, priceSource, remainingWords, roundingWords, staleWords } from './tables/crypto-assets-words.js';
import { methodPeriodAt, type MethodPeriod } from './method.js';
import type { Lot } from './model.js';
import type { CryptoAssetRow } from './tables/crypto-assets.js';

export interface NoteInput {
  rows: readonly CryptoAssetRow[];
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
  disclosure: LotsDisclosure;
}

/** The lots checks whose findings mean a currency's lots do not tie (the Overview's "lots tie"). */
export const TIE_CHECKS: ReadonlySet<string> = new Set(['lots.units_tieout', 'lots.cost_tieout', 'lots.fair_value_tieout', 'lots.gain_identity', 'lots.cumulative_tieout', 'lots.basis_unknown']);

const LOCATION_LABELS: Readonly<Record<string, string>> = { service: 'service wallets', own_custody: 'own custody' };

export function cryptoAssetsNote(input: NoteInput): CryptoNote {
  const { ctx, window } = input;
  const lastInstant = new Date(Date.parse(window.to.slice(0, 23) + 'Z') - 1).toISOString().replace(/\.(\d{3})Z$/, '.$1000Z');
  const firstDay = localDate(ctx.clock, window.from);
  const lastDay = localDate(ctx.clock, lastInstant);
  const assets = input.rows.filter((r) => r.location === 'all').map((row) => noteAsset(input, row));
  const wallets = noteWallets(input, assets);
  const books = ctx.config.booksCurrency;
  const base = {
    entity: input.entity,
    periodWords: `${dayWords(firstDay)} to ${dayWords(lastDay)}`,
    firstDayWords: dayWords(firstDay),
    lastDayWords: dayWords(lastDay),
    asOf: `As of the end of ${dayWords(lastDay)} in ${window.tz}: ${window.to.slice(0, 19).replace('T', ' ')} UTC, excluded.`,
    booksCurrency: books,
    minorUnits: ctx.config.minorUnits,
    assets,
    wallets,
  };
  const gainLoss = ctx.config.fairValue === undefined ? null : (ctx.config.accounts[ctx.config.fairValue.gainLoss]?.ledger ?? ctx.config.fairValue.gainLoss);
  return {
    ...base,
    methodChanges: methodChanges(input, window, assets),
    incomeStatement: `${input.disclosure.incomeStatementLine}${gainLoss === null ? ' (no fair-value remeasurement is configured: journal.fairValue)' : ` — the journal's account ${gainLoss}`}`,
    restrictions: restrictionsOf(input, assets, lastDay),
    additionsWords: additionsWords(),
    dispositionsWords: dispositionsWords(),
    holdingsNotes: [...roundingWords(assets, books, ctx.config.minorUnits), ...staleWords(assets, input.disclosure.priceMaxAgeSeconds, lastDay)],
    definitions: definitions(base),
  };
}

function noteAsset(input: NoteInput, row: CryptoAssetRow): NoteAsset {
  const { ctx, window } = input;
  const currency = row.currency;
  const assetRow = input.assets.find((a) => a.currency === currency);
  const point = ctx.valuation.prices.get(currency)?.at(window.to) ?? null;
  const locations: NoteLocation[] = input.rows.filter((r) => r.currency === currency && r.location !== 'all').map((r) => ({ label: LOCATION_LABELS[r.location] ?? r.location, figures: figuresOf(r) }));
  const perWhole = ctx.valuation.baseUnitsPerWhole(currency);
  const lots = [...input.held].filter(([key]) => key.endsWith(`|${currency}`)).flatMap(([, h]) => [...h.lots]);
  return {
    currency,
    ticker: currency === 'btc' ? 'BTC' : ctx.valuation.displayCode(currency),
    name: currency === 'btc' ? 'Bitcoin' : (assetRow?.name ?? currency),
    network: assetRow?.network ?? null,
    unitScale: currency === 'btc' ? 11 : (displayScale(currency, new Map(input.assets.map((a) => [a.currency, a.decimal_display]))) ?? 0),
    price: point === null ? null : { text: point.text, decimals: point.decimals, at: point.at, source: priceSource(point, currency, ctx) },
    priceStale: point !== null && Date.parse(window.to.slice(0, 23) + 'Z') - Date.parse(point.at.slice(0, 23) + 'Z') > input.disclosure.priceMaxAgeSeconds * 1000,
    total: figuresOf(row),
    // a split is shown where there is more than one place: the service's wallets and the company's own custody
    locations: locations.length > 1 ? locations : [],
    remeasurementIsGain: row.remeasurement === null || row.remeasurement >= 0n,
    realized: { proceeds: row.proceeds, costBasis: row.disposedCost, gains: row.realizedGains, losses: row.realizedLosses, cumulative: row.cumulativeRealizedGain },
    ties: !input.findings.some((f) => f.currency === currency && TIE_CHECKS.has(f.check_id)),
    atClosingPrice: point !== null && perWhole !== null && lots.length > 0 && lots.every((l) => costIsPrice(l, point, perWhole, ctx.config.minorUnits)),
  };
}

function figuresOf(r: CryptoAssetRow): NoteFigures {
  return {
    lots: r.lots,
    units: r.units,
    costBasis: r.costBasis,
    fairValue: r.closingFairValue,
    opening: r.openingFairValue,
    additions: r.additions,
    dispositions: r.dispositions,
    transfersNet: r.transfersNet,
    remeasurement: r.remeasurement,
    units0: r.openingUnits,
    unitsAcquired: r.unitsAcquired,
    unitsDisposed: r.unitsDisposed,
    unitsTransferred: r.unitsTransferred,
  };
}

/** Per lot holder and currency, the service's wallets first: its method at the period's end and its holdings (the Lots sheet's subtotals). */
function noteWallets(input: NoteInput, assets: readonly NoteAsset[]): NoteWallet[] {
  const names = new Map(input.wallets.map((w) => [w.wallet_id.toLowerCase(), w.name]));
  const keys = [...input.held.keys()]
    .filter((k) => assets.some((a) => k.endsWith(`|${a.currency}`)) && (input.held.get(k)?.lots.length ?? 0) > 0)
    .sort((a, b) => Number(isCustody(a)) - Number(isCustody(b)) || (a < b ? -1 : a > b ? 1 : 0));
  return keys.map((key): NoteWallet => {
    const [walletId = '', currency = ''] = key.split('|');
    const lots = input.held.get(key)?.lots ?? [];
    const period = methodPeriodAt(input.methods.get(walletId.toLowerCase()) ?? input.methods.get(walletId), input.window.to);
    const asset = assets.find((a) => a.currency === currency);
    return {
      name: input.custody.name(walletId) ?? (names.get(walletId.toLowerCase()) || walletId),
      ticker: asset?.ticker ?? currency,
      unitScale: asset?.unitScale ?? 0,
      method: period === null ? 'fifo (default)' : `${period.method}, since ${dayWords(period.from.slice(0, 10))}`,
      location: isCustody(walletId) ? 'own custody' : 'service',
      lots: lots.length,
      units: lots.reduce((a, l) => a + l.units, 0n),
      costBasis: lots.some((l) => l.cost === null) ? null : lots.reduce((a, l) => a + (l.cost as bigint), 0n),
      fairValue: input.held.get(key)?.fairValue ?? null,
    };
  });
}

function restrictionsOf(input: NoteInput, assets: readonly NoteAsset[], lastDay: string): CryptoNote['restrictions'] {
  const stated = input.disclosure.restrictions;
  if (stated === undefined) return null;
  if (stated === 'none') return 'none';
  return stated.map((r) => {
    const holder = r.wallet.length === 36 ? r.wallet.toLowerCase() : `custody:${r.wallet}`;
    const held = [...input.held].filter(([key]) => key.toLowerCase().startsWith(`${holder}|`) && (r.currency === undefined || key.endsWith(`|${r.currency}`)));
    const fairValue = held.reduce<bigint | null>((a, [, h]) => (a === null || h.fairValue === null ? null : a + h.fairValue), 0n);
    const name = input.custody.name(holder) ?? input.wallets.find((w) => w.wallet_id.toLowerCase() === holder)?.name ?? r.wallet;
    return {
      holder: name,
      ticker: r.currency === undefined ? 'all' : (assets.find((a) => a.currency === r.currency)?.ticker ?? r.currency),
      fairValue,
      nature: r.nature,
      remaining: remainingWords(r.until, lastDay),
      lapse: r.lapse,
    };
  });
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

/** The Overview's block (sinks/overview-crypto.ts) from the note: every location together. */
export function cryptoOverview(note: CryptoNote): CryptoOverview {
  const unrealized = (f: NoteFigures): bigint | null => (f.fairValue === null || f.costBasis === null ? null : f.fairValue - f.costBasis);
  const realized = (a: NoteAsset): bigint | null => (a.realized.gains === null || a.realized.losses === null ? null : a.realized.gains + a.realized.losses);
  return {
    booksCurrency: note.booksCurrency,
    minorUnits: note.minorUnits,
    lastDay: note.lastDayWords,
    rows: note.assets.map((a) => ({ ticker: a.ticker, lots: a.total.lots, units: a.total.units, unitScale: a.unitScale, costBasis: a.total.costBasis, fairValue: a.total.fairValue, realizedGain: realized(a), unrealizedGain: unrealized(a.total), ties: a.ties })),
    notes: note.holdingsNotes,
  };
}
