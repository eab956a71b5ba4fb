/**
 * What every extraction stream receives (side effects passed in: docs/design.md#boundaries).
 */
import type { ApiReader } from '../api/endpoints.js';
import type { PageSize } from '../api/page-size.js';
import type { WireBill, WireBillSummary } from '../api/wire/bills.js';
import type { WireLedgerEvent } from '../api/wire/ledger.js';
import type { WirePayment } from '../api/wire/payments.js';
import type { WireEnvironmentSummary, WireWalletSummary } from '../api/wire/summaries.js';
import type { WireNamedAsset, WireWallet } from '../api/wire/wallets.js';
import type { AssetRow, BillRecord, BillSummaryRow, LedgerRow, PaymentRow, SummaryBucketRow, WalletRow } from '../model/rows.js';
import type { SnapshotWriter } from '../model/ports.js';
import type { Logger } from '../util/log.js';
import type { ResumeMap } from './positions.js';

/** The pure normalizers, bound to the run's context (assets, wallets) by the job. */
export interface Normalizers {
  payment(raw: WirePayment, environmentId: string): PaymentRow;
  ledger(raw: WireLedgerEvent, wallet: WalletRow): LedgerRow;
  wallet(raw: WireWallet): WalletRow;
  asset(raw: WireNamedAsset): AssetRow;
  environmentSummary(raw: WireEnvironmentSummary, environmentId: string): SummaryBucketRow[];
  walletSummary(raw: WireWalletSummary, wallet: WalletRow): SummaryBucketRow[];
  bill(raw: WireBill): BillRecord;
  billSummary(raw: WireBillSummary, lineOfCreditId: string, listedCount: number | null): BillSummaryRow;
}

/** Progress of one stream, for the operator's bars and the manifest. */
export interface StreamProgress {
  stream: string;
  pages: number;
  rows: number;
  duplicates: number;
  done: boolean;
}

export interface ExtractContext {
  organizationId: string;
  /** the API client holding the credential of this environment */
  apiFor(environmentId: string): ApiReader;
  writer: SnapshotWriter;
  normalize: Normalizers;
  log: Logger;
  runKey: string;
  runId: string;
  /** checkpoints left by an unfinished run with the same run key */
  resume: ResumeMap;
  /** the largest page asked (planning sizes chains with it) */
  pageSize: number;
  /**
   * the run's page size of each list, negotiated with the service and shared by every chain
   * (api/page-size.ts); absent = every chain asks `pageSize` on its own
   */
  pageSizes?: { payments: PageSize; ledger: PageSize };
  onProgress?: (progress: StreamProgress) => void;
  /**
   * the streams of a kind the pull now expects, when a stage changes what discovery planned (an
   * environment read whole is its slices, not one stream per wallet): the progress bars' denominators
   */
  onExpect?: (streams: Readonly<Record<string, number>>) => void;
  signal?: AbortSignal;
}
