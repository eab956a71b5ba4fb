/**
 * lots.csv / sheet "Lots": the lots each wallet holds at the window's end, with their cost, their
 * fair value at the period-end price, the unrealized gain and the holding period. Σ units per
 * wallet = the wallet's closing balance (lots.units_tieout). The sheet adds a subtotal row per
 * wallet and currency (the figures of the Crypto assets sheet's wallet rows) and a total per
 * currency (its holdings); the CSV has the lots only. Lots withdrawn to the company's own custody
 * wallet are listed under it (location own_custody), as they left the service.
 */
import { formatBase } from '../../money/format.js';
import { displayCurrency } from '../../money/units.js';
import { baseAmount, code, count, decimal, id, instant, type TableSpec } from '../../model/column-spec.js';
import { isCustody } from '../custody.js';
import type { Lot, Term } from '../model.js';

export interface HeldLotRow {
  lot: Lot;
  /** fair value at the window end, minor units; null without a period-end price */
  fairValue: bigint | null;
  minorUnits: number;
  /** calendar days from the acquisition to the window's end, in the books' zone (term.ts) */
  heldDays: number;
  /** the holding period if the lot were disposed of at the window's end, on the same calendar */
  term: Term;
}

const money = (v: bigint | null, scale: number): string | null => (v === null ? null : formatBase(v, scale));
const plural = (n: number, word: string): string => `${n.toLocaleString('en-US')} ${word}${n === 1 ? '' : 's'}`;

export const LOTS_TABLE: TableSpec<HeldLotRow> = {
  id: 'lots',
  file: 'lots.csv',
  sheet: 'Lots',
  rowIs: "lot held at the window's end, per wallet (docs/lots.md)",
  // printed one page across (docs/reports.md#printing-8-pt-or-more-on-a4-and-letter): which wallet, when acquired, the units, their basis and value
  printColumns: ['wallet_name', 'acquired_at', 'units', 'cost_basis', 'fair_value', 'unrealized_gain', 'term', 'location'],
  columns: [
    id('wallet_id', "wallet UUID (lots are per wallet); custody:<id> for the company's own custody wallet (lots.custody)", (r) => r.lot.walletId),
    code('currency', 'btc or asset:<hex>', (r) => r.lot.currency),
    id('lot_id', 'stable lot id (LOT- + hash of what created it); an identification file names lots by it', (r) => r.lot.lotId),
    ...instant<HeldLotRow>('acquired_at', 'when the units were acquired (kept across treasury transfers)', (r) => r.lot.acquiredAt),
    code('origin', 'receive, swap, transfer_in, deposit, opening or unknown', (r) => r.lot.origin),
    baseAmount<HeldLotRow>('units', 'units still held', (r) => r.lot.units, (r) => r.lot.currency),
    { name: 'units', type: 'display', description: 'units still held in whole units of the currency: BTC with 11 decimals, an asset with its decimal_display (the asset list) — a number that sums; units_base is exact', get: (r) => r.lot.units, currency: (r) => r.lot.currency },
    { ...decimal('cost_basis', "cost of the units still held, in the books' currency; empty = unknown basis", (r) => money(r.lot.cost, r.minorUnits)), width: 14 },
    { ...decimal('fair_value', "the units at the period-end price (the wallet's fair value shared over its lots by units); empty = no price", (r) => money(r.fairValue, r.minorUnits)), width: 14 },
    decimal('unrealized_gain', 'fair_value − cost_basis; empty when either is unknown', (r) => (r.fairValue === null || r.lot.cost === null ? null : formatBase(r.fairValue - r.lot.cost, r.minorUnits))),
    count('held_days', "days held: from the acquisition date to the window's end (calendar dates in the reporting zone, as the term)", (r) => r.heldDays),
    code('term', "short or long: the holding period if the lot were disposed of at the window's end (long: held more than one year)", (r) => r.term),
    // appended last so the earlier columns keep their places (docs/lots.md "Withdrawals and own custody")
    code('location', "where the lot is held: service (a wallet of the service) or own_custody (the company's own wallet it was withdrawn to, wallet_id custody:<id>; as it left the service)", (r) => (isCustody(r.lot.walletId) ? 'own_custody' : 'service')),
  ],
  subtotals: {
    groupOf: (r) => `${r.lot.walletId}|${r.lot.currency}`,
    sums: ['units_base', 'units', 'cost_basis', 'fair_value', 'unrealized_gain'],
    mark: { column: 'origin', text: 'subtotal' },
    label: (first, rows, ctx) => ({
      wallet_id: first.lot.walletId,
      wallet_name: ctx.walletNames?.get(first.lot.walletId) ?? '',
      currency: first.lot.currency,
      lot_id: `subtotal: ${plural(rows, 'lot')}`,
      origin: 'subtotal',
    }),
    totalsBy: { column: 'currency', label: (currency, wallets, ctx) => ({ currency, lot_id: `total ${displayCurrency(currency, ctx.assetNames)}: ${plural(wallets, 'wallet')}`, origin: 'total' }) },
  },
};
