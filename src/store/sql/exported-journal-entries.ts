/**
 * The exported version of journal entries (migration 005, status `exported`), with their lines in
 * order, as src/model/journal-record.ts `ExportedEntry`: what a later run compares its entries with.
 */
import type { ExportedEntry, LineComponent, Side } from '../../model/journal-record.js';
import type { Queryable } from '../db/db.js';
import type { StoreSchema } from '../db/schema.js';
import { escapeText, unescapeText } from '../encoding/text-escape.js';

const ID_CHUNK = 10_000;

interface LineRecord {
  entry_no: string;
  run_id: string;
  corrections: number;
  content_hash: string;
  late: boolean;
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

export async function findExportedEntries(db: Queryable, schema: StoreSchema, organizationId: string, entryNos: readonly string[]): Promise<Map<string, ExportedEntry>> {
  const found = new Map<string, ExportedEntry>();
  const entries = schema.table('journal_entries');
  const lines = schema.table('journal_lines');
  for (let start = 0; start < entryNos.length; start += ID_CHUNK) {
    const { rows } = await db.query<LineRecord>(
      `SELECT e.entry_no, e.run_id, e.corrections, e.content_hash, e.late, l.line_no, l.account, l.side, l.component, l.source_currency,
              l.source_amount::text AS source_amount, l.source_unit, l.amount::text AS amount, l.memo
       FROM ${entries} e JOIN ${lines} l USING (organization_id, entry_no, status)
       WHERE e.organization_id = $1 AND e.status = 'exported' AND e.entry_no = ANY($2::text[])
       ORDER BY e.entry_no, l.line_no`,
      [escapeText(organizationId), entryNos.slice(start, start + ID_CHUNK).map(escapeText)],
    );
    for (const r of rows) {
      let entry = found.get(r.entry_no);
      if (entry === undefined) {
        entry = { entryNo: r.entry_no, contentHash: r.content_hash, corrections: r.corrections, lines: [], runId: unescapeText(r.run_id), late: r.late };
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
}
