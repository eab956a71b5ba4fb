/**
 * crypto-assets.csv / sheet "Crypto assets": the ASU 2023-08 (ASC 350-60-50) figures per crypto
 * currency for the period, for every location the company holds it (`all`) and per location beside
 * it (`service`: the service's wallets; `own_custody`: the company's own custody wallets) — cost
 * basis, fair value and units held at the end; the roll-forward from opening to closing fair value,
 * remeasurement gains and losses apart; what the disposals realized against cost, gains and losses
 * apart; the cost-basis methods in use. The roll-forward adds up exactly on every row:
 *   opening_fair_value + additions − dispositions + transfers_net + remeasurement_gains + remeasurement_losses = closing_fair_value
 * and the locations of a currency add up to its `all` row, column by column (docs/lots.md).
 */
import { formatBase } from '../../money/format.js';
import { baseAmount, code, count, decimal, text, type TableSpec } from '../../model/column-spec.js';

export type CryptoLocation = 'all' | 'service' | 'own_custody';

export interface CryptoAssetRow {
  currency: string;
  location: CryptoLocation;
  methods: string;
  lots: number;
  units: bigint;
  costBasis: bigint | null;
  openingFairValue: bigint | null;
  additions: bigint | null;
  dispositions: bigint | null;
  transfersNet: bigint | null;
  /** the net remeasurement, and the same on the asset's gains line or its losses line (≤ 0) */
  remeasurement: bigint | null;
  remeasurementGains: bigint | null;
  remeasurementLosses: bigint | null;
  closingFairValue: bigint | null;
  /** the period's disposals against cost: proceeds, the cost basis relieved, gains and losses (≤ 0) apart, and net */
  proceeds: bigint | null;
  disposedCost: bigint | null;
  realizedGains: bigint | null;
  realizedLosses: bigint | null;
  realizedGain: bigint | null;
  cumulativeRealizedGain: bigint | null;
  /** the units' roll-forward (the note's): opening, acquired, disposed, transferred in − out */
  openingUnits: bigint;
  unitsAcquired: bigint;
  unitsDisposed: bigint;
  unitsTransferred: bigint;
  minorUnits: number;
}

export function emptyAssetRow(currency: string, location: CryptoLocation, minorUnits: number): CryptoAssetRow {
  return {
    currency,
    location,
    methods: '',
    lots: 0,
    units: 0n,
    costBasis: 0n,
    openingFairValue: 0n,
    additions: 0n,
    dispositions: 0n,
    transfersNet: 0n,
    remeasurement: 0n,
    remeasurementGains: 0n,
    remeasurementLosses: 0n,
    closingFairValue: 0n,
    proceeds: 0n,
    disposedCost: 0n,
    realizedGains: 0n,
    realizedLosses: 0n,
    realizedGain: 0n,
    cumulativeRealizedGain: 0n,
    openingUnits: 0n,
    unitsAcquired: 0n,
    unitsDisposed: 0n,
    unitsTransferred: 0n,
    minorUnits,
  };
}

const money = (v: bigint | null, scale: number): string | null => (v === null ? null : formatBase(v, scale));

export const CRYPTO_ASSETS_TABLE: TableSpec<CryptoAssetRow> = {
  id: 'crypto_assets',
  file: 'crypto-assets.csv',
  sheet: 'Crypto assets',
  rowIs: 'crypto currency at one location (all, the service\'s wallets, the company\'s own custody): the ASU 2023-08 figures for the period',
  // the sheet is the disclosure note laid out for a controller (sinks/crypto-note-sheet.ts); this CSV keeps the machine names
  laidOut: true,
  columns: [
    code('currency', 'btc or asset:<hex>', (r) => r.currency),
    code('location', "all (every location), service (the service's wallets) or own_custody (the company's own custody wallets, lots.csv location own_custody); the locations add up to all", (r) => r.location),
    text('cost_basis_method', 'the methods in force at the window end, per wallet (fifo unless configured)', (r) => r.methods),
    count('lots', "lots held at the window's end (lots.csv rows)", (r) => r.lots),
    baseAmount<CryptoAssetRow>('units', "units held at the window's end (Σ of lots.csv)", (r) => r.units, (r) => r.currency),
    decimal('cost_basis', "cost of the lots held at the window's end", (r) => money(r.costBasis, r.minorUnits)),
    decimal('opening_fair_value', "the opening units at the period-start price (the journal's carrying value)", (r) => money(r.openingFairValue, r.minorUnits)),
    decimal('additions', "the journal's value of what came in (receives, swaps, deposits other than from own custody)", (r) => money(r.additions, r.minorUnits)),
    decimal('dispositions', "the journal's value of what went out, at proceeds (sends and their fees, withdrawals other than to own custody, transfer fees)", (r) => money(r.dispositions, r.minorUnits)),
    decimal('transfers_net', "moves between the company's own wallets: value received − value sent (between two of the service's wallets 0 unless the legs were valued at different rates; to and from own custody: − on the service, + on own custody, 0 in all)", (r) => money(r.transfersNet, r.minorUnits)),
    decimal('remeasurement_gains', "the period's fair-value remeasurement when the currency's is a gain (the journal's remeasurement entries), else 0", (r) => money(r.remeasurementGains, r.minorUnits)),
    decimal('remeasurement_losses', "the period's fair-value remeasurement when the currency's is a loss (≤ 0), else 0", (r) => money(r.remeasurementLosses, r.minorUnits)),
    decimal('closing_fair_value', "the units held at the period-end price (= the journal's asset accounts + fair-value adjustment)", (r) => money(r.closingFairValue, r.minorUnits)),
    decimal('unrealized_gain', 'closing_fair_value − cost_basis', (r) => (r.closingFairValue === null || r.costBasis === null ? null : formatBase(r.closingFairValue - r.costBasis, r.minorUnits))),
    decimal('proceeds', "Σ proceeds of the period's relief lines (lot-reliefs.csv)", (r) => money(r.proceeds, r.minorUnits)),
    decimal('disposed_cost_basis', "Σ cost basis of the period's relief lines: the cost of what was disposed of", (r) => money(r.disposedCost, r.minorUnits)),
    decimal('realized_gains', "Σ of the period's relief lines' gains", (r) => money(r.realizedGains, r.minorUnits)),
    decimal('realized_losses', "Σ of the period's relief lines' losses (≤ 0)", (r) => money(r.realizedLosses, r.minorUnits)),
    decimal('realized_gain', 'realized_gains + realized_losses = proceeds − disposed_cost_basis', (r) => money(r.realizedGain, r.minorUnits)),
    decimal('cumulative_realized_gain', 'Σ gain of every relief line up to the window end, net', (r) => money(r.cumulativeRealizedGain, r.minorUnits)),
  ],
};
