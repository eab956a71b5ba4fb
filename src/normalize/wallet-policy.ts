/**
 * Wire WalletPolicies (endpoint 8) → the wallet's processing-fee policy: the rates the service
 * charges now, per direction. The service keeps no history of a policy — it shows the current
 * rates and when the policy last changed — so this is evidence of the rate in force today, not of
 * the rates of the past (reconcile/fee-rate-history.ts).
 */
import type { WalletRow } from '../model/rows.js';
import { Flags } from './flags.js';
import { asObject, at, index, readArray, readCount, readInstant, readString } from './read.js';

/**
 * ProcessingFeeRates (100 = 1 %; 0 explicitly disables the fee for that direction) and the
 * policy's updated_at: the rates are in force since then at the latest.
 */
export type WalletFeePolicy = NonNullable<WalletRow['fee_policy']>;

const BPS = { min: 0n, max: 10_000n };

/**
 * The processing-fee policy of a WalletPolicies body; null when the wallet has none (no policies at
 * all, or none of type `processing_fee`: a fee-free wallet) or when its rates cannot be read, which
 * is flagged (`malformed_value:policies[i].data.rates...`) on the wallet.
 */
export function normalizeFeePolicy(raw: unknown, flags: Flags = new Flags()): WalletFeePolicy | null {
  const body = asObject(raw);
  if (!body) {
    if (raw !== null && raw !== undefined) flags.add('malformed_value', 'policies');
    return null;
  }
  let found: WalletFeePolicy | null = null;
  readArray(body, 'policies', '', flags).forEach((item, i) => {
    const path = index('policies', i);
    const policy = asObject(item);
    if (!policy || readString(policy, 'type', path, flags) !== 'processing_fee' || found !== null) return;
    const data = asObject(policy['data']);
    const rates = data ? asObject(data['rates']) : undefined;
    if (!data || !rates) {
      flags.add('malformed_value', at(path, 'data.rates'));
      return;
    }
    const ratesPath = at(path, 'data.rates');
    const send = readCount(rates, 'send_basis_points', ratesPath, flags, BPS, true);
    const receive = readCount(rates, 'receive_basis_points', ratesPath, flags, BPS, true);
    if (send === null || receive === null) return;
    found = { send_bps: Number(send), receive_bps: Number(receive), updated_at: readInstant(data, 'updated_at', at(path, 'data'), flags) };
  });
  return found;
}
