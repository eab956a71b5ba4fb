/** The pure normalizers of normalize/, bound to the run's organization for the extract streams. */
import type { Normalizers } from '../extract/context.js';
import { normalizeAsset } from '../normalize/asset.js';
import { normalizeBill, normalizeBillSummary } from '../normalize/bill.js';
import { normalizeLedgerEvent } from '../normalize/ledger.js';
import { normalizePayment } from '../normalize/payment.js';
import { normalizeSummary } from '../normalize/summary.js';
import { normalizeWallet } from '../normalize/wallet.js';

export function bindNormalizers(organizationId: string): Normalizers {
  return {
    payment: (raw, environmentId) => normalizePayment(raw, { organization_id: organizationId, environment_id: environmentId }),
    ledger: (raw, wallet) => normalizeLedgerEvent(raw, { organization_id: organizationId, environment_id: wallet.environment_id, wallet_id: wallet.wallet_id }),
    wallet: (raw) => normalizeWallet(raw, { organization_id: organizationId }),
    asset: (raw) => normalizeAsset(raw),
    environmentSummary: (raw, environmentId) => normalizeSummary(raw, { scope: 'environment', environment_id: environmentId }),
    walletSummary: (raw, wallet) => normalizeSummary(raw, { scope: 'wallet', environment_id: wallet.environment_id, wallet_id: wallet.wallet_id }),
    bill: (raw) => normalizeBill(raw),
    billSummary: (raw, lineOfCreditId, listedCount) => normalizeBillSummary(raw, lineOfCreditId, listedCount),
  };
}
