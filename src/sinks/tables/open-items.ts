/**
 * open-items.csv / sheet "Open items": one row per payment that is not terminal yet (sending,
 * generating, receiving, ...), with its age at the end of the window so stale items stand out.
 */
import type { PaymentRow } from '../../model/rows.js';
import { count, fieldColumns, type SpecContext, type TableSpec } from '../../model/column-spec.js';
import { paymentIdentityColumns, paymentPrincipal } from './payments.js';

const cur = (r: PaymentRow): string => r.currency;
const MS_PER_DAY = 86_400_000;
const field = fieldColumns<PaymentRow>();

/** Whole days from creation to the end of the window (floored; 0 for items younger than a day). */
function ageDays(r: PaymentRow, ctx: SpecContext): number | null {
  const created = Date.parse(r.created_at.slice(0, 23) + 'Z');
  const asOf = Date.parse(ctx.asOf.slice(0, 23) + 'Z');
  if (Number.isNaN(created) || Number.isNaN(asOf)) return null;
  return Math.max(0, Math.floor((asOf - created) / MS_PER_DAY));
}

export const OPEN_ITEMS_TABLE: TableSpec<PaymentRow> = {
  id: 'open-items',
  file: 'open-items.csv',
  sheet: 'Open items',
  rowIs: 'payment not in a terminal status at the end of the window',
  // printed one page across (docs/reports.md#printing-8-pt-or-more-on-a4-and-letter): which payment is open, how old and how much
  printColumns: ['created_at', 'wallet_name', 'direction', 'kind', 'status', 'age_days', 'display_currency', 'total'],
  columns: [
    ...paymentIdentityColumns(),
    count('age_days', 'whole days between created_at and the end of the window', ageDays),
    ...paymentPrincipal,
    ...field.amount('total', 'amount debited or credited when the payment completes (as far as known)', cur),
    field.text('description', 'memo / label / description (free text)', 40),
  ],
};
