/**
 * The tracked wallets' movements, from the snapshot's first event to the window's end, valued by
 * the journal's own builder (build-movement.ts). A subledger needs the whole history (a lot bought
 * two years ago is relieved today), or, when a closed period recorded its closing lots, only what
 * came after it (lots-record.ts). A tracked wallet is one the journal maps whose currency is not
 * the books' currency (a USD wallet in USD books has no lots). Held in memory: one small record
 * per balance movement of the tracked wallets (docs/lots.md says so). Each movement is joined to
 * its payment, as its own month-end joined it: the pull reads the payments earlier movements name
 * (src/jobs/lots-payment-reach.ts), so a first close values and splits them the same way.
 *
 * Late movements (docs/lots.md "Closed periods"): when the lots start from a recorded close, a
 * movement effective inside that recorded period which the period never posted is not lost: it is
 * applied re-dated to the first open instant (the close's end) and marked with the period. What
 * the closed period posted is what the journal recorded for it (journal_entries, exported): the
 * journal records every valued movement a closing month-end posts, so a valued movement of the
 * period with no exported entry is one the closing run never saw. An entry that needs a price is
 * never recorded by the journal, so it cannot be told apart and is left out, as before.
 */
import { buildMovementEntry, type BuildContext } from '../journal/build-movement.js';
import { mappedAccount } from '../journal/build-context.js';
import type { PaymentRow, WalletRow } from '../model/rows.js';
import type { ReportSource } from '../model/ports.js';
import type { Window } from '../model/window.js';
import { isValued } from '../journal/model.js';
import { movementOf, type Movement } from './events.js';

/** The recorded closed period the lots start from, and which of its movements' entries the journal exported. */
export interface LateSource {
  period: string;
  /** the recorded period's window start: movements from here up to `since` are checked */
  from: string;
  /** the entry numbers, among these, the closing run of that period posted (the journal's record) */
  exported(entryNos: readonly string[]): Promise<ReadonlySet<string>>;
}

const EPOCH = '0001-01-01T00:00:00.000000Z';

export interface CollectOptions {
  /** the end of the recorded closed period the lots start from (its movements are not needed again), or null for the whole history */
  since?: string | null;
  late?: LateSource | null;
  /** only deposits and withdrawals (no payment: none is read) */
  noPaymentOnly?: boolean;
}

export async function collectMovements(ctx: BuildContext, source: ReportSource, organizationId: string, wallets: readonly WalletRow[], window: Window, options: CollectOptions = {}): Promise<Movement[]> {
  const since = options.since ?? null;
  const late = options.late ?? null;
  const books = ctx.config.booksCurrency.toLowerCase();
  const out: Movement[] = [];
  for (const wallet of wallets) {
    const account = mappedAccount(ctx.config, wallet.wallet_id);
    if (account === null) continue;
    const rows = [];
    for await (const batch of source.ledger(organizationId, wallet.wallet_id, { withoutRaw: true })) {
      for (const row of batch) if (row.effective_time !== '' && row.effective_time < window.to && (since === null || row.effective_time >= since || (late !== null && row.effective_time >= late.from)) && row.effect !== 'memo' && row.currency !== '' && row.currency !== books && (options.noPaymentOnly !== true || row.payment_id === null)) rows.push(row);
    }
    if (rows.length === 0) continue;
    const wanted = new Set(rows.map((r) => r.payment_id).filter((id): id is string => id !== null));
    const payments = new Map<string, PaymentRow>();
    if (wanted.size > 0) for await (const batch of source.payments({ organization_id: organizationId, wallet_id: wallet.wallet_id, window: { from: EPOCH, to: window.to, tz: window.tz }, withoutRaw: true })) {
      for (const p of batch) if (wanted.has(p.payment_id)) payments.set(p.payment_id, p);
    }
    const before: Movement[] = [];
    for (const row of rows) {
      const payment = row.payment_id === null ? null : (payments.get(row.payment_id) ?? null);
      const { entry } = buildMovementEntry(ctx, account, row, payment);
      if (entry === null) continue;
      if (since !== null && row.effective_time < since) {
        if (isValued(entry)) before.push(movementOf(entry, row.currency, payment));
      } else out.push(movementOf(entry, row.currency, payment));
    }
    if (late !== null && since !== null && before.length > 0) {
      const exported = await late.exported(before.map((m) => m.entry.entryNo));
      for (const m of before) if (!exported.has(m.entry.entryNo)) out.push({ ...m, entry: { ...m.entry, postedAt: since }, lateFrom: late.period });
    }
  }
  return out;
}
