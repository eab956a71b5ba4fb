/**
 * Amounts as memo text: msats as sats with three decimals, cents as dollars, asset base units at
 * the asset's display decimals; books minor units at the books' decimals. Exact (no rounding).
 */
import { formatBase } from '../money/format.js';
import type { SourceAmount } from './model.js';

export interface Display {
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
  return {
    commodity,
    decimals,
    source: (a) => `${formatBase(a.amount, decimals(a.currency))} ${commodity(a.currency)}`,
  };
}
