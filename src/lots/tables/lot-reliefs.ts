/**
 * lot-reliefs.csv: one row per relief line — one leg of one disposal (principal, network fee,
 * processing fee, transfer fee, withdrawal, swap) against one lot — with its proceeds (the
 * journal's value of the leg, shared over its lots by units), the cost relieved and the gain.
 */
import { formatBase } from '../../money/format.js';
import { baseAmount, code, decimal, id, instant, type TableSpec } from '../../model/column-spec.js';
import type { ReliefLine } from '../model.js';

export interface ReliefRow {
  line: ReliefLine;
  minorUnits: number;
}

const money = (v: bigint | null, scale: number): string | null => (v === null ? null : formatBase(v, scale));

export const LOT_RELIEFS_TABLE: TableSpec<ReliefRow> = {
  id: 'lot_reliefs',
  file: 'lot-reliefs.csv',
  sheet: 'Lot reliefs',
  rowIs: 'relief line: one leg of one disposal against one lot (docs/lots.md)',
  // printed one page across (docs/reports.md#printing-8-pt-or-more-on-a4-and-letter): which wallet, when sold and bought, how much, the gain and its term
  printColumns: ['wallet_name', 'disposed_at', 'acquired_at', 'units_base', 'proceeds', 'cost_basis', 'gain', 'term'],
  columns: [
    id('wallet_id', 'wallet UUID (lots are per wallet)', (r) => r.line.walletId),
    code('currency', 'the currency disposed of: btc or asset:<hex>', (r) => r.line.currency),
    id('disposal_ref', 'the disposing ledger movement: <entry_type>:<entry_id>', (r) => r.line.disposalRef),
    code('disposal_part', 'principal, network_fee, processing_fee, transfer_fee, withdrawal or swap', (r) => r.line.part),
    ...instant<ReliefRow>('disposed_at', 'the disposal (ledger movement) time', (r) => r.line.disposedAt),
    id('lot_id', 'the lot relieved (lots.csv); an unknown lot when the wallet held too little', (r) => r.line.lotId),
    ...instant<ReliefRow>('acquired_at', "the lot's acquisition time (kept across treasury transfers)", (r) => r.line.acquiredAt),
    baseAmount<ReliefRow>('units', 'units relieved from the lot', (r) => r.line.units, (r) => r.line.currency),
    { ...decimal('proceeds', "fair value received, in the books' currency (the journal's value of the leg); empty = needs a price", (r) => money(r.line.proceeds, r.minorUnits)), width: 14 },
    { ...decimal('cost_basis', "cost relieved from the lot, in the books' currency; empty = unknown basis", (r) => money(r.line.cost, r.minorUnits)), width: 14 },
    { ...decimal('gain', 'proceeds − cost_basis (negative = loss); empty when either is unknown', (r) => money(r.line.gain, r.minorUnits)), width: 14 },
    code('term', 'short or long (held more than one year)', (r) => r.line.term),
    // appended last so the earlier columns keep their places (docs/lots.md "Closed periods")
    code('late_from', 'the closed period (YYYY-MM) a late movement was effective in, disposed of here on the first open instant; empty for an ordinary disposal', (r) => r.line.lateFrom ?? null),
  ],
};
