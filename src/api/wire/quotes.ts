/**
 * Quotes and exchanges: the cross-currency legs of USD wallets' payments.
 *
 * One part of the wire vocabulary (the service's JSON exactly as sent, snake_case): its
 * conventions and its check against spec/voltage-openapi.json are in ./amounts.ts.
 */

import type { WireAmount, WireCurrency, WireInt } from './amounts.js';

/** `<coefficient>e<scale>` = coefficient / 10^scale base units per 1 BTC. NOT scientific notation. */
export type WireRate = string;

/** OpenAPI `MarketQuote`. */
export interface WireMarketQuote {
  from: WireCurrency;
  to: WireCurrency;
  rate: WireRate;
  quoted_at: string;
  expires_at?: string | null;
}

/** OpenAPI `PeerQuote` (taproot asset RFQ). */
export interface WirePeerQuote {
  from: WireCurrency;
  to: WireCurrency;
  rfq: { id: number[]; rate: WireRate };
  peer: string;
  channel_scids?: WireInt[];
  expires_at: string;
}

/** OpenAPI `Quote`: tagged by `type`. */
export type WireQuote = { type: 'market_rate'; detail: WireMarketQuote } | { type: 'peer_rfq'; detail: WirePeerQuote };

/** OpenAPI `AmountExchange`: one conversion leg; `ledger_id` joins it to a hold or credit. */
export interface WireExchange {
  ledger_id: string;
  quote_id?: string | null;
  quote: WireQuote;
  from_amount: WireAmount;
  to_amount: WireAmount;
}
