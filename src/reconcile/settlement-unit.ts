import type { PaymentRow } from '../model/rows.js';

const MSATS_PER_SAT = 1_000n;

/**
 * The rail's settlement unit of a BTC payment whose amounts settle on chain, or null.
 *
 * On-chain amounts are whole sats (OpenAPI: "For on-chain amounts, use a multiple of 1,000
 * millisatoshis so the value is an exact number of satoshis"; receipts carry `amount_sats`), and
 * the processing fee of a fixed on-chain receive is part of what the payer sends on chain. So
 * "the server-calculated fee … including required base-unit rounding" is, on chain, a fee rounded
 * to a whole sat. That holds for `onchain` payments and for BIP21 payments that settled on chain
 * (an on-chain receipt or outflow: a tx id); a Lightning leg (bolt11, swaps) settles in msats.
 */
export function settlementUnitMsats(p: PaymentRow): bigint | null {
  if (p.currency !== 'btc' || p.principal_base === null || p.principal_base % MSATS_PER_SAT !== 0n) return null;
  if (p.kind === 'onchain' || (p.kind === 'bip21' && p.tx_ids.length > 0)) return MSATS_PER_SAT;
  return null;
}
