import { AppError } from '../util/errors.js';

/**
 * The strict grammar for an integer amount in base units as it may arrive from the wire
 * (docs/reliability.md#api-misbehaviour-api, API-12..API-15):
 * - a JS number only when it is a safe integer (anything beyond 2^53 was already rounded by
 *   JSON.parse, so it is refused rather than trusted);
 * - a bigint (our lossless JSON parser's form for large integers, src/api/wire/amounts.ts `WireInt`);
 * - a canonical digit string `^-?(0|[1-9][0-9]*)$` (no sign `+`, no spaces, no separators,
 *   no exponent, no leading zeros, no fraction).
 * Everything else — `"1e3"`, `"1,000"`, `""`, `" 5"`, `"+5"`, `1.5`, NaN, Infinity, null,
 * booleans, objects — is rejected with the field path.
 */
const CANONICAL_INTEGER = /^-?(?:0|[1-9][0-9]*)$/;

export type AmountParseReason =
  | 'missing'
  | 'not_integer'
  | 'unsafe_number'
  | 'not_finite'
  | 'non_canonical_string'
  | 'wrong_type'
  | 'negative'
  | 'out_of_range';

/** A malformed amount on the wire: data that cannot be booked (exit 65 if it ever reaches the CLI). */
export class AmountParseError extends AppError {
  override readonly name = 'AmountParseError';
  constructor(
    readonly path: string,
    readonly reason: AmountParseReason,
    /** a short, printable rendering of the offending value (never the whole record) */
    readonly shown: string,
  ) {
    super('dataErr', 'malformed_amount', `malformed amount at ${path}: ${shown} (${reasonText[reason]})`, { details: { path, reason } });
  }
}

const reasonText: Record<AmountParseReason, string> = {
  missing: 'required amount is missing',
  not_integer: 'not an integer',
  unsafe_number: 'a JSON number beyond 2^53 has already lost precision',
  not_finite: 'not a finite number',
  non_canonical_string: 'expected digits only, optionally preceded by "-", without leading zeros',
  wrong_type: 'expected an integer',
  negative: 'must not be negative',
  out_of_range: 'outside the allowed range',
};

export interface AmountParseOptions {
  /** reject values below zero */
  nonNegative?: boolean;
  /** reject |value| above this bound */
  maxAbs?: bigint;
}

/** Parses `value` at `path`; throws AmountParseError. */
export function parseBaseAmount(value: unknown, path: string, options: AmountParseOptions = {}): bigint {
  const result = tryParseBaseAmount(value, path, options);
  if (result.ok) return result.value;
  throw result.error;
}

export type AmountParseResult = { ok: true; value: bigint } | { ok: false; error: AmountParseError };

/** Like parseBaseAmount, without throwing: normalization is total and turns failures into flags. */
export function tryParseBaseAmount(value: unknown, path: string, options: AmountParseOptions = {}): AmountParseResult {
  const parsed = parseUnbounded(value);
  if (typeof parsed === 'string') return { ok: false, error: new AmountParseError(path, parsed, show(value)) };
  if (options.nonNegative && parsed < 0n) return { ok: false, error: new AmountParseError(path, 'negative', show(value)) };
  if (options.maxAbs !== undefined && (parsed < 0n ? -parsed : parsed) > options.maxAbs) {
    return { ok: false, error: new AmountParseError(path, 'out_of_range', show(value)) };
  }
  return { ok: true, value: parsed };
}

function parseUnbounded(value: unknown): bigint | AmountParseReason {
  switch (typeof value) {
    case 'bigint':
      return value;
    case 'number':
      if (!Number.isFinite(value)) return 'not_finite';
      if (!Number.isInteger(value)) return 'not_integer';
      if (!Number.isSafeInteger(value)) return 'unsafe_number';
      return BigInt(value);
    case 'string':
      return CANONICAL_INTEGER.test(value) ? BigInt(value) : 'non_canonical_string';
    case 'undefined':
      return 'missing';
    default:
      return value === null ? 'missing' : 'wrong_type';
  }
}

/** A bounded, escaped rendering for messages: hostile strings stay short and visible. */
function show(value: unknown): string {
  if (typeof value === 'string') {
    const cut = value.length > 40 ? `${value.slice(0, 40)}…` : value;
    return JSON.stringify(cut);
  }
  if (typeof value === 'bigint') return `${value}n`;
  if (typeof value === 'number' || typeof value === 'boolean' || value === null || value === undefined) return String(value);
  return Array.isArray(value) ? 'an array' : 'an object';
}
