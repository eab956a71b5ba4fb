import type { Handler } from './context.js';
import { billSummary, getBill, listBills } from './handlers/bills.js';
import { checkPayment, createPayment, createTreasuryMovement, environmentSummary, getPayment, listPayments, walletLedger, walletSummary } from './handlers/payments.js';
import { createQuote, createWebhook, getQuote, listQuotes } from './handlers/quotes-webhooks.js';
import { abandonDelivery, deliverySummary, getDelivery, listDeliveries, retryDelivery, rotateWebhookKey } from './handlers/webhook-deliveries.js';
import { createWallet, deleteWallet, getPolicies, getWallet, listAssets, listWallets, updatePolicies, updateWallet } from './handlers/wallets.js';

/**
 * The endpoints, relative to `/v1` (docs/service-facts.md#endpoints 1-18, plus GET of quotes). Path
 * parameters in braces are UUIDs; a malformed one is 400 invalid_parameter.
 */
export interface Route {
  method: string;
  pattern: string;
  operation: string;
  handler: Handler;
}

export const ROUTES: readonly Route[] = [
  { method: 'GET', pattern: '/organizations/{organization_id}/assets', operation: 'get_all_organization_supported_assets', handler: listAssets },
  { method: 'GET', pattern: '/organizations/{organization_id}/bills', operation: 'get_bills_as_user', handler: listBills },
  { method: 'GET', pattern: '/organizations/{organization_id}/bills/summary', operation: 'get_bill_summary_as_user', handler: billSummary },
  { method: 'GET', pattern: '/organizations/{organization_id}/bills/{bill_id}', operation: 'get_bill_as_user', handler: getBill },
  { method: 'GET', pattern: '/organizations/{organization_id}/wallets', operation: 'get_all_organizations_wallets_as_user', handler: listWallets },
  { method: 'POST', pattern: '/organizations/{organization_id}/wallets', operation: 'create_wallet', handler: createWallet },
  { method: 'GET', pattern: '/organizations/{organization_id}/wallets/{wallet_id}', operation: 'get_wallet', handler: getWallet },
  { method: 'DELETE', pattern: '/organizations/{organization_id}/wallets/{wallet_id}', operation: 'delete_wallet', handler: deleteWallet },
  { method: 'PATCH', pattern: '/organizations/{organization_id}/wallets/{wallet_id}', operation: 'update_wallet', handler: updateWallet },
  { method: 'GET', pattern: '/organizations/{organization_id}/wallets/{wallet_id}/ledger', operation: 'get_wallet_ledger_as_user', handler: walletLedger },
  { method: 'GET', pattern: '/organizations/{organization_id}/wallets/{wallet_id}/policies', operation: 'get_wallet_policies', handler: getPolicies },
  { method: 'PATCH', pattern: '/organizations/{organization_id}/wallets/{wallet_id}/policies', operation: 'update_wallet_policies', handler: updatePolicies },
  { method: 'GET', pattern: '/organizations/{organization_id}/wallets/{wallet_id}/payments/summary', operation: 'get_wallet_payment_summary', handler: walletSummary },
  { method: 'GET', pattern: '/organizations/{organization_id}/environments/{environment_id}/payments', operation: 'get_payments', handler: listPayments },
  { method: 'POST', pattern: '/organizations/{organization_id}/environments/{environment_id}/payments', operation: 'create_payment', handler: createPayment },
  { method: 'POST', pattern: '/organizations/{organization_id}/environments/{environment_id}/treasury_movements', operation: 'create_treasury_movement', handler: createTreasuryMovement },
  { method: 'POST', pattern: '/organizations/{organization_id}/environments/{environment_id}/payments/check', operation: 'check_payment', handler: checkPayment },
  { method: 'GET', pattern: '/organizations/{organization_id}/environments/{environment_id}/payments/summary', operation: 'get_payment_summary', handler: environmentSummary },
  { method: 'GET', pattern: '/organizations/{organization_id}/environments/{environment_id}/payments/{payment_id}', operation: 'get_payment', handler: getPayment },
  { method: 'POST', pattern: '/organizations/{organization_id}/environments/{environment_id}/webhooks', operation: 'create_webhook', handler: createWebhook },
  { method: 'POST', pattern: '/organizations/{organization_id}/environments/{environment_id}/webhooks/{webhook_id}/keys', operation: 'generate_webhook_key', handler: rotateWebhookKey },
  { method: 'GET', pattern: '/organizations/{organization_id}/environments/{environment_id}/webhooks/{webhook_id}/deliveries', operation: 'get_webhook_deliveries_as_user', handler: listDeliveries },
  { method: 'GET', pattern: '/organizations/{organization_id}/environments/{environment_id}/webhooks/{webhook_id}/deliveries/summary', operation: 'get_webhook_delivery_summary_as_user', handler: deliverySummary },
  { method: 'GET', pattern: '/organizations/{organization_id}/environments/{environment_id}/webhooks/{webhook_id}/deliveries/{delivery_id}', operation: 'get_webhook_delivery', handler: getDelivery },
  { method: 'POST', pattern: '/organizations/{organization_id}/environments/{environment_id}/webhooks/{webhook_id}/deliveries/{delivery_id}/retry', operation: 'retry_webhook_delivery', handler: retryDelivery },
  { method: 'POST', pattern: '/organizations/{organization_id}/environments/{environment_id}/webhooks/{webhook_id}/deliveries/{delivery_id}/abandon', operation: 'abandon_webhook_delivery', handler: abandonDelivery },
  { method: 'POST', pattern: '/organizations/{organization_id}/environments/{environment_id}/quotes', operation: 'request_a_quote', handler: createQuote },
  { method: 'GET', pattern: '/organizations/{organization_id}/environments/{environment_id}/quotes', operation: 'get_quotes_as_user', handler: listQuotes },
  { method: 'GET', pattern: '/organizations/{organization_id}/environments/{environment_id}/quotes/{quote_id}', operation: 'get_a_quote_as_user', handler: getQuote },
];

interface Compiled {
  route: Route;
  segments: string[];
}

const COMPILED: Compiled[] = ROUTES.map((route) => ({ route, segments: route.pattern.split('/').slice(1) }));

export type RouteMatch = { route: Route; params: Record<string, string> } | { route: null; methodMismatch: boolean };

/** Literal segments win over parameters (`/payments/summary` before `/payments/{payment_id}`). */
export function matchRoute(method: string, path: string): RouteMatch {
  const parts = path.split('/').slice(1);
  let best: { route: Route; params: Record<string, string>; literals: number } | null = null;
  let pathMatched = false;
  for (const { route, segments } of COMPILED) {
    if (segments.length !== parts.length) continue;
    const params: Record<string, string> = {};
    let literals = 0;
    let ok = true;
    for (let i = 0; i < segments.length && ok; i++) {
      const seg = segments[i] as string;
      const part = parts[i] as string;
      if (seg.startsWith('{')) params[seg.slice(1, -1)] = safeDecode(part);
      else if (seg === part) literals++;
      else ok = false;
    }
    if (!ok) continue;
    pathMatched = true;
    if (route.method !== method) continue;
    if (!best || literals > best.literals) best = { route, params, literals };
  }
  return best ? { route: best.route, params: best.params } : { route: null, methodMismatch: pathMatched };
}

/** A malformed %-escape stays as it is; the UUID check then rejects it with 400. */
function safeDecode(part: string): string {
  try {
    return decodeURIComponent(part);
  } catch {
    return part;
  }
}
