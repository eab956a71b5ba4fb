/**
 * The snapshot's record of exported journal entries (migration 005): src/model/journal-record.ts
 * `JournalExports` over the Db port.
 */
import type { ExportedEntry, JournalExports, LineComponent, Side } from '../../model/journal-record.js';
import { instantText } from '../encoding/columns.js';
import type { Db } from '../db/db.js';
import { confirmPending } from './confirm-pending.js';
import type { StoreSchema } from '../db/schema.js';
import { escapeText, unescapeText } from '../encoding/text-escape.js';

const ID_CHUNK = 10_000;

interface LineRecord {
  entry_no: string;
  run_id: string;
  corrections: number;
  content_hash: string;
  line_no: number;
  account: string;
  side: string;
  component: string;
  source_currency: string | null;
  source_amount: string | null;
  source_unit: string | null;
  amount: string;
  memo: string;
}

export function createJournalExports(db: Db, schema: StoreSchema): JournalExports {
  const entries = schema.table('journal_entries');
  const lines = schema.table('journal_lines');
  return {
    async find(organizationId, entryNos) {
      const found = new Map<string, ExportedEntry>();
      for (let start = 0; start < entryNos.length; start += ID_CHUNK) {
        const { rows } = await db.query<LineRecord>(
          `SELECT e.entry_no, e.run_id, e.corrections, e.content_hash, l.line_no, l.account, l.side, l.component, l.source_currency,
                  l.source_amount::text AS source_amount, l.source_unit, l.amount::text AS amount, l.memo
           FROM ${entries} e JOIN ${lines} l USING (organization_id, entry_no, status)
           WHERE e.organization_id = $1 AND e.status = 'exported' AND e.entry_no = ANY($2::text[])
           ORDER BY e.entry_no, l.line_no`,
          [escapeText(organizationId), entryNos.slice(start, start + ID_CHUNK).map(escapeText)],
        );
        for (const r of rows) {
          let entry = found.get(r.entry_no);
          if (entry === undefined) {
            entry = { entryNo: r.entry_no, contentHash: r.content_hash, corrections: r.corrections, lines: [], runId: unescapeText(r.run_id) };
            found.set(r.entry_no, entry);
          }
          entry.lines.push({
            account: unescapeText(r.account),
            side: r.side as Side,
            component: r.component as LineComponent,
            source: r.source_currency === null || r.source_amount === null ? null : { currency: r.source_currency, amount: BigInt(r.source_amount), unit: r.source_unit ?? '' },
            amount: BigInt(r.amount),
            memo: unescapeText(r.memo),
          });
        }
      }
      return found;
    },

    async clearPending(organizationId) {
      await db.query(`DELETE FROM ${entries} WHERE organization_id = $1 AND status = 'pending'`, [escapeText(organizationId)]);
    },

    async stage(organizationId, runId, period, staged) {
      if (staged.length === 0) return;
      const org = escapeText(organizationId);
      const e = staged.map(({ entry, hash, corrections }) => ({ entry, hash, corrections }));
      const l = staged.flatMap(({ entry }) => entry.lines.map((line, i) => ({ entryNo: entry.entryNo, lineNo: i + 1, line })));
      await db.transaction(async (tx) => {
        // a pending row of this entry left by an earlier, unconfirmed run is replaced
        await tx.query(`DELETE FROM ${entries} WHERE organization_id = $1 AND status = 'pending' AND entry_no = ANY($2::text[])`, [org, e.map((x) => escapeText(x.entry.entryNo))]);
        await tx.query(
          `INSERT INTO ${entries} (organization_id, entry_no, status, period, run_id, kind, entry_date, wallet_id, payment_id, ledger_ref, content_hash, corrections)
           SELECT $1, u.entry_no, 'pending', $2, $3, u.kind, u.entry_date::date, u.wallet_id, u.payment_id, u.ledger_ref, u.content_hash, u.corrections
           FROM unnest($4::text[], $5::text[], $6::text[], $7::text[], $8::text[], $9::text[], $10::text[], $11::int[])
             AS u(entry_no, kind, entry_date, wallet_id, payment_id, ledger_ref, content_hash, corrections)`,
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
    },

    confirm: (runId) => confirmPending(db, { table: entries, key: 'entry_no', confirmedStatus: 'exported', confirmedAt: 'exported_at' }, runId),

    async firstOpenInstant(organizationId) {
      const { rows } = await db.query<{ open_from: string | null }>(
        `SELECT ${instantText('max(window_to)')} AS open_from FROM ${schema.table('closed_periods')} WHERE organization_id = $1`,
        [escapeText(organizationId)],
      );
      return rows[0]?.open_from ?? null;
    },
  };
}
