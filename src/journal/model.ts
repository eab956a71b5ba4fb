/**
 * The canonical journal: one model every writer serializes (Beancount, hledger, the generic CSV,
 * QuickBooks Online, Xero). Amounts are never floats: each line carries its exact source amount
 * (base units of the wallet's currency: msats, cents, asset base units) and, once valued, integer
 * minor units of the books' currency. Sides carry the sign: every amount is ≥ 0.
 */
import type { EntryKind, JournalLine } from '../model/journal-record.js';
import type { UtcInstant } from '../model/rows.js';
import type { PriceLabel } from './price-file.js';

/** The line and its parts are the snapshot's record too, so they live with that port in model/. */
export type { EntryKind, JournalLine, LineComponent, Side, SourceAmount } from '../model/journal-record.js';

/** How an entry's source amounts became books-currency minor units. */
export interface Valuation {
  /** books minor units per source base unit, as the exact fraction num / den */
  num: bigint;
  den: bigint;
  /** `price_cache:<source>:<interval>` names the cache file the rate came from (docs/prices.md#policy) */
  source: 'native' | 'payment_quote' | PriceLabel;
  /** when the rate applies: the quote's payment, or the price file row used */
  at: UtcInstant;
  /** the rate as an accountant reads it, e.g. `86552.00 USD/BTC` */
  text: string;
  /** the rate alone, exact, as a plain decimal: books' currency per whole source unit (`86552.00`) */
  rate: string;
  /** what the rate is in: `USD/BTC` */
  unit: string;
}

export interface JournalEntry {
  /**
   * the internal id: short, stable, ≤ 21 characters, derived from the posting unit (payment +
   * ledger entry); the closed-period record and corrections are keyed by it
   */
  entryNo: string;
  /** the gapless number a person reads (`JE-2026-10-00001`, entry-sequence.ts), once the journal lists the entry */
  number?: string;
  kind: EntryKind;
  /** YYYY-MM-DD in the books' (reporting) time zone */
  date: string;
  postedAt: UtcInstant;
  walletId: string;
  /** null for deposits/withdrawals and remeasurements */
  paymentId: string | null;
  /** `<entry_type>:<entry_id>` of the ledger movement, or null */
  ledgerRef: string | null;
  narration: string;
  /** null when the entry needs a price (then its lines have amount null) */
  valuation: Valuation | null;
  lines: JournalLine[];
}

/** An entry whose every line has a books-currency amount: what the fiat formats accept. */
export function isValued(entry: JournalEntry): boolean {
  return entry.lines.every((l) => l.amount !== null);
}
