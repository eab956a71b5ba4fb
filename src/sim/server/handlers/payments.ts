import { isUuid } from '../../core/ids.js';
import { stringifyPage } from '../../core/json.js';
import { ApiError, invalidParameter } from '../api-error.js';
import type { Handler, RequestContext } from '../context.js';
import type { CursorBinding } from '../cursor.js';
import { paymentFilterFrom } from '../payment-filter-params.js';
import { requireEnvironment, requireWallet, requireWrite } from '../scope.js';
import type { SortField } from '../../dataset/orderings.js';
import type { WriteMode } from '../../writes/payment-writer.js';

const SORT_KEYS = ['created_at', 'updated_at'] as const;
const SORT_ORDERS = ['ASC', 'DESC'] as const;

export function pageLimit(ctx: RequestContext): number {
  const limit = ctx.query.uint32('limit') ?? ctx.state.limits.defaultPageSize;
  const { maxPageSize, oversizedLimit } = ctx.state.limits;
  if (limit > maxPageSize && oversizedLimit === 'refuse') throw invalidParameter('limit', `at most ${maxPageSize}`);
  return Math.min(limit, maxPageSize);
}

/** GET …/environments/{env}/payments: offset (default, deprecated) or cursor pagination. */
export const listPayments: Handler = (ctx) => {
  const e = requireEnvironment(ctx);
  const q = ctx.query;
  const limit = pageLimit(ctx);
  const cursor = q.string('cursor');
  const pagination = q.oneOf('pagination', ['offset', 'cursor'] as const) ?? 'offset';
  const mode = cursor !== undefined ? 'cursor' : pagination;
  const { filter, binding } = paymentFilterFrom(ctx, e, { listFilters: true });
  const field: SortField = q.oneOf('sort_key', SORT_KEYS) ?? 'created_at';
  const order = q.oneOf('sort_order', SORT_ORDERS) ?? 'DESC';
  const bound: CursorBinding = { ...binding, sort_key: field, sort_order: order };
  const ds = ctx.state.dataset;

  if (mode === 'offset') {
    const offset = q.uint32('offset') ?? 0;
    const page = ds.listPayments(filter, field, order, { mode: 'offset', offset, limit });
    return { status: 200, json: stringifyPage(page.handles.map((h) => ds.renderPayment(h)), { offset, limit, total: page.total, has_more: page.hasMore }) };
  }

  const after = cursor === undefined ? null : ctx.state.cursors.decode(cursor, bound);
  const page = ds.listPayments(filter, field, order, { mode: 'cursor', after, limit });
  let items = page.handles;
  if (ctx.fault === 'gap' && page.handles.length > 1) {
    // damage: the page leaves out its last item while the cursor still points past it (API-02)
    items = page.handles.slice(0, -1);
    ctx.applied = 'gap';
  }
  let nextCursor: string | null = null;
  if (page.hasMore && page.handles.length > 0) {
    let lastIndex = page.handles.length - 1;
    if (ctx.fault === 'dup' && page.handles.length > 1) {
      // damage: the next page starts up to three items early, repeating them
      lastIndex = Math.max(0, lastIndex - Math.min(3, page.handles.length - 1));
      ctx.applied = 'dup';
    }
    const h = page.handles[lastIndex] as number;
    nextCursor = ctx.state.cursors.encode(bound, { key: field === 'created_at' ? ds.store.created(h) : ds.store.updated(h), id: ds.store.id(h) });
    if (ctx.fault === 'repeat' && cursor !== undefined) {
      nextCursor = cursor;
      ctx.applied = 'repeat';
    }
  }
  return { status: 200, json: stringifyPage(items.map((h) => ds.renderPayment(h)), { offset: 0, limit, next_cursor: nextCursor, has_more: page.hasMore }) };
};

/** GET …/environments/{env}/payments/{payment_id} */
export const getPayment: Handler = (ctx) => {
  const e = requireEnvironment(ctx);
  const id = ctx.params['payment_id'] ?? '';
  const ds = ctx.state.dataset;
  const h = ds.store.handleOf(id);
  if (h === null || ds.store.environmentIndex(h) !== e || !ctx.state.payments.isReadable(h)) {
    throw new ApiError(404, 'payment_not_found', 'Payment not found', { context: { payment_id: id } });
  }
  return { status: 200, body: ds.renderPayment(h) };
};

/** GET …/environments/{env}/payments/summary (OpenAPI `PaymentSummary`) */
export const environmentSummary: Handler = (ctx) => {
  const e = requireEnvironment(ctx);
  const { filter } = paymentFilterFrom(ctx, e, { listFilters: false });
  filter.excludeInactiveWallets = !(ctx.query.boolean('include_inactive') ?? false);
  return { status: 200, body: ctx.state.dataset.environmentSummary(filter) };
};

/** GET /organizations/{org}/wallets/{wallet}/payments/summary (OpenAPI `PaymentWalletSummary`) */
export const walletSummary: Handler = (ctx) => {
  const { index, wallet } = requireWallet(ctx);
  const { filter } = paymentFilterFrom(ctx, wallet.environmentIndex, { listFilters: false, walletIndex: index });
  filter.excludeInactiveWallets = !(ctx.query.boolean('include_inactive') ?? false);
  return { status: 200, body: ctx.state.dataset.walletSummary({ ...filter, walletIndex: index }) };
};

function writePayment(mode: WriteMode): Handler {
  return async (ctx) => {
    const e = requireEnvironment(ctx);
    requireWrite(ctx);
    ctx.state.payments.create(e, await ctx.body(), mode);
    return { status: 202 };
  };
}

export const createPayment = writePayment('payment');
export const createTreasuryMovement = writePayment('treasury');
export const checkPayment = writePayment('check');

/** GET …/wallets/{wallet}/ledger: offset pagination only, `{items, offset, limit, total}`. */
export const walletLedger: Handler = (ctx) => {
  const { index } = requireWallet(ctx);
  const q = ctx.query;
  const offset = q.uint32('offset') ?? 0;
  const limit = pageLimit(ctx);
  const paymentId = q.string('payment_id');
  if (paymentId !== undefined && !isUuid(paymentId)) throw invalidParameter('payment_id', 'expected a UUID');
  const start = q.instant('start_date');
  const end = q.instant('end_date');
  const sortKey = q.oneOf('sort_key', ['effective_time', 'message_time', 'time_and_effective_time'] as const) ?? 'effective_time';
  const sortOrder = q.oneOf('sort_order', SORT_ORDERS) ?? 'ASC';
  const ds = ctx.state.dataset;
  const page = ds.listLedger({ walletIndex: index, offset, limit, sortKey, sortOrder, ...(paymentId !== undefined ? { paymentId } : {}), ...(start !== undefined ? { startUs: start } : {}), ...(end !== undefined ? { endUs: end } : {}) });
  return { status: 200, json: stringifyPage(page.refs.map((ref) => ds.renderLedgerEntry(index, ref)), { offset, limit, total: page.total }) };
};

