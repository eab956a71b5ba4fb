/**
 * The findings of a closed period's lots pass (lot_period_notes, migration 013), staged with the
 * rest of its record (lots-record.ts) and read back in their order, so a re-run of the closed month
 * shows the findings its close showed.
 */
import type { RecordedNote } from '../../model/lots-record.js';
import type { Queryable } from '../db/db.js';
import { escapeText, unescapeText } from '../encoding/text-escape.js';

export async function stageNotes(tx: Queryable, table: string, org: string, period: string, notes: readonly RecordedNote[]): Promise<void> {
  if (notes.length === 0) return;
  const txt = (v: string): string => escapeText(v);
  await tx.query(
    `INSERT INTO ${table} (organization_id, period, status, line_no, code, wallet_id, currency, ref, units_base, message)
     SELECT $1, $2, 'pending', u.n, u.code, u.w, u.c, u.ref, u.units::numeric, u.msg
     FROM unnest($3::int[], $4::text[], $5::text[], $6::text[], $7::text[], $8::text[], $9::text[]) AS u(n, code, w, c, ref, units, msg)`,
    [org, period, notes.map((_, i) => String(i + 1)), notes.map((n) => n.code), notes.map((n) => txt(n.walletId)), notes.map((n) => txt(n.currency)), notes.map((n) => txt(n.ref)), notes.map((n) => n.units.toString()), notes.map((n) => txt(n.message))],
  );
}

/** `key`: the organization id and the period, escaped. */
export async function loadNotes(db: Queryable, table: string, key: readonly string[]): Promise<RecordedNote[]> {
  const { rows } = await db.query<Record<string, string>>(
    `SELECT code, wallet_id, currency, ref, units_base::text AS units_base, message FROM ${table} WHERE organization_id = $1 AND period = $2 AND status = 'recorded' ORDER BY line_no`,
    key,
  );
  return rows.map((x) => ({ code: x['code'] ?? '', walletId: unescapeText(x['wallet_id'] ?? ''), currency: unescapeText(x['currency'] ?? ''), ref: unescapeText(x['ref'] ?? ''), units: BigInt(x['units_base'] ?? '0'), message: unescapeText(x['message'] ?? '') }));
}
