/**
 * A run's journal entries recorded as pending (migration 005, status `pending`), lines and all, in
 * one transaction: they replace their exported versions only when the run confirms them
 * (confirm-pending.ts); until then the exported record stays as it was.
 */
import type { RecordedEntry } from '../../model/journal-record.js';
import type { Db } from '../db/db.js';
import type { StoreSchema } from '../db/schema.js';
import { escapeText } from '../encoding/text-escape.js';

export async function stagePendingEntries(
  db: Db,
  schema: StoreSchema,
  organizationId: string,
  runId: string,
  period: string,
  staged: ReadonlyArray<{ entry: RecordedEntry; hash: string; corrections: number; late?: boolean }>,
): Promise<void> {
  if (staged.length === 0) return;
  const entries = schema.table('journal_entries');
  const lines = schema.table('journal_lines');
  const org = escapeText(organizationId);
  const e = staged.map(({ entry, hash, corrections, late }) => ({ entry, hash, corrections, late: late === true }));
  const l = staged.flatMap(({ entry }) => entry.lines.map((line, i) => ({ entryNo: entry.entryNo, lineNo: i + 1, line })));
  await db.transaction(async (tx) => {
    // a pending row of this entry left by an earlier, unconfirmed run is replaced
    await tx.query(`DELETE FROM ${entries} WHERE organization_id = $1 AND status = 'pending' AND entry_no = ANY($2::text[])`, [org, e.map((x) => escapeText(x.entry.entryNo))]);
    await tx.query(
      `INSERT INTO ${entries} (organization_id, entry_no, status, period, run_id, kind, entry_date, wallet_id, payment_id, ledger_ref, content_hash, corrections, late)
       SELECT $1, u.entry_no, 'pending', $2, $3, u.kind, u.entry_date::date, u.wallet_id, u.payment_id, u.ledger_ref, u.content_hash, u.corrections, u.late::boolean
       FROM unnest($4::text[], $5::text[], $6::text[], $7::text[], $8::text[], $9::text[], $10::text[], $11::int[], $12::text[])
         AS u(entry_no, kind, entry_date, wallet_id, payment_id, ledger_ref, content_hash, corrections, late)`,
      [
        org,
        escapeText(period),
        escapeText(runId),
        e.map((x) => escapeText(x.entry.entryNo)),
        e.map((x) => x.entry.kind),
        e.map((x) => x.entry.date),
        e.map((x) => escapeText(x.entry.walletId)),
        e.map((x) => (x.entry.paymentId === null ? null : escapeText(x.entry.paymentId))),
        e.map((x) => (x.entry.ledgerRef === null ? null : escapeText(x.entry.ledgerRef))),
        e.map((x) => x.hash),
        e.map((x) => String(x.corrections)),
        e.map((x) => String(x.late)),
      ],
    );
    await tx.query(
      `INSERT INTO ${lines} (organization_id, entry_no, status, line_no, account, side, component, source_currency, source_amount, source_unit, amount, memo)
       SELECT $1, u.entry_no, 'pending', u.line_no, u.account, u.side, u.component, u.source_currency, u.source_amount::numeric, u.source_unit, u.amount::numeric, u.memo
       FROM unnest($2::text[], $3::int[], $4::text[], $5::text[], $6::text[], $7::text[], $8::text[], $9::text[], $10::text[], $11::text[])
         AS u(entry_no, line_no, account, side, component, source_currency, source_amount, source_unit, amount, memo)`,
      [
        org,
        l.map((x) => escapeText(x.entryNo)),
        l.map((x) => String(x.lineNo)),
        l.map((x) => escapeText(x.line.account)),
        l.map((x) => x.line.side),
        l.map((x) => x.line.component),
        l.map((x) => x.line.source?.currency ?? null),
        l.map((x) => x.line.source?.amount.toString() ?? null),
        l.map((x) => x.line.source?.unit ?? null),
        l.map((x) => (x.line.amount ?? 0n).toString()),
        l.map((x) => escapeText(x.line.memo)),
      ],
    );
  });
}
