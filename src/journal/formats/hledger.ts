/**
 * hledger (and Ledger) journal: the same postings as the Beancount file — wallet postings in the
 * wallet's commodity priced with `@@` at their books-currency total, the rest in the books'
 * currency — with the entry number as the transaction code and metadata as `; key: value` tags.
 */
import { formatBase } from '../../money/format.js';
import { entryNumberOf } from '../entry-sequence.js';
import type { JournalEntry, JournalLine } from '../model.js';
import { books, ledgerName, oneLine, type FormatContext } from './format-context.js';

export const HLEDGER_FILE = 'journal.hledger';

export function hledgerHeader(ctx: FormatContext): string {
  const accounts = [...new Set(Object.values(ctx.config.accounts).map((a) => a.ledger))].sort();
  // Declared formats make `1.000 SATS` read as one sat, not a thousand with a thousands separator.
  const commodities = [...ctx.commodities, { symbol: ctx.config.booksCurrency, decimals: ctx.config.minorUnits }].filter((c, i, all) => all.findIndex((d) => d.symbol === c.symbol) === i);
  return [
    `; payexport journal, period ${oneLine(ctx.period)} (docs/journal.md)`,
    '',
    ...commodities.map((c) => `commodity 1000${c.decimals > 0 ? `.${'0'.repeat(c.decimals)}` : ''} ${commodity(c.symbol)}`),
    '',
    ...accounts.map((a) => `account ${a}`),
    '',
    '',
  ].join('\n');
}

export function hledgerEntry(ctx: FormatContext, entry: JournalEntry): string {
  const tags = [`entry_no: ${entryNumberOf(entry)}`, `entry_id: ${entry.entryNo}`, `wallet_id: ${entry.walletId}`];
  if (entry.paymentId !== null) tags.push(`payment_id: ${oneLine(entry.paymentId)}`);
  if (entry.ledgerRef !== null) tags.push(`ledger_entry: ${oneLine(entry.ledgerRef)}`);
  const out = [`${entry.date} * (${entryNumberOf(entry)}) ${oneLine(entry.narration)}`];
  for (const tag of tags) out.push(`    ; ${tag.replace(/,/g, ' ')}`);
  if (entry.valuation !== null) out.push(`    ; rate: ${oneLine(entry.valuation.text).replace(/,/g, ' ')} from ${entry.valuation.source} at ${entry.valuation.at}`);
  for (const line of entry.lines) out.push(`    ${ledgerName(ctx, line.account).padEnd(44)}  ${posting(ctx, line)}`);
  return `${out.join('\n')}\n\n`;
}

function commodity(symbol: string): string {
  return /^[A-Za-z]+$/.test(symbol) ? symbol : `"${symbol}"`;
}

function posting(ctx: FormatContext, line: JournalLine): string {
  const sign = line.side === 'debit' ? '' : '-';
  const fiat = `${books(ctx, line.amount ?? 0n)} ${commodity(ctx.config.booksCurrency)}`;
  if (line.component !== 'wallet' || line.source === null || ctx.display.commodity(line.source.currency) === ctx.config.booksCurrency) return `${sign}${fiat}`;
  const quantity = formatBase(line.source.amount, ctx.display.decimals(line.source.currency));
  return `${sign}${quantity} ${commodity(ctx.display.commodity(line.source.currency))} @@ ${fiat}`;
}
