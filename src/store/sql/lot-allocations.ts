/**
 * The 1 January 2025 allocation a closed period's run used (lot_period_allocations and the head's
 * allocation_* columns, migration 015), staged with the rest of its record (pending-lot-periods.ts)
 * and read back in its order, so a re-run of the closed month and the months seeded from it write
 * the allocation statement the close wrote (Rev. Proc. 2024-28, section 4.02(6): irrevocable).
 */
import type { RecordedAllocation, RecordedAllocationLot } from '../../model/lots-record.js';
import type { Queryable } from '../db/db.js';
import { escapeText, unescapeText } from '../encoding/text-escape.js';

/** The head's columns for a record with (or without, `undefined`) its allocation. */
export function allocationHead(allocation: RecordedAllocation | undefined): [boolean, string | null, boolean, string | null] {
  if (allocation === undefined) return [false, null, false, null];
  const text = (v: string | null): string | null => (v === null ? null : escapeText(v));
  return [true, text(allocation.file), allocation.check !== null, text(allocation.check?.warning ?? null)];
}

export async function stageAllocation(tx: Queryable, table: string, org: string, period: string, lots: readonly RecordedAllocationLot[]): Promise<void> {
  if (lots.length === 0) return;
  const txt = (v: string): string => escapeText(v);
  await tx.query(
    `INSERT INTO ${table} (organization_id, period, status, line_no, wallet_id, currency, units_base, cost, acquired_at, ref)
     SELECT $1, $2, 'pending', u.n, u.w, u.c, u.units::numeric, u.cost::numeric, u.at, u.ref
     FROM unnest($3::int[], $4::text[], $5::text[], $6::text[], $7::text[], $8::text[], $9::text[]) AS u(n, w, c, units, cost, at, ref)`,
    [org, period, lots.map((_, i) => String(i + 1)), lots.map((l) => txt(l.walletId)), lots.map((l) => txt(l.currency)), lots.map((l) => l.units.toString()), lots.map((l) => (l.cost === null ? null : l.cost.toString())), lots.map((l) => txt(l.acquiredAt)), lots.map((l) => (l.ref === null ? null : txt(l.ref)))],
  );
}

export interface AllocationHead {
  allocation_recorded: boolean;
  allocation_file: string | null;
  allocation_checked: boolean;
  allocation_changed: string | null;
}

/** The recorded allocation of a period whose head says it has one; `key`: the organization id and the period, escaped. */
export async function loadAllocation(db: Queryable, table: string, key: readonly string[], head: AllocationHead): Promise<RecordedAllocation | undefined> {
  if (!head.allocation_recorded) return undefined;
  const { rows } = await db.query<Record<string, string | null>>(
    `SELECT wallet_id, currency, units_base::text AS units_base, cost::text AS cost, acquired_at, ref FROM ${table} WHERE organization_id = $1 AND period = $2 AND status = 'recorded' ORDER BY line_no`,
    key,
  );
  const s = (v: string | null | undefined): string => unescapeText(v ?? '');
  const lots = rows.map((x): RecordedAllocationLot => ({ walletId: s(x['wallet_id']), currency: s(x['currency']), acquiredAt: s(x['acquired_at']), units: BigInt(x['units_base'] ?? '0'), cost: x['cost'] == null ? null : BigInt(x['cost']), ref: x['ref'] == null ? null : s(x['ref']) }));
  const file = head.allocation_file === null ? null : unescapeText(head.allocation_file);
  return { file, lots, check: head.allocation_checked ? { warning: head.allocation_changed === null ? null : unescapeText(head.allocation_changed) } : null };
}
