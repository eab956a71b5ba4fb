/**
 * The 1 January 2025 allocation (docs/tax.md "The 1 January 2025 allocation"): Rev. Proc. 2024-28
 * let a taxpayer allocate its unused basis to the digital asset units it held in each wallet or
 * account "as of January 1, 2025" — "immediately after the close of the taxpayer's day on December
 * 31, 2024" (section 3.10) — and requires records of the remaining units in each wallet and of the
 * units of unused basis, "the original cost basis of each such unit of unused basis, and the
 * acquisition date" (section 4.02(4), (5)); the allocation is irrevocable (section 4.02(6)).
 *
 * In payexport that allocation is the opening-lots file (lots.md "Opening position"): its rows
 * acquired on or before 31 December 2024 on the books' calendar are the units and basis the
 * allocation gave each wallet — an opening balance the wallet held, or the basis of units held
 * outside the service then and deposited later (a row with a `ref`). This lists them per wallet.
 */
import type { OpeningLot } from '../model.js';

/** the last day whose units the allocation covers, on the books' calendar */
export const ALLOCATION_LAST_DAY = '2024-12-31';

export interface AllocationRow {
  lot: OpeningLot;
  /** YYYY-MM-DD on the books' calendar */
  acquiredDay: string;
}

export function allocationRows(openings: readonly OpeningLot[], day: (instant: string) => string): AllocationRow[] {
  return openings
    .map((lot) => ({ lot, acquiredDay: day(lot.acquiredAt) }))
    .filter((r) => r.acquiredDay <= ALLOCATION_LAST_DAY)
    .sort((a, b) => (a.lot.walletId < b.lot.walletId ? -1 : a.lot.walletId > b.lot.walletId ? 1 : a.lot.currency < b.lot.currency ? -1 : a.lot.currency > b.lot.currency ? 1 : a.acquiredDay < b.acquiredDay ? -1 : a.acquiredDay > b.acquiredDay ? 1 : 0));
}
