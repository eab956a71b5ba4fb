/**
 * The journal's fee expense as data, for the Overview (docs/reports.md "Overview"): per source
 * currency, what the journal's fee lines put on the network and processing fee accounts, in the
 * books' currency and in the source currency's base units. The journal (src/journal) builds it from
 * the lines it writes to journal.csv; the report folder (sinks/overview-fees.ts) draws it beside the
 * fees the company paid, so the Overview's fee figure is the books' figure.
 */

export interface JournalFeeCurrency {
  /** btc, usd, asset:<hex> */
  currency: string;
  /** books minor units, debits − credits of the valued fee lines */
  network: bigint;
  processing: bigint;
  /** the same lines in the source currency's base units */
  networkSource: bigint;
  processingSource: bigint;
  /** fee lines without a books-currency amount (the entry needs a price) */
  unvalued: number;
}

export interface JournalFees {
  booksCurrency: string;
  minorUnits: number;
  /** the fee accounts in the ledger naming: Expenses:Fees:Network */
  networkAccount: string;
  processingAccount: string;
  byCurrency: JournalFeeCurrency[];
}
