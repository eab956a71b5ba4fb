/**
 * The Postgres snapshot as the fault cases inspect it: which payment ids it holds, whether any
 * payment got a history row without a change (a doubled write), and whether what is stored equals
 * what the checkpoints say was committed (only whole batches).
 */
import { expect } from 'vitest';
import { quoteIdent } from '../../../src/store/db/schema.js';
import { withDb } from '../../support/cli/pg.js';
import { compareIds } from './invariants.js';

export interface SnapshotFacts {
  paymentIds: string[];
  /** payments with more than one history row (the dataset does not change, so any is a doubled write) */
  doubledHistory: string[];
  payments: number;
  ledgerEntries: number;
  /** Σ rows the checkpoints of payments / ledger streams say were committed */
  checkpointedPayments: number;
  checkpointedLedger: number;
}

export async function snapshotFacts(url: string, schema: string, organizationId: string, window: { from: string; to: string }): Promise<SnapshotFacts> {
  const t = (name: string): string => `${quoteIdent(schema)}.${quoteIdent(name)}`;
  return withDb(url, async (db) => {
    const ids = await db.query<{ payment_id: string }>(`SELECT payment_id FROM ${t('payments')} WHERE organization_id = $1 AND created_at >= $2 AND created_at < $3 ORDER BY payment_id`, [organizationId, window.from, window.to]);
    const doubled = await db.query<{ payment_id: string }>(`SELECT payment_id FROM ${t('payment_history')} GROUP BY payment_id HAVING count(*) > 1 ORDER BY payment_id`);
    const counts = await db.query<{ payments: string; ledger: string }>(`SELECT (SELECT count(*) FROM ${t('payments')}) AS payments, (SELECT count(*) FROM ${t('ledger_entries')}) AS ledger`);
    const checkpointed = await db.query<{ kind: string; rows: string }>(
      `SELECT split_part(stream, ':', 1) AS kind, coalesce(sum(rows), 0) AS rows FROM ${t('checkpoints')} GROUP BY 1`,
    );
    const rowsOf = (kind: string): number => Number(checkpointed.rows.find((r) => r.kind === kind)?.rows ?? 0);
    return {
      paymentIds: ids.rows.map((r) => r.payment_id),
      doubledHistory: doubled.rows.map((r) => r.payment_id),
      payments: Number(counts.rows[0]?.payments ?? 0),
      ledgerEntries: Number(counts.rows[0]?.ledger ?? 0),
      checkpointedPayments: rowsOf('payments'),
      checkpointedLedger: rowsOf('ledger'),
    };
  });
}

/** I1/I2 on the snapshot: the window's payments are the ground truth, and no write was doubled. */
export function expectSnapshotComplete(facts: SnapshotFacts, truth: readonly string[], label: string): void {
  expect(compareIds(facts.paymentIds, truth), `${label}: the snapshot's payments against the ground truth`).toEqual({ lost: [], doubled: [], extra: [] });
  expect(facts.doubledHistory, `${label}: payment_history rows without a change`).toEqual([]);
}
