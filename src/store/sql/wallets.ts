import { WALLET_COLUMNS, type WalletBalanceRow, type WalletRow } from '../../model/rows.js';
import type { WriteStats } from '../../model/ports.js';
import type { Queryable } from '../db/db.js';
import type { StoreSchema } from '../db/schema.js';
import { decodeRow, selectList } from '../encoding/columns.js';
import { escapeText } from '../encoding/text-escape.js';
import { loadRows } from './load-rows.js';
import { dedupeByKey, stageRows, stageTable } from './stage.js';
import { BALANCES, STORED_BALANCE_COLUMNS, WALLETS, type StoredBalance, type StoredWallet, type TableSpec } from './tables.js';

/** The wallets table and its balances (wallet_balances), written and read together. */

/**
 * Wallets and their balances merged in one transaction: a wallet row, one balance row per
 * currency it reports (in the order it lists them), and no balance row for a currency it no
 * longer reports. `unchanged` counts every wallet handed in that was neither new nor changed.
 */
export async function mergeWallets(tx: Queryable, schema: StoreSchema, rows: readonly WalletRow[], runId: string | null): Promise<WriteStats> {
  const wallets: StoredWallet[] = [];
  const balances: StoredBalance[] = [];
  for (const { balances: walletBalances, ...wallet } of dedupeByKey(WALLETS as TableSpec<WalletRow>, rows)) {
    wallets.push(wallet);
    walletBalances.forEach((balance, position) => balances.push({ ...balance, organization_id: wallet.organization_id, wallet_id: wallet.wallet_id, position }));
  }
  const stats = await loadRows(tx, schema, WALLETS, wallets, { runId: runId === null ? null : escapeText(runId) });
  await loadRows(tx, schema, BALANCES, balances, { runId: null });
  // A currency the wallet no longer reports is no longer a balance of it. (Staging an
  // empty list only makes sure the staging table exists when no wallet had balances.)
  await stageRows(tx, BALANCES, []);
  await tx.query(
    `DELETE FROM ${schema.table('wallet_balances')} b
     WHERE (b.organization_id, b.wallet_id) IN (SELECT organization_id, wallet_id FROM ${stageTable(WALLETS)})
       AND NOT EXISTS (SELECT 1 FROM ${stageTable(BALANCES)} s
                       WHERE s.organization_id = b.organization_id AND s.wallet_id = b.wallet_id AND s.currency = b.currency)`,
  );
  return { ...stats, unchanged: rows.length - stats.inserted - stats.updated };
}

/** The organization's wallets (all, or those of `walletIds`) by id, each with its balances in the order it lists them. */
export async function readWallets(db: Queryable, schema: StoreSchema, organizationId: string, walletIds?: readonly string[]): Promise<WalletRow[]> {
  const params = [escapeText(organizationId), walletIds === undefined ? null : walletIds.map(escapeText)];
  const { rows: walletRecords } = await db.query(
    `SELECT ${selectList('w', WALLET_COLUMNS)} FROM ${schema.table('wallets')} w
     WHERE w.organization_id = $1 AND ($2::text[] IS NULL OR w.wallet_id = ANY($2::text[])) ORDER BY w.wallet_id`,
    params,
  );
  const { rows: balanceRecords } = await db.query(
    `SELECT ${selectList('b', STORED_BALANCE_COLUMNS)} FROM ${schema.table('wallet_balances')} b
     WHERE b.organization_id = $1 AND ($2::text[] IS NULL OR b.wallet_id = ANY($2::text[])) ORDER BY b.wallet_id, b.position`,
    params,
  );
  const balances = new Map<string, WalletBalanceRow[]>();
  for (const record of balanceRecords) {
    const { organization_id: _org, wallet_id, position: _position, ...balance } = decodeRow<StoredBalance>(STORED_BALANCE_COLUMNS, record);
    const list = balances.get(wallet_id) ?? [];
    list.push(balance);
    balances.set(wallet_id, list);
  }
  return walletRecords.map((record) => {
    const wallet = decodeRow<StoredWallet>(WALLET_COLUMNS, record);
    return { ...wallet, balances: balances.get(wallet.wallet_id) ?? [] };
  });
}
