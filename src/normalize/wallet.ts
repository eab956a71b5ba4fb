/**
 * Wire Wallet → WalletRow.
 */
import { NETWORKS } from '../api/wire/enums.js';
import { unitOf } from '../money/units.js';
import { readAmount, readCurrency } from './amount.js';
import { Flags, token } from './flags.js';
import { BALANCE_FIELDS, WALLET_FIELDS } from './known-fields.js';
import {
  asObject,
  at,
  flagUnknownFields,
  index,
  readArray,
  readBoolean,
  readCount,
  readInstant,
  readString,
  readStringMap,
  WIRE_AMOUNT_MAX,
} from './read.js';
import type { WalletBalanceRow, WalletRow } from '../model/rows.js';

export interface WalletContext {
  organization_id: string;
}

export const KNOWN_NETWORKS: ReadonlySet<string> = new Set(NETWORKS);

export function normalizeWallet(raw: unknown, ctx: WalletContext): WalletRow {
  const flags = new Flags();
  let w = asObject(raw);
  if (!w) {
    flags.add('malformed_value', 'wallet');
    w = {};
  }
  flagUnknownFields(w, WALLET_FIELDS, '', flags);

  const wallet_id = readString(w, 'id', '', flags, true) ?? '';
  let organization_id = readString(w, 'organization_id', '', flags) ?? ctx.organization_id;
  if (organization_id !== ctx.organization_id && ctx.organization_id !== '') {
    flags.add('context_mismatch', 'organization_id');
  }
  if (organization_id === '') organization_id = ctx.organization_id;

  const network = readString(w, 'network', '', flags, true) ?? '';
  if (network !== '' && !KNOWN_NETWORKS.has(network)) flags.add('unknown_network', token(network));

  const balances: WalletBalanceRow[] = [];
  readArray(w, 'balances', '', flags).forEach((item, i) => {
    const balance = readBalance(item, index('balances', i), flags);
    if (balance) balances.push(balance);
  });
  balances.sort((a, b) => (a.currency < b.currency ? -1 : a.currency > b.currency ? 1 : 0));

  return {
    wallet_id,
    organization_id,
    environment_id: readString(w, 'environment_id', '', flags, true) ?? '',
    name: readString(w, 'name', '', flags) ?? '',
    active: readBoolean(w, 'active', '', flags, true) ?? false,
    network,
    line_of_credit_id: readString(w, 'line_of_credit_id', '', flags),
    // `limit` is "a numeric limit given at creation"; its unit is not published: kept as given.
    limit_base: readCount(w, 'limit', '', flags, { min: 0n, max: WIRE_AMOUNT_MAX }),
    created_at: readInstant(w, 'created_at', '', flags, true) ?? '',
    updated_at: readInstant(w, 'updated_at', '', flags, true) ?? '',
    deleted_at: readInstant(w, 'deleted_at', '', flags),
    metadata: readStringMap(w, 'metadata', '', flags),
    balances,
    // the wallet object carries no policy: discovery reads it (endpoint 8, wallet-policy.ts)
    fee_policy: null,
    flags: flags.toArray(),
    raw,
  };
}

/**
 * One OpenAPI `Balance`: `available` and `total` are SignedAmounts (negative:true negates).
 * A balance whose figures cannot be read is dropped from `balances` and flagged: a null balance
 * must not look like a zero one.
 */
function readBalance(item: unknown, path: string, flags: Flags): WalletBalanceRow | null {
  const b = asObject(item);
  if (!b) {
    flags.add('malformed_value', path);
    return null;
  }
  flagUnknownFields(b, BALANCE_FIELDS, path, flags);
  const currency = readCurrency(b['currency'], at(path, 'currency'), flags);
  const available = readAmount(b['available'], at(path, 'available'), flags);
  const total = readAmount(b['total'], at(path, 'total'), flags);
  if (available === undefined) flags.add('missing_field', at(path, 'available'));
  if (total === undefined) flags.add('missing_field', at(path, 'total'));
  for (const [key, amount] of [['available', available], ['total', total]] as const) {
    if (amount?.currency && currency && amount.currency !== currency) flags.add('currency_mismatch', at(path, key));
  }
  const effective_time = readInstant(b, 'effective_time', path, flags, true);
  const availableBase = available?.base ?? null;
  const totalBase = total?.base ?? null;
  if (currency === null || availableBase === null || totalBase === null || effective_time === null) return null;
  if (available?.currency !== currency || total?.currency !== currency) return null;
  return { currency, unit: unitOf(currency), available_base: availableBase, total_base: totalBase, effective_time };
}
