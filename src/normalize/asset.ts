/**
 * Wire NamedAsset (GET /organizations/{org}/assets) → AssetRow.
 */
import { Flags, token } from './flags.js';
import { ASSET_FIELDS } from './known-fields.js';
import { asObject, flagUnknownFields, readCount, readString } from './read.js';
import type { AssetRow } from '../model/rows.js';
import { KNOWN_NETWORKS } from './wallet.js';

/** OpenAPI `NamedAsset` → AssetRow; the currency spelling used on amounts is `asset:<hex lowercase>`. */
export function normalizeAsset(raw: unknown): AssetRow {
  const flags = new Flags();
  let a = asObject(raw);
  if (!a) {
    flags.add('malformed_value', 'asset');
    a = {};
  }
  flagUnknownFields(a, ASSET_FIELDS, '', flags);
  const hex = (readString(a, 'asset', '', flags, true) ?? '').toLowerCase();
  if (hex !== '' && !/^(?:[0-9a-f]{64}|[0-9a-f]{66})$/.test(hex)) flags.add('malformed_value', 'asset');
  const network = readString(a, 'network', '', flags, true) ?? '';
  if (network !== '' && !KNOWN_NETWORKS.has(network)) flags.add('unknown_network', token(network));
  // u-int8 per OpenAPI; an unreadable value leaves the asset without a display scale (0, flagged).
  const decimals = readCount(a, 'decimal_display', '', flags, { min: 0n, max: 255n }, true);
  return {
    currency: `asset:${hex}`,
    asset_id: hex,
    name: readString(a, 'name', '', flags, true) ?? '',
    network,
    decimal_display: decimals === null ? 0 : Number(decimals),
    flags: flags.toArray(),
  };
}
