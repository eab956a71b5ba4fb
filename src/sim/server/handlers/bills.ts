import { stringifyPage } from '../../core/json.js';
import { renderBillSummary, type SimBill } from '../../dataset/bills.js';
import { ApiError } from '../api-error.js';
import type { Handler, RequestContext } from '../context.js';
import type { CursorBinding } from '../cursor.js';
import { requireOrganization } from '../scope.js';

/**
 * Billing (OpenAPI tag Billing): GET …/bills (cursor pages, default 25, capped at 500), …/bills/{id}
 * and …/bills/summary. An environment-scoped key sees the bills of its environment's lines of credit.
 */

const STATUSES = ['payment_due', 'queued', 'processing', 'paid', 'void', 'failed'] as const;
const BILL_PAGE_DEFAULT = 25;
const BILL_PAGE_MAX = 500;

function visibleBills(ctx: RequestContext): { bills: SimBill[]; binding: CursorBinding; lineOfCreditId: string | null } {
  requireOrganization(ctx);
  const ds = ctx.state.dataset;
  const q = ctx.query;
  const loc = q.uuid('line_of_credit_id') ?? null;
  const statuses = q.list('statuses', STATUSES);
  const excludeZero = q.boolean('exclude_zero_amount_bills') ?? false;
  const scope = ctx.principal.environmentIndex;
  const bills = ds.bills.all().filter((b) => {
    const line = ds.linesOfCredit[b.period.lineOfCreditIndex];
    if (!line) return false;
    if (scope !== null && line.environmentIndex !== scope) return false;
    if (loc !== null && line.id !== loc) return false;
    if (statuses && !(statuses as readonly string[]).includes(b.status)) return false;
    return !(excludeZero && b.amtDue === 0n);
  });
  const binding: CursorBinding = { line_of_credit_id: loc ?? '', statuses: (statuses ?? []).join(','), exclude_zero_amount_bills: String(excludeZero), scope: String(scope) };
  return { bills, binding, lineOfCreditId: loc };
}

/** GET /organizations/{org}/bills */
export const listBills: Handler = (ctx) => {
  const { bills, binding } = visibleBills(ctx);
  const q = ctx.query;
  q.oneOf('sort_key', ['created_at'] as const);
  const order = q.oneOf('sort_order', ['ASC', 'DESC'] as const) ?? 'DESC';
  const limit = Math.min(q.uint32('limit') ?? BILL_PAGE_DEFAULT, BILL_PAGE_MAX);
  const bound: CursorBinding = { ...binding, sort_order: order };
  const ordered = order === 'ASC' ? bills : [...bills].reverse();
  const cursor = q.string('cursor');
  let start = 0;
  if (cursor !== undefined) {
    const after = ctx.state.cursors.decode(cursor, bound);
    const beyond = (b: SimBill): boolean => (order === 'ASC' ? b.createdUs > after.key || (b.createdUs === after.key && b.period.billId > after.id) : b.createdUs < after.key || (b.createdUs === after.key && b.period.billId < after.id));
    start = ordered.findIndex(beyond);
    if (start < 0) start = ordered.length;
  }
  const page = limit === 0 ? [] : ordered.slice(start, start + limit);
  const hasMore = start + page.length < ordered.length && page.length > 0;
  const last = page[page.length - 1];
  const nextCursor = hasMore && last ? ctx.state.cursors.encode(bound, { key: last.createdUs, id: last.period.billId }) : null;
  return { status: 200, json: stringifyPage(page.map((b) => b.wire), { limit, next_cursor: nextCursor, has_more: hasMore }) };
};

/** GET /organizations/{org}/bills/{bill_id} */
export const getBill: Handler = (ctx) => {
  const { bills } = visibleBills(ctx);
  const id = (ctx.params['bill_id'] ?? '').toLowerCase();
  const bill = bills.find((b) => b.period.billId === id);
  if (!bill) throw new ApiError(404, 'bill_not_found_in_organization', 'No bill found in the organization', { context: { organization_id: ctx.state.dataset.organizationId } });
  return { status: 200, body: bill.wire };
};

/** GET /organizations/{org}/bills/summary */
export const billSummary: Handler = (ctx) => {
  const { bills, lineOfCreditId } = visibleBills(ctx);
  return { status: 200, body: renderBillSummary(ctx.state.dataset.organizationId, lineOfCreditId, bills) };
};

