/**
 * Defensive readers over untyped wire values. Normalization is total: every reader returns a
 * value or null and records what went wrong as a flag, never throws (docs/style.md#7-normalization).
 */
import type { UtcInstant } from '../model/rows.js';
import { toUtcInstant } from '../model/instant.js';
import { tryParseBaseAmount } from '../money/amount-parser.js';
import { type Flags, token } from './flags.js';

export type WireObject = Record<string, unknown>;

/** The largest magnitude the service's int64/u-int64 amount fields can carry; beyond it is not an amount. */
export const WIRE_AMOUNT_MAX = 2n ** 64n - 1n;

export function asObject(value: unknown): WireObject | undefined {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as WireObject) : undefined;
}

export function isAbsent(value: unknown): boolean {
  return value === undefined || value === null;
}

/** `path.key`, or `key` at the root. */
export function at(path: string, key: string): string {
  return path === '' ? key : `${path}.${key}`;
}

/** Array element paths: `data.receipts[2]`. Unknown-field flags use `[]` so one new field gives one flag. */
export function index(path: string, i: number): string {
  return `${path}[${i}]`;
}

function generic(path: string): string {
  return path.replace(/\[\d+\]/g, '[]');
}

/** Flags every key of `obj` that `known` does not list (kept in `raw`, never dropped: API-10). */
export function flagUnknownFields(obj: WireObject, known: ReadonlySet<string>, path: string, flags: Flags): void {
  for (const key of Object.keys(obj)) {
    if (!known.has(key)) flags.add('unknown_field', generic(at(path, token(key))));
  }
}

/** A string field; absent → null (flagged when required); wrong type → null, flagged. */
export function readString(obj: WireObject, key: string, path: string, flags: Flags, required = false): string | null {
  const value = obj[key];
  if (isAbsent(value)) {
    if (required) flags.add('missing_field', at(path, key));
    return null;
  }
  if (typeof value !== 'string') {
    flags.add('malformed_value', at(path, key));
    return null;
  }
  if (required && value === '') {
    flags.add('missing_field', at(path, key));
    return null;
  }
  return value;
}

/** An RFC 3339 instant as a canonical UtcInstant; anything else → null, flagged. */
export function readInstant(obj: WireObject, key: string, path: string, flags: Flags, required = false): UtcInstant | null {
  const text = readString(obj, key, path, flags, required);
  if (text === null) return null;
  const instant = toUtcInstant(text);
  if (instant === null) flags.add('malformed_value', at(path, key));
  return instant;
}

export function readBoolean(obj: WireObject, key: string, path: string, flags: Flags, required = false): boolean | null {
  const value = obj[key];
  if (isAbsent(value)) {
    if (required) flags.add('missing_field', at(path, key));
    return null;
  }
  if (typeof value !== 'boolean') {
    flags.add('malformed_value', at(path, key));
    return null;
  }
  return value;
}

/** A non-amount integer (a count, basis points): strict grammar, within [min, max]. */
export function readCount(obj: WireObject, key: string, path: string, flags: Flags, bounds: { min: bigint; max: bigint }, required = false): bigint | null {
  const value = obj[key];
  if (isAbsent(value)) {
    if (required) flags.add('missing_field', at(path, key));
    return null;
  }
  const parsed = tryParseBaseAmount(value, at(path, key));
  if (!parsed.ok || parsed.value < bounds.min || parsed.value > bounds.max) {
    flags.add('malformed_value', at(path, key));
    return null;
  }
  return parsed.value;
}

/** A bare integer amount field (the deprecated `amount_msats`, `amount_sats`, ...): non-negative, ≤ u64. */
export function readLegacyInteger(obj: WireObject, key: string, path: string, flags: Flags): bigint | null | undefined {
  const value = obj[key];
  if (isAbsent(value)) return undefined;
  const parsed = tryParseBaseAmount(value, at(path, key), { nonNegative: true, maxAbs: WIRE_AMOUNT_MAX });
  if (!parsed.ok) {
    flags.add('malformed_amount', at(path, key));
    return null;
  }
  return parsed.value;
}

/** An array field; absent → []; not an array → [] flagged. */
export function readArray(obj: WireObject, key: string, path: string, flags: Flags): unknown[] {
  const value = obj[key];
  if (isAbsent(value)) return [];
  if (!Array.isArray(value)) {
    flags.add('malformed_value', at(path, key));
    return [];
  }
  return value;
}

/** A `Record<string, string>` (metadata); non-string values are dropped and flagged. */
export function readStringMap(obj: WireObject, key: string, path: string, flags: Flags): Record<string, string> | null {
  const value = obj[key];
  if (isAbsent(value)) return null;
  const map = asObject(value);
  if (!map) {
    flags.add('malformed_value', at(path, key));
    return null;
  }
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(map)) {
    if (typeof v === 'string') out[k] = v;
    else flags.add('malformed_value', at(at(path, key), token(k)));
  }
  return out;
}

/** Appends `value` to `list` when it is a new non-empty string. */
export function pushUnique(list: string[], value: unknown): void {
  if (typeof value === 'string' && value !== '' && !list.includes(value)) list.push(value);
}
