/**
 * Wire types: the payments service's JSON exactly as it sends it (snake_case), split by the
 * part of the API each file describes; this one holds the integers, currencies and amounts every
 * other part is made of.
 *
 * Source of truth: spec/voltage-openapi.json (components.schemas.*), with the legacy
 * shapes of docs/service-facts.md that the document no longer lists (old ledger
 * events with `amount_msats`, uppercase `BTC`). test/unit/api/wire-vs-openapi.test.ts checks
 * the declarations of every file of src/api/wire/ against the OpenAPI document.
 *
 * These types never leave api/, extract/, normalize/ and sim/ (docs/design.md#boundaries).
 * They describe what a well-behaved server sends; normalize/ still treats every value
 * defensively, because the real service adds enum values and fields without notice.
 */

/**
 * An integer as it comes out of our lossless JSON parser (src/api/json.ts): a safe integer stays a
 * `number`; anything beyond 2^53 arrives as a `bigint`, never rounded.
 */
export type WireInt = number | bigint;

/** `btc`, `usd` or `asset:<66 hex>`; old records may say `BTC` (docs/service-facts.md#amounts-and-fees). */
export type WireCurrency = string;

/** OpenAPI `Amount` (oneOf btc/usd/asset). `unit` is `msats`, `cents` or `base units` (with a space). */
export interface WireAmount {
  currency: WireCurrency;
  amount: WireInt;
  unit?: 'msats' | 'cents' | 'base units' | string;
  negative?: boolean;
}

/** OpenAPI `SignedAmount`: an Amount whose `negative` is required. */
export interface WireSignedAmount extends WireAmount {
  negative: boolean;
}
