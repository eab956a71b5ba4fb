import { CATEGORY_NAMES, DIRECTION_NAMES, KIND_NAMES, STATUS_NAMES } from '../dataset/codes.js';
import type { PaymentFilter } from '../dataset/payment-query.js';
import type { RequestContext } from './context.js';
import type { CursorBinding } from './cursor.js';

/** OpenAPI `PaymentStatus` (the filter enum: no unknown values). */
const FILTER_STATUSES = STATUS_NAMES.slice(0, 7);

/**
 * The list/summary filters of the query string → a PaymentFilter, plus the canonical binding a
 * cursor is tied to. A wallet or line of credit that is not in this environment matches nothing
 * (200 with no items), as the service does.
 */
export function paymentFilterFrom(ctx: RequestContext, environmentIndex: number, options: { listFilters: boolean; walletIndex?: number }): { filter: PaymentFilter; binding: CursorBinding } {
  const q = ctx.query;
  const ds = ctx.state.dataset;
  const filter: PaymentFilter = { environmentIndex };
  const binding: CursorBinding = { environment_id: ds.environments[environmentIndex]?.id ?? '' };
  const nothing = new Set<number>();

  if (options.walletIndex !== undefined) filter.walletIndex = options.walletIndex;
  if (options.listFilters) {
    const walletId = q.uuid('wallet_id');
    if (walletId !== undefined) {
      binding['wallet_id'] = walletId;
      const w = ds.walletIndexOf(walletId);
      if (w === null || ds.wallets[w]?.environmentIndex !== environmentIndex) filter.walletSet = nothing;
      else filter.walletIndex = w;
    }
    const category = q.oneOf('payment_category', CATEGORY_NAMES);
    if (category !== undefined) {
      binding['payment_category'] = category;
      filter.category = CATEGORY_NAMES.indexOf(category);
    }
  }
  if (options.walletIndex === undefined) {
    const locId = q.uuid('line_of_credit_id');
    if (locId !== undefined) {
      binding['line_of_credit_id'] = locId;
      const loc = ds.linesOfCredit.find((l) => l.id === locId && l.environmentIndex === environmentIndex);
      const set = new Set(loc ? ds.wallets.filter((w) => w.lineOfCreditIndex === loc.index).map((w) => w.index) : []);
      filter.walletSet = filter.walletSet === nothing ? nothing : set;
    }
  }
  const metadata = q.deepObject('metadata');
  if (metadata.length > 0) {
    filter.metadata = metadata;
    binding['metadata'] = JSON.stringify([...metadata].sort());
  }
  const statuses = q.list('statuses', FILTER_STATUSES);
  if (statuses !== undefined) {
    filter.statuses = new Set(statuses.map((s) => STATUS_NAMES.indexOf(s)));
    binding['statuses'] = [...new Set(statuses)].sort().join(',');
  }
  const kind = q.oneOf('kind', KIND_NAMES);
  if (kind !== undefined) {
    filter.kind = KIND_NAMES.indexOf(kind);
    binding['kind'] = kind;
  }
  const direction = q.oneOf('direction', DIRECTION_NAMES);
  if (direction !== undefined) {
    filter.direction = DIRECTION_NAMES.indexOf(direction);
    binding['direction'] = direction;
  }
  const start = q.instant('start_date');
  if (start !== undefined) {
    filter.startUs = start;
    binding['start_date'] = String(start);
  }
  const end = q.instant('end_date');
  if (end !== undefined) {
    filter.endUs = end;
    binding['end_date'] = String(end);
  }
  return { filter, binding };
}
