import type { WalletRow } from '../../model/rows.js';
import type { WriteStats } from '../../model/ports.js';
import type { Queryable } from '../db/db.js';
import type { StoreSchema } from '../db/schema.js';
import { escapeText } from '../encoding/text-escape.js';
import { loadRows } from './load-rows.js';
import { dedupeByKey, stageRows, stageTable } from './stage.js';
import { BALANCES, WALLETS, type StoredBalance, type StoredWallet, type TableSpec } from './tables.js';

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
