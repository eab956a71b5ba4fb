/**
 * The journal's fee expense as it is written to journal.csv (model/journal-fees.ts): the
 * network_fee and processing_fee lines summed per source currency, debits − credits, in the books'
 * currency and in source base units. Fed by JournalWriters.detail, so an amended or rebuilt journal
 * gives the figure of the file it wrote, not of the entries it considered.
 */
import type { JournalFees, JournalFeeCurrency } from '../model/journal-fees.js';
import type { JournalLine } from './model.js';

export class FeeExpense {
  private readonly sums = new Map<string, JournalFeeCurrency>();

  constructor(
    private readonly booksCurrency: string,
    private readonly minorUnits: number,
    private readonly networkAccount: string,
    private readonly processingAccount: string,
  ) {}

  add(line: JournalLine): void {
    if ((line.component !== 'network_fee' && line.component !== 'processing_fee') || line.source === null) return;
    const currency = line.source.currency;
    let s = this.sums.get(currency);
    if (s === undefined) {
      s = { currency, network: 0n, processing: 0n, networkSource: 0n, processingSource: 0n, unvalued: 0 };
      this.sums.set(currency, s);
    }
    const sign = line.side === 'debit' ? 1n : -1n;
    const network = line.component === 'network_fee';
    if (network) s.networkSource += sign * line.source.amount;
    else s.processingSource += sign * line.source.amount;
    if (line.amount === null) s.unvalued += 1;
    else if (network) s.network += sign * line.amount;
    else s.processing += sign * line.amount;
  }

  /** btc first, then usd, then assets by id: the order of the Overview's other tables */
  result(): JournalFees {
    const rank = (c: string): string => (c === 'btc' ? '0' : c === 'usd' ? '1' : `2${c}`);
    const byCurrency = [...this.sums.values()].sort((a, b) => (rank(a.currency) < rank(b.currency) ? -1 : rank(a.currency) > rank(b.currency) ? 1 : 0));
    return { booksCurrency: this.booksCurrency, minorUnits: this.minorUnits, networkAccount: this.networkAccount, processingAccount: this.processingAccount, byCurrency };
  }
}
