/**
 * Amounts as memo text in the unit of journal.csv's source_amount column — BTC with 11 decimals
 * (msats exactly), USD with 2, an asset at its display decimals — so a memo and the columns beside
 * it speak one unit. The ledger commodities (SATS with three decimals, for Beancount and hledger)
 * are `commodity` and `decimals`. Exact (no rounding).
 */
import { formatBase } from '../money/format.js';
import type { SourceAmount } from './model.js';

export interface Display {
  /** an amount in the unit of the source_amount column: `0.00037775000 BTC`, `36.92 USD` */
  source(amount: SourceAmount): string;
  /** the ledger commodity of a source currency (SATS, USD, the asset's name) */
  commodity(currency: string): string;
  /** digits after the point of a commodity's quantities (SATS 3, USD 2, an asset's decimals) */
  decimals(currency: string): number;
}

export function makeDisplay(assetNames: ReadonlyMap<string, string>, assetDecimals: ReadonlyMap<string, number>): Display {
  const commodity = (currency: string): string => {
    if (currency === 'btc') return 'SATS';
    if (currency === 'usd') return 'USD';
    const name = (assetNames.get(currency) ?? '').toUpperCase().replace(/[^A-Z0-9]/g, '');
    // Beancount: starts with a capital letter, ≤ 24 characters
    return /^[A-Z]/.test(name) ? name.slice(0, 24) : `A${currency.replace(/^asset:/, '').slice(0, 10).toUpperCase()}`;
  };
  const decimals = (currency: string): number => (currency === 'btc' ? 3 : currency === 'usd' ? 2 : assetDecimals.get(currency) ?? 0);
  const unitDecimals = (currency: string): number => (currency === 'btc' ? 11 : decimals(currency));
  return {
    commodity,
    decimals,
    source: (a) => `${formatBase(a.amount, unitDecimals(a.currency))} ${a.currency === 'btc' ? 'BTC' : commodity(a.currency)}`,
  };
}
