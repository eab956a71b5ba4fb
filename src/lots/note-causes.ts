/**
 * The cause and the instant of a `lots.basis_unknown` note, so the run lists one row per cause and
 * currency (src/reconcile/group-findings.ts). The causes are the subledger's own (subledger.ts,
 * period-run.ts, period-record.ts), told apart by the words each writes; the instant comes from the
 * lots and relief lines the note is about: when the unknown lot was acquired, or when the disposal
 * that drew on it happened. A note of a period recorded before these words keeps a cause of its own.
 */
import { lotId } from './lot-id.js';
import type { Lot, ReliefLine } from './model.js';
import type { LotNote } from './subledger.js';

type Kind = 'acquired' | 'disposed' | 'held';

const CAUSES: ReadonlyArray<{ pattern: RegExp; cause: string; kind: Kind; text: string }> = [
  { pattern: /: a deposit with no row in the opening-lots file; its \d+ base units form an unknown lot$/, cause: 'deposit_no_row', kind: 'acquired', text: 'were deposits with no row in the opening-lots file: each formed a lot of unknown basis' },
  { pattern: /: a deposit whose opening-lots row says its cost is unknown; its \d+ base units form an unknown lot$/, cause: 'deposit_cost_unknown', kind: 'acquired', text: "were deposits whose opening-lots row says the cost is unknown (write the cost there): each formed a lot of unknown basis" },
  { pattern: /: a (\w+) with no price; its \d+ base units form an unknown lot$/, cause: 'no_price', kind: 'acquired', text: 'were acquisitions with no price (payment quote, price file, price cache): each formed a lot of unknown basis' },
  { pattern: / more than the wallet's lots hold: they come from an unknown lot$/, cause: 'beyond_lots', kind: 'disposed', text: "were disposals of more units than the wallet's lots held: the rest came from a lot of unknown basis" },
  { pattern: / base units of unknown basis \(as recorded when the period closed\)$/, cause: 'relieved_unknown', kind: 'disposed', text: 'relieved units of unknown basis (as recorded when the period closed)' },
  { pattern: /\) has no known cost basis$/, cause: 'held_unknown', kind: 'held', text: 'are lots from before the period, still held, with no known cost basis' },
];

export function basisCause(message: string): { cause: string; text: string } {
  const found = CAUSES.find((c) => c.pattern.test(message));
  return found === undefined ? { cause: `other:${message}`, text: message } : { cause: found.cause, text: found.text };
}

/** The instant of each note: its lot's acquisition, or its disposal. */
export function noteInstants(closing: readonly Lot[], reliefs: readonly ReliefLine[]): (note: LotNote) => string | null {
  const acquired = new Map<string, string>();
  const disposed = new Map<string, string>();
  for (const l of closing) acquired.set(l.lotId, l.acquiredAt);
  for (const r of reliefs) {
    if (!acquired.has(r.lotId)) acquired.set(r.lotId, r.acquiredAt);
    if (!disposed.has(`${r.walletId}|${r.disposalRef}`)) disposed.set(`${r.walletId}|${r.disposalRef}`, r.disposedAt);
  }
  return (note) => {
    const kind = CAUSES.find((c) => c.pattern.test(note.message))?.kind;
    if (kind === 'acquired') return acquired.get(lotId(note.walletId, note.ref)) ?? null;
    if (kind === 'disposed') return disposed.get(`${note.walletId}|${note.ref}`) ?? null;
    if (kind === 'held') return acquired.get(note.ref) ?? null;
    return null;
  };
}
