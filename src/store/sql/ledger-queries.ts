/**
 * Questions the pull asks of the ledger it has stored: where to resume an incremental read, and
 * which payments the ledger names that no list returned (they are then read by id).
 */
import type { UtcInstant } from '../../model/rows.js';
import type { Queryable } from '../db/db.js';
import type { Window } from '../../model/window.js';
import type { StoreSchema } from '../db/schema.js';
import { escapeText, unescapeText } from '../encoding/text-escape.js';
import { instantText } from '../encoding/columns.js';

/** The newest effective_time stored for a wallet, or null when its ledger was never read. */
export async function ledgerHighWater(db: Queryable, schema: StoreSchema, organizationId: string, walletId: string): Promise<UtcInstant | null> {
  const { rows } = await db.query<{ t: string | null }>(
    `SELECT ${instantText('max(l.effective_time)')} AS t FROM ${schema.table('ledger_entries')} l WHERE l.organization_id = $1 AND l.wallet_id = $2`,
    [escapeText(organizationId), escapeText(walletId)],
  );
  return rows[0]?.t ?? null;
}

/**
 * Payment ids named by the wallet's ledger entries effective in the window that the snapshot does
 * not hold (created before the window, or missed by the list), sorted.
 */
export async function orphanLedgerPaymentIds(db: Queryable, schema: StoreSchema, organizationId: string, walletId: string, window: Window): Promise<string[]> {
  const { rows } = await db.query<{ payment_id: string }>(
    `SELECT DISTINCT l.payment_id FROM ${schema.table('ledger_entries')} l
     WHERE l.organization_id = $1 AND l.wallet_id = $2 AND l.payment_id IS NOT NULL
       AND l.effective_time >= $3::timestamptz AND l.effective_time < $4::timestamptz
       AND NOT EXISTS (SELECT 1 FROM ${schema.table('payments')} p WHERE p.organization_id = l.organization_id AND p.payment_id = l.payment_id)
     ORDER BY l.payment_id`,
    [escapeText(organizationId), escapeText(walletId), window.from, window.to],
  );
  return rows.map((r) => unescapeText(r.payment_id));
}
