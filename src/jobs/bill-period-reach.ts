/**
 * The payments the bill checks need beyond the payments sweep (docs/reconciliation.md "Bill
 * checks"): the bills the report's window ties (model/bill-period.ts) are for the service's periods
 * in UTC, which reach past a window in another zone — and a week past a month's edge in any zone.
 * The pull asks per wallet once its sizing stage has stored the bills; the report stage computes the
 * same ranges from the same stored bills and reads their payments for the bills alone.
 */
import { billPaymentRanges, outsideOf, type InstantRange } from '../model/bill-period.js';
import type { ReportSource } from '../model/ports.js';
import type { BillRecord, WalletRow } from '../model/rows.js';
import type { Window } from '../model/window.js';

/** Per wallet: the creation ranges outside `paymentWindow` of the bill periods `window` ties. */
export function billPeriodReach(source: Pick<ReportSource, 'bills'>, organizationId: string, window: Window, paymentWindow: Window): (wallet: WalletRow) => Promise<InstantRange[]> {
  // read once, when the first wallet's chains are planned: after the sizing stage stored the bills
  let bills: Promise<BillRecord[]> | undefined;
  return async (wallet) => {
    bills ??= source.bills(organizationId, window);
    return billPaymentRanges(window, await bills, wallet).flatMap((range) => outsideOf(range, paymentWindow));
  };
}
