/**
 * A currency pair as the price cache and the policy name it: `BTC-USD` = the price of one BTC in
 * USD. Codes are upper case; the journal's lowercase currency `btc` is the base `BTC`.
 */
export interface PricePair {
  base: string;
  quote: string;
}

const PAIR = /^([A-Z]{3,5})-([A-Z]{3})$/;

export function parsePair(text: string): PricePair | null {
  const m = PAIR.exec(text);
  return m === null ? null : { base: m[1] as string, quote: m[2] as string };
}

export function pairKey(pair: PricePair): string {
  return `${pair.base}-${pair.quote}`;
}
