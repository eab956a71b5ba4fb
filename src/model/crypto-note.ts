/**
 * The Crypto assets note (ASU 2023-08, ASC 350-60-50) as data: every figure and sentence the sheet
 * shows. The subledger (src/lots/crypto-assets-note.ts) builds it from the books; the report folder
 * (src/sinks/crypto-note-sheet.ts) draws it. Amounts are books-currency minor units, units base
 * units; null is unknown (a lot without a basis, a movement without a price).
 */

/** One column of the holdings and the roll-forward: an asset at all its locations, or at one. */
export interface NoteFigures {
  lots: number;
  units: bigint;
  costBasis: bigint | null;
  /** the units at the closing price, rounded once */
  fairValue: bigint | null;
  /** the roll-forward: opening + additions − dispositions + transfers + remeasurement = closing (= fairValue) */
  opening: bigint | null;
  additions: bigint | null;
  dispositions: bigint | null;
  transfersNet: bigint | null;
  /** the remeasurement of the period, net (its gain or loss line is the asset's: NoteAsset.remeasurementIsGain) */
  remeasurement: bigint | null;
  units0: bigint;
  unitsAcquired: bigint;
  unitsDisposed: bigint;
  /** moved in − out (own custody, and between the service's wallets) */
  unitsTransferred: bigint;
}

/** What the disposals of the period realized against cost (ASC 350-60-50-4). */
export interface NoteRealized {
  proceeds: bigint | null;
  costBasis: bigint | null;
  /** Σ of the relief lines' gains, and of their losses (≤ 0), each apart */
  gains: bigint | null;
  losses: bigint | null;
  /** first event to the period's end, net */
  cumulative: bigint | null;
}

export interface NoteLocation {
  /** `service wallets` or `own custody` */
  label: string;
  figures: NoteFigures;
}

export interface NoteAsset {
  currency: string;
  /** BTC, USDT: the code a controller uses */
  ticker: string;
  name: string;
  network: string | null;
  /** decimals of a whole unit (BTC 11, an asset its decimal_display) */
  unitScale: number;
  /** the closing price behind the fair value, in words and as a number */
  price: { text: string; decimals: number; at: string; source: string } | null;
  /** the price is older than the configured age at the period's end (lots.price_stale) */
  priceStale: boolean;
  total: NoteFigures;
  /** the split beside the total: the service's wallets, the company's own custody (when it held any) */
  locations: NoteLocation[];
  /** the asset's net remeasurement is a gain: its figures go on the gains line, else the losses line (asset by asset, ASC 350-60-50-3) */
  remeasurementIsGain: boolean;
  realized: NoteRealized;
  /** no lots check found anything for this currency */
  ties: boolean;
  /** every lot held cost the closing price per unit: the unrealized gain is rounding alone */
  atClosingPrice: boolean;
}

export interface NoteWallet {
  name: string;
  ticker: string;
  unitScale: number;
  /** `fifo (default)` or `hifo, since 2026-10-15` */
  method: string;
  location: string;
  lots: number;
  units: bigint;
  costBasis: bigint | null;
  fairValue: bigint | null;
}

export interface NoteRestriction {
  holder: string;
  ticker: string;
  fairValue: bigint | null;
  nature: string;
  /** `until 31 March 2027 (151 days after the period's end)` or `no fixed end` */
  remaining: string;
  lapse: string;
}

export interface CryptoNote {
  entity: string;
  /** the period in words: `1 October 2026 to 31 October 2026` */
  periodWords: string;
  firstDayWords: string;
  lastDayWords: string;
  /** the as-of sentence: the end of the last day in the zone and in UTC */
  asOf: string;
  booksCurrency: string;
  minorUnits: number;
  assets: NoteAsset[];
  wallets: NoteWallet[];
  /** every change of method in the period: `Merchant payouts (BTC): fifo → hifo on 15 October 2026` */
  methodChanges: string[];
  /** the line the gains and losses are presented in, and the journal account behind it */
  incomeStatement: string;
  /** "none", each restriction, or null when the configuration does not say (flagged) */
  restrictions: 'none' | NoteRestriction[] | null;
  /** the nature of the additions and of the dispositions (ASC 350-60-50-4) */
  additionsWords: string;
  dispositionsWords: string;
  /** sentences under the holdings: rounding of a stablecoin at par, a stale price */
  holdingsNotes: string[];
  /** [term, what it means] */
  definitions: Array<[string, string]>;
}
