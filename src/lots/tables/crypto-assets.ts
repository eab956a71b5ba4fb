/**
 * crypto-assets.csv / sheet "Crypto assets": the ASU 2023-08 (ASC 350-60-50) disclosures per
 * crypto currency for the period — cost basis, fair value and units held at the end; the
 * roll-forward from opening to closing fair value; realized gains of the period and cumulative;
 * the cost-basis methods in use. The roll-forward adds up exactly:
 *   opening_fair_value + additions − dispositions + transfers_net + remeasurement_gain = closing_fair_value
 * over the service's wallets; what the company moved to its own custody wallets leaves them by
 * transfers_net and is shown beside, in the own_custody_* columns (docs/lots.md).
 */
import { formatBase } from '../../money/format.js';
import { baseAmount, code, decimal, text, type TableSpec } from '../../model/column-spec.js';

export interface CryptoAssetRow {
  currency: string;
  methods: string;
  units: bigint;
  costBasis: bigint | null;
  openingFairValue: bigint | null;
  additions: bigint | null;
  dispositions: bigint | null;
  transfersNet: bigint | null;
  remeasurementGain: bigint | null;
  closingFairValue: bigint | null;
  realizedGain: bigint | null;
  cumulativeRealizedGain: bigint | null;
  /** the lots at the company's own custody wallets (outside the roll-forward, which covers the service's wallets) */
  ownCustodyUnits: bigint;
  ownCustodyCost: bigint | null;
  ownCustodyFairValue: bigint | null;
  minorUnits: number;
}

const money = (v: bigint | null, scale: number): string | null => (v === null ? null : formatBase(v, scale));

export const CRYPTO_ASSETS_TABLE: TableSpec<CryptoAssetRow> = {
  id: 'crypto_assets',
  file: 'crypto-assets.csv',
  sheet: 'Crypto assets',
  rowIs: 'crypto currency held in the tracked wallets: the ASU 2023-08 disclosures for the period',
  // the sheet is the disclosure note laid out for a controller (crypto-assets-sheet.ts); this CSV keeps the machine names
  laidOut: true,
  columns: [
    code('currency', 'btc or asset:<hex>', (r) => r.currency),
    text('cost_basis_method', 'the methods in force at the window end, per wallet (fifo unless configured)', (r) => r.methods),
    baseAmount<CryptoAssetRow>('units', "units held at the window's end (Σ of lots.csv)", (r) => r.units, (r) => r.currency),
    decimal('cost_basis', "cost of the lots held at the window's end", (r) => money(r.costBasis, r.minorUnits)),
    decimal('opening_fair_value', "the opening balance at the period-start price (the journal's carrying value)", (r) => money(r.openingFairValue, r.minorUnits)),
    decimal('additions', "the journal's value of what came in (receives, swaps, deposits other than from own custody)", (r) => money(r.additions, r.minorUnits)),
    decimal('dispositions', "the journal's value of what went out (sends and their fees, withdrawals other than to own custody, transfer fees)", (r) => money(r.dispositions, r.minorUnits)),
    decimal('transfers_net', "treasury transfers between tracked wallets (value received − value sent, 0 unless the legs were valued at different rates), less withdrawals to the company's own custody, plus deposits back from it", (r) => money(r.transfersNet, r.minorUnits)),
    decimal('remeasurement_gain', "the period's fair-value remeasurement (the journal's remeasurement entries)", (r) => money(r.remeasurementGain, r.minorUnits)),
    decimal('closing_fair_value', "the units held at the period-end price (= the journal's wallet accounts + fair-value adjustment)", (r) => money(r.closingFairValue, r.minorUnits)),
    decimal('unrealized_gain', 'closing_fair_value − cost_basis', (r) => (r.closingFairValue === null || r.costBasis === null ? null : formatBase(r.closingFairValue - r.costBasis, r.minorUnits))),
    decimal('realized_gain', "Σ gain of the period's relief lines", (r) => money(r.realizedGain, r.minorUnits)),
    decimal('cumulative_realized_gain', 'Σ gain of every relief line up to the window end', (r) => money(r.cumulativeRealizedGain, r.minorUnits)),
    // appended last so the earlier columns keep their places (docs/lots.md "Withdrawals and own custody")
    baseAmount<CryptoAssetRow>('own_custody_units', "units withdrawn to the company's own custody wallets and not deposited back (lots.csv location own_custody), as they left the service", (r) => r.ownCustodyUnits, (r) => r.currency),
    decimal('own_custody_cost_basis', 'cost of those lots', (r) => money(r.ownCustodyCost, r.minorUnits)),
    decimal('own_custody_fair_value', 'those units at the period-end price', (r) => money(r.ownCustodyFairValue, r.minorUnits)),
  ],
};
