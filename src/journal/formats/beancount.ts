/**
 * Beancount: BTC held in SATS with three decimals (msat precision), each wallet posting priced at
 * its books-currency total with `@@`, every other posting in the books' currency — so each
 * transaction balances exactly in the books' currency without lot booking. The rate, its source
 * and time are transaction metadata; the entry number is a link (`^JE-2026-10-00001`) and its internal id metadata.
 */
import { formatBase } from '../../money/format.js';
import { entryNumberOf } from '../entry-sequence.js';
import type { JournalEntry, JournalLine } from '../model.js';
import { books, ledgerName, oneLine, type FormatContext } from './format-context.js';

export const BEANCOUNT_FILE = 'journal.beancount';

export function beancountHeader(ctx: FormatContext): string {
  const accounts = [...new Set(Object.values(ctx.config.accounts).map((a) => a.ledger))].sort();
  return [
    `; payexport journal, period ${oneLine(ctx.period)} (docs/journal.md)`,
    `option "title" "payexport ${oneLine(ctx.period)}"`,
    `option "operating_currency" "${ctx.config.booksCurrency}"`,
    '',
    `${ctx.openDate} commodity SATS`,
    '  name: "satoshi (1e-8 BTC), three decimals = msats"',
    '',
    ...accounts.map((a) => `${ctx.openDate} open ${a}`),
    '',
    '',
  ].join('\n');
}

export function beancountEntry(ctx: FormatContext, entry: JournalEntry): string {
  const out = [`${entry.date} * "${oneLine(entry.narration)}" ^${entryNumberOf(entry)}`];
  out.push(`  entry_no: "${entryNumberOf(entry)}"`);
  out.push(`  entry_id: "${entry.entryNo}"`);
  out.push(`  wallet_id: "${entry.walletId}"`);
  if (entry.paymentId !== null) out.push(`  payment_id: "${oneLine(entry.paymentId)}"`);
  if (entry.ledgerRef !== null) out.push(`  ledger_entry: "${oneLine(entry.ledgerRef)}"`);
  out.push(`  posted_at: "${entry.postedAt}"`);
  if (entry.valuation !== null) {
    out.push(`  rate: "${oneLine(entry.valuation.text)}"`);
    out.push(`  rate_source: "${entry.valuation.source}"`);
    out.push(`  rate_at: "${entry.valuation.at}"`);
  }
  for (const line of entry.lines) out.push(`  ${ledgerName(ctx, line.account).padEnd(44)} ${posting(ctx, line)}`);
  return `${out.join('\n')}\n\n`;
}

function posting(ctx: FormatContext, line: JournalLine): string {
  const sign = line.side === 'debit' ? '' : '-';
  const fiat = `${books(ctx, line.amount ?? 0n)} ${ctx.config.booksCurrency}`;
  if (line.component !== 'wallet' || line.source === null || ctx.display.commodity(line.source.currency) === ctx.config.booksCurrency) return `${sign}${fiat}`;
  const quantity = formatBase(line.source.amount, ctx.display.decimals(line.source.currency));
  return `${sign}${quantity} ${ctx.display.commodity(line.source.currency)} @@ ${fiat}`;
}
