/**
 * The Overview's crypto block as data (docs/reports.md "Overview"): per crypto currency the lots
 * hold, its units, cost basis, fair value, the period's realized gain, the unrealized gain at the
 * end, and whether its lots tie. The subledger (src/lots) builds it; the report folder
 * (sinks/overview-crypto.ts) draws it.
 */

export interface CryptoOverviewRow {
  /** BTC, USDT: the code a controller uses */
  ticker: string;
  lots: number;
  units: bigint;
  /** decimals of a whole unit (BTC 11, an asset its decimal_display) */
  unitScale: number;
  /** books minor units; null = unknown */
  costBasis: bigint | null;
  fairValue: bigint | null;
  realizedGain: bigint | null;
  unrealizedGain: bigint | null;
  /** no lots check found anything for this currency */
  ties: boolean;
}

export interface CryptoOverview {
  booksCurrency: string;
  minorUnits: number;
  /** the period's last day in words: "31 October 2026" */
  lastDay: string;
  rows: CryptoOverviewRow[];
  /** sentences under the table (e.g. why a stablecoin at par shows cents of unrealized gain) */
  notes: string[];
}
