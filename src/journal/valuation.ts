/**
 * Which rate values a movement in the books' currency, in this order:
 *   1. native: the wallet already holds the books' currency (a USD wallet in USD books) — no rate;
 *   2. the payment's own quote (`exchanges[].quote` / `market_quote`), when it prices the wallet's
 *      currency in the books' currency (the rate the service actually applied);
 *   3. the user's price file for the currency, then the price cache's sources in the policy's
 *      order (docs/prices.md#policy): the last price at or before the movement, within each one's
 *      allowed staleness;
 *   else null: the entry "needs price".
 * A rate is the exact fraction num/den of books minor units per source base unit.
 */
import { parseRate } from '../money/rate.js';
import { formatBase } from '../money/format.js';
import { divRound, pow10 } from '../money/rounding.js';
import { MSATS_PER_BTC } from '../money/units.js';
import type { PaymentRow, UtcInstant } from '../model/rows.js';
import type { Valuation } from './model.js';
import type { PriceLookup } from './price-file.js';

export interface ValuationContext {
  booksCurrency: string;
  minorUnits: number;
  prices: ReadonlyMap<string, PriceLookup>;
  /** base units per whole display unit of a currency (1 BTC = 10^11 msats, 1 USD = 100 cents, an asset's 10^decimal_display) */
  baseUnitsPerWhole(currency: string): bigint | null;
  /** the display code of a currency (BTC, USD, USDT) */
  displayCode(currency: string): string;
}

export function valueMovement(ctx: ValuationContext, currency: string, at: UtcInstant, payment: PaymentRow | null): Valuation | null {
  const minor = pow10(ctx.minorUnits);
  if (currency === ctx.booksCurrency.toLowerCase()) {
    const perWhole = ctx.baseUnitsPerWhole(currency);
    const unit = `${ctx.booksCurrency}/${ctx.displayCode(currency)}`;
    if (perWhole !== null) return { num: minor, den: perWhole, source: 'native', at, text: `1 ${unit}`, rate: '1', unit };
  }
  const quoted = payment === null ? null : quoteValuation(ctx, currency, payment, at);
  if (quoted !== null) return quoted;
  return priceValuation(ctx, currency, at);
}

/** The payment's quote, if it is a BTC ↔ books-currency rate and the wallet holds BTC. */
function quoteValuation(ctx: ValuationContext, currency: string, payment: PaymentRow, at: UtcInstant): Valuation | null {
  if (currency !== 'btc' || payment.quote_rate === null) return null;
  const rate = parseRate(payment.quote_rate);
  if (rate === null) return null;
  const other = payment.quote_from === 'btc' ? payment.quote_to : payment.quote_to === 'btc' ? payment.quote_from : null;
  const books = ctx.booksCurrency.toLowerCase();
  const otherPerWhole = other === null ? null : ctx.baseUnitsPerWhole(other);
  if (other !== books || otherPerWhole === null) return null;
  // rate: coefficient / 10^scale base units of `other` per BTC
  const num = rate.coefficient * pow10(ctx.minorUnits);
  const den = pow10(rate.scale) * MSATS_PER_BTC * otherPerWhole;
  const perBtc = formatBase(divRound(rate.coefficient * 100n, pow10(rate.scale) * otherPerWhole, 'half_even'), 2);
  // base units per whole unit are powers of ten (units.ts), so the quote per whole BTC is an exact decimal
  // (trailing zeros dropped: the scale of the quote's text is no figure of the rate)
  const exact = formatBase(rate.coefficient, rate.scale + String(otherPerWhole).length - 1).replace(/(\.\d*?)0+$/, '$1').replace(/\.$/, '');
  return { num, den, source: 'payment_quote', at, text: `${perBtc} ${ctx.booksCurrency}/BTC${payment.quote_id ? ` (quote ${payment.quote_id})` : ''}`, rate: exact, unit: `${ctx.booksCurrency}/BTC` };
}

function priceValuation(ctx: ValuationContext, currency: string, at: UtcInstant): Valuation | null {
  const table = ctx.prices.get(currency);
  const perWhole = ctx.baseUnitsPerWhole(currency);
  if (table === undefined || perWhole === null) return null;
  const point = table.at(at);
  if (point === null) return null;
  return {
    num: point.digits * pow10(ctx.minorUnits),
    den: pow10(point.decimals) * perWhole,
    source: point.source,
    at: point.at,
    text: `${point.text} ${ctx.booksCurrency}/${ctx.displayCode(currency)}`,
    rate: point.text,
    unit: `${ctx.booksCurrency}/${ctx.displayCode(currency)}`,
  };
}
