/**
 * Money: an exact integer amount of base units of one currency (msats for `btc`, cents for `usd`,
 * base units for `asset:<hex>`). Arithmetic is BigInt and refuses to mix currencies: adding msats
 * to cents is a bug, never a conversion (docs/style.md#6-money; model: stripe-node src/Decimal.ts).
 */

export interface Money {
  /** lowercase currency code: `btc`, `usd`, `asset:<hex>` */
  readonly currency: string;
  /** signed integer amount in the currency's base unit */
  readonly base: bigint;
}

/** Thrown when two amounts of different currencies meet in one operation: always a bug in the caller. */
export class CurrencyMismatchError extends Error {
  override readonly name = 'CurrencyMismatchError';
  readonly type = 'currency_mismatch';
  constructor(
    readonly left: string,
    readonly right: string,
    operation: string,
  ) {
    super(`cannot ${operation} ${left} and ${right}: amounts of different currencies never mix`);
  }
}

export function money(currency: string, base: bigint): Money {
  if (typeof base !== 'bigint') throw new TypeError(`Money base must be a bigint, got ${typeof base}`);
  if (typeof currency !== 'string' || currency === '') throw new TypeError('Money currency must be a non-empty string');
  return { currency, base };
}

export function zero(currency: string): Money {
  return money(currency, 0n);
}

function same(a: Money, b: Money, operation: string): void {
  if (a.currency !== b.currency) throw new CurrencyMismatchError(a.currency, b.currency, operation);
}

export function add(a: Money, b: Money): Money {
  same(a, b, 'add');
  return money(a.currency, a.base + b.base);
}

export function subtract(a: Money, b: Money): Money {
  same(a, b, 'subtract');
  return money(a.currency, a.base - b.base);
}

export function negate(a: Money): Money {
  return money(a.currency, -a.base);
}

/** −1, 0 or 1, like a sort comparator. */
export function compare(a: Money, b: Money): -1 | 0 | 1 {
  same(a, b, 'compare');
  return a.base < b.base ? -1 : a.base > b.base ? 1 : 0;
}

export function equals(a: Money, b: Money): boolean {
  return compare(a, b) === 0;
}

export function isZero(a: Money): boolean {
  return a.base === 0n;
}

export function isNegative(a: Money): boolean {
  return a.base < 0n;
}

/** Exact sum of any number of amounts of `currency` (the currency is explicit so an empty list has one). */
export function sum(currency: string, amounts: Iterable<Money>): Money {
  let total = 0n;
  for (const amount of amounts) {
    if (amount.currency !== currency) throw new CurrencyMismatchError(currency, amount.currency, 'sum');
    total += amount.base;
  }
  return money(currency, total);
}
