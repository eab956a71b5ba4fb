/**
 * Payment summaries (counts, not money) → SummaryBucketRow[]: one scope-total row (bucket fields
 * null) followed by that scope's buckets.
 *   environment summary (endpoint 14): the environment's total, then each line of credit's total and buckets
 *   wallet summary (endpoint 15):      the wallet's total and buckets
 * `by_organization_id` and `by_environment_id` repeat the top-level total at a coarser grain and are
 * not turned into rows.
 */
import { PAYMENT_DIRECTIONS, PAYMENT_KINDS, PAYMENT_STATUSES } from '../api/wire/enums.js';
import { readCurrency } from './amount.js';
import { Flags, token } from './flags.js';
import { BUCKET_FIELDS, ENVIRONMENT_SUMMARY_FIELDS, LINE_OF_CREDIT_SUMMARY_FIELDS, WALLET_SUMMARY_FIELDS } from './known-fields.js';
import { asObject, at, flagUnknownFields, index, readArray, readCount, readInstant, readString, WIRE_AMOUNT_MAX, type WireObject } from './read.js';
import type { SummaryBucketRow, SummaryScope } from '../model/rows.js';

export type SummaryContext =
  | { scope: 'environment'; environment_id: string }
  | { scope: 'wallet'; environment_id: string; wallet_id: string };

const DIRECTIONS: ReadonlySet<string> = new Set(PAYMENT_DIRECTIONS);
const STATUSES: ReadonlySet<string> = new Set(PAYMENT_STATUSES);
const KINDS: ReadonlySet<string> = new Set(PAYMENT_KINDS);

export function normalizeSummary(raw: unknown, ctx: SummaryContext): SummaryBucketRow[] {
  const top = new Flags();
  let s = asObject(raw);
  if (!s) {
    top.add('malformed_value', 'summary');
    s = {};
  }
  const environment_id = readString(s, 'environment_id', '', top) ?? ctx.environment_id;
  if (environment_id !== ctx.environment_id) top.add('context_mismatch', 'environment_id');

  if (ctx.scope === 'wallet') {
    flagUnknownFields(s, WALLET_SUMMARY_FIELDS, '', top);
    const wallet_id = readString(s, 'wallet_id', '', top) ?? ctx.wallet_id;
    if (wallet_id !== ctx.wallet_id) top.add('context_mismatch', 'wallet_id');
    return scopeRows('wallet', ctx.wallet_id, ctx.environment_id, s, '', top);
  }

  flagUnknownFields(s, ENVIRONMENT_SUMMARY_FIELDS, '', top);
  const rows = [totalRow('environment', ctx.environment_id, ctx.environment_id, s, '', top)];
  const lines = asObject(s['by_line_of_credit_id']);
  if (s['by_line_of_credit_id'] !== undefined && !lines) top.add('malformed_value', 'by_line_of_credit_id');
  const lineIds = Object.keys(lines ?? {}).sort();
  for (const lineId of lineIds) {
    const path = at('by_line_of_credit_id', lineId);
    const flags = new Flags();
    const line = asObject(lines?.[lineId]);
    if (!line) {
      flags.add('malformed_value', path);
      rows.push(totalRow('line_of_credit', lineId, ctx.environment_id, {}, path, flags));
      continue;
    }
    flagUnknownFields(line, LINE_OF_CREDIT_SUMMARY_FIELDS, path, flags);
    const lineEnvironment = readString(line, 'environment_id', path, flags) ?? ctx.environment_id;
    rows.push(...scopeRows('line_of_credit', lineId, lineEnvironment, line, path, flags));
  }
  return rows;
}

function scopeRows(scope: SummaryScope, scopeId: string, environmentId: string, s: WireObject, path: string, flags: Flags): SummaryBucketRow[] {
  // Buckets first, so a malformed `buckets` lands in the total row's flags.
  const buckets = readArray(s, 'buckets', path, flags).map((item, i) => bucketRow(scope, scopeId, environmentId, item, index(at(path, 'buckets'), i)));
  return [totalRow(scope, scopeId, environmentId, s, path, flags), ...buckets];
}

function totalRow(scope: SummaryScope, scopeId: string, environmentId: string, s: WireObject, path: string, flags: Flags): SummaryBucketRow {
  const count = readCount(s, 'total_count', path, flags, { min: 0n, max: WIRE_AMOUNT_MAX }, true);
  return {
    scope,
    scope_id: scopeId,
    environment_id: environmentId,
    direction: null,
    status: null,
    currency: null,
    kind: null,
    api_count: count ?? 0n,
    oldest_created_at: readInstant(s, 'oldest_created_at', path, flags),
    newest_created_at: readInstant(s, 'newest_created_at', path, flags),
    flags: flags.toArray(),
  };
}

function bucketRow(scope: SummaryScope, scopeId: string, environmentId: string, item: unknown, path: string): SummaryBucketRow {
  const flags = new Flags();
  let b = asObject(item);
  if (!b) {
    flags.add('malformed_value', path);
    b = {};
  }
  flagUnknownFields(b, BUCKET_FIELDS, path, flags);
  const direction = readString(b, 'direction', path, flags, true);
  if (direction !== null && !DIRECTIONS.has(direction)) flags.add('unknown_direction', token(direction));
  const status = readString(b, 'status', path, flags, true);
  if (status !== null && !STATUSES.has(status)) flags.add('unknown_status', token(status));
  const kind = readString(b, 'kind', path, flags, true);
  if (kind !== null && !KINDS.has(kind)) flags.add('unknown_kind', token(kind));
  const count = readCount(b, 'total_count', path, flags, { min: 0n, max: WIRE_AMOUNT_MAX }, true);
  return {
    scope,
    scope_id: scopeId,
    environment_id: environmentId,
    direction,
    status,
    currency: readCurrency(b['currency'], at(path, 'currency'), flags),
    kind,
    api_count: count ?? 0n,
    oldest_created_at: readInstant(b, 'oldest_created_at', path, flags),
    newest_created_at: readInstant(b, 'newest_created_at', path, flags),
    flags: flags.toArray(),
  };
}
