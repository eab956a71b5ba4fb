/**
 * The invariant checked on every entry before any file is written: Σ debits = Σ credits, in the
 * source currency (the wallet leg equals its principal and fee legs to the base unit) and, once
 * valued, in books minor units. An entry that fails is an error finding and is written nowhere;
 * nothing downstream ever "fixes" it.
 */
import type { JournalEntry } from './model.js';

/** Why the entry does not balance, or null when it does. */
export function imbalance(entry: JournalEntry): string | null {
  if (entry.lines.length < 2) return `${entry.lines.length} line(s): an entry needs a debit and a credit`;
  const bySource = new Map<string, bigint>();
  let fiat = 0n;
  let valued = true;
  for (const line of entry.lines) {
    const sign = line.side === 'debit' ? 1n : -1n;
    if (line.source !== null) {
      if (line.source.amount < 0n) return `negative source amount on ${line.account}`;
      bySource.set(line.source.currency, (bySource.get(line.source.currency) ?? 0n) + sign * line.source.amount);
    }
    if (line.amount === null) valued = false;
    else if (line.amount < 0n) return `negative amount on ${line.account}`;
    else fiat += sign * line.amount;
  }
  for (const [currency, net] of bySource) if (net !== 0n && entry.kind === 'movement') return `source amounts in ${currency} differ by ${net} base units (debits − credits)`;
  if (valued && fiat !== 0n) return `books amounts differ by ${fiat} minor units (debits − credits)`;
  return null;
}
