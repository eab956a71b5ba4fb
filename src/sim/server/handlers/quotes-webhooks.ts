import { ApiError } from '../api-error.js';
import type { Handler } from '../context.js';
import { describeIssues, newQuoteSchema, newWebhookSchema } from '../../writes/request-schemas.js';
import { requireEnvironment, requireWrite } from '../scope.js';
import { pageLimit } from './payments.js';

/** POST …/environments/{env}/quotes: 202 with no body; read the result with GET …/quotes/{id}. */
export const createQuote: Handler = async (ctx) => {
  const e = requireEnvironment(ctx);
  requireWrite(ctx);
  const parsed = newQuoteSchema.safeParse(await ctx.body());
  if (!parsed.success) throw new ApiError(422, 'invalid_data', describeIssues(parsed.error));
  const request = parsed.data;
  const ds = ctx.state.dataset;
  if (ctx.state.quotes.get(request.id)) throw new ApiError(409, 'quote_already_exists', 'A quote with this id exists', { context: { quote_id: request.id } });
  const loc = ds.linesOfCredit.find((l) => l.id === request.line_of_credit_id.toLowerCase() && l.environmentIndex === e);
  if (!loc) throw new ApiError(400, 'invalid_quote_request', 'Unknown line of credit', { context: { fields: ['line_of_credit_id'] } });
  if (request.amount.currency !== loc.currency && request.to !== loc.currency) {
    throw new ApiError(400, 'mismatch_currency', 'The line of credit currency matches neither amount.currency nor to', {
      context: { line_of_credit_currency: loc.currency, source_currency: request.amount.currency, target_currency: request.to },
    });
  }
  if (request.amount.amount <= 0n) throw new ApiError(400, 'invalid_quote_request', 'amount must be greater than 0', { context: { fields: ['amount'] } });
  ctx.state.quotes.create({ id: request.id, environmentIndex: e, lineOfCreditId: loc.id, network: request.network, amount: { currency: request.amount.currency, amount: request.amount.amount }, to: request.to });
  return { status: 202 };
};

export const getQuote: Handler = (ctx) => {
  const e = requireEnvironment(ctx);
  const id = ctx.params['quote_id'] ?? '';
  const quote = ctx.state.quotes.get(id);
  if (!quote || quote.environmentIndex !== e) throw new ApiError(404, 'quote_not_found', 'Quote not found', { context: { quote_id: id } });
  return { status: 200, body: ctx.state.quotes.render(quote, ctx.state.dataset.organizationId) };
};

export const listQuotes: Handler = (ctx) => {
  const e = requireEnvironment(ctx);
  const offset = ctx.query.uint32('offset') ?? 0;
  const limit = pageLimit(ctx);
  const walletId = ctx.query.uuid('wallet_id');
  const all = ctx.state.quotes.list(e).filter((q) => walletId === undefined || q.walletId === walletId);
  const items = all.slice(offset, offset + limit).map((q) => ctx.state.quotes.render(q, ctx.state.dataset.organizationId));
  return { status: 200, body: { items, offset, limit, total: all.length } };
};

/** POST …/environments/{env}/webhooks: 202 with `{id, shared_secret}` (OpenAPI `WebhookPlainSecret`). */
export const createWebhook: Handler = async (ctx) => {
  const e = requireEnvironment(ctx);
  requireWrite(ctx);
  const parsed = newWebhookSchema.safeParse(await ctx.body());
  if (!parsed.success) throw new ApiError(422, 'invalid_data', describeIssues(parsed.error));
  const request = parsed.data;
  if (ctx.state.webhooks.has(request.id)) throw new ApiError(409, 'webhook_exists', 'A webhook with this id exists', { context: { webhook_id: request.id } });
  const registration = ctx.state.webhooks.register({ id: request.id, organizationId: ctx.state.dataset.organizationId, environmentIndex: e, url: request.url, name: request.name, events: request.events });
  return { status: 202, body: { id: registration.id, shared_secret: registration.sharedSecret } };
};
