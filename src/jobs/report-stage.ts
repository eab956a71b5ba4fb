/**
 * The report stage: the snapshot (or spool) read back wallet by wallet in a stable order,
 * reconciled, and written as one report folder. It never calls the API, so a live `export` and a
 * later `payexport report` over the same window produce the same files.
 *
 * The workbook is a streaming zip: sheets are written one after another, so this makes one pass
 * over the source per sheet — Payments (with reconciliation), Ledger, then the small tables from the
 * reconciler's result, then Open items — and memory stays bounded by one wallet's state.
 */
import type { AssetRow, LedgerRow, PaymentRow, WalletRow } from '../model/rows.js';
import { WalletReads, type PullPacing, type ReconcileStreams } from './wallet-reads.js';
import { Reconciler, hasErrors } from '../reconcile/reconciler.js';
import type { ReconcileResult } from '../model/results.js';
import { closeStatus, type CloseStatus } from '../sinks/close-status.js';
import { openReportFolder } from '../sinks/report-folder.js';
import type { ManifestSigner } from '../audit/manifest-signature.js';
import { copyEvidence } from './evidence-copy.js';
import type { PublishResult, ReportFolder, ReportFormat } from '../sinks/report-folder-api.js';
import { outputScope } from '../sinks/output-scope.js';
import {
  BALANCES_TABLE,
  BILLS_TABLE,
  EXCEPTIONS_TABLE,
  FEE_RATES_TABLE,
  FEES_TABLE,
  LEDGER_TABLE,
  OPEN_ITEMS_TABLE,
  PAYMENTS_TABLE,
  SUMMARY_CHECK_TABLE,
} from '../sinks/tables/index.js';
import type { ReportSource } from '../model/ports.js';
import type { CsvOptions } from '../sinks/csv-table-writer.js';
import type { Logger } from '../util/log.js';
import { runJournalStage, type JournalStageResult } from '../journal/journal-stage.js';
import { mergeJournalResult } from '../journal/merge-result.js';
import type { JournalSetup } from '../journal/journal-setup.js';
import type { LotsSetup } from '../lots/lots-setup.js';
import { runLotsStage, type LotsRecordUse, type LotsStageResult } from '../lots/lots-stage.js';
import { withChecksNotRun } from '../reconcile/required-checks.js';
import { mergeLotsResult } from '../lots/merge-result.js';
import { custodyPort, custodyRules } from '../lots/custody.js';
import { windowContains, type Window } from '../model/window.js';

/**
 * The report behind the pull (docs/extraction.md#the-report-behind-the-pull): what the report waits
 * for while the pull still runs. Absent, the snapshot is complete and nothing is waited for.
 */
export type { PullPacing } from './wallet-reads.js';

export interface ReportStageInput {
  source: ReportSource;
  /** signs the folder's manifest (docs/audit.md#signed-manifests); absent: not signed */
  signer?: ManifestSigner | null;
  /** the pull's evidence journals, complete once the pull has ended — the run's own, or the shards' a report rebuilds from: copied in as evidence.jsonl (none: nothing pulled) */
  evidence?: readonly string[];
  organizationId: string;
  /** restrict to these wallets (the run's `--wallet` scope); empty = every wallet of the snapshot */
  walletIds: readonly string[];
  /** restrict to these environments (empty = all) */
  environmentIds: readonly string[];
  window: Window;
  outRoot: string;
  job: string;
  period: string;
  command: string;
  runId: string;
  /** the run's wall clock (the manifest's started and finished times) */
  clock: () => Date;
  formats: readonly ReportFormat[];
  csv: CsvOptions;
  /** the period is closed: write `<period>.amended-N` rather than overwrite */
  closed: boolean;
  /** extra counts for the manifest (requests, retries, duplicates, ...) */
  counts: Record<string, number>;
  /** month-end: this run closes the period (refused while items are open unless allowOpen) */
  closing?: { allowOpen: boolean };
  log: Logger;
  onProgress?: (sheet: string, rows: number) => void;
  /** the chart-of-accounts mapping and prices: journal files and checks (null = none) */
  journal?: JournalSetup | null;
  /** the crypto subledger (needs `journal`; null = none) */
  lots?: LotsSetup | null;
  /** the subledger's record of closed periods, when the snapshot keeps one (docs/lots.md "Closed periods") */
  lotsRecord?: LotsRecordUse | null;
  /** the pull still running: the first pass renders each wallet once it is in (absent = the snapshot is complete) */
  pacing?: PullPacing;
}

export interface ReportStageResult {
  publish: PublishResult;
  /** the snapshot's assets (names and display decimals, for the closing summary) */
  assets: AssetRow[];
  /** the wallets reported on (names for messages that speak of them) */
  wallets: WalletRow[];
  result: ReconcileResult;
  /** the journal pass (null without a journal mapping) */
  journal: JournalStageResult | null;
  /** the lots pass (null without a lots section) */
  lots: LotsStageResult | null;
  /** true when an error-severity finding exists: exit 65 */
  exceptions: boolean;
  /** whether the period is closed, as the Overview and manifest say it */
  close: CloseStatus;
}

/**
 * The report as its plain algorithm: the scope read; then, wallet by wallet, its ledger and its
 * payments reconciled and written; the Ledger sheet; the reconciliation's tables; the books
 * (journal, lots); the exceptions and the open items; the folder published. When each wallet's
 * rows are read is wallet-reads.ts's to know.
 */
export async function runReportStage(input: ReportStageInput): Promise<ReportStageResult> {
  const { source, organizationId: org, window } = input;
  const reads = new WalletReads(source, org, window, input.pacing);
  await input.pacing?.sized();
  const scope = await readScope(input);
  const reconciler = new Reconciler({ window, now: window.to, ...scope });
  // the company's own custody wallets of the lots section: named beside their lots, posted to by the journal
  const custody = input.journal && input.lots ? custodyRules(input.lots.config) : null;
  const { wallets, assets } = scope;
  const folder = await openReportFolder({
    outRoot: input.outRoot,
    job: input.job,
    period: input.period,
    command: input.command,
    window,
    runId: input.runId,
    clock: input.clock,
    formats: input.formats,
    csv: input.csv,
    signer: input.signer ?? null,
    closed: input.closed,
    scope: { ...outputScope(org, input.environmentIds, input.walletIds), environments_covered: [...new Set(wallets.map((w) => w.environment_id.toLowerCase()))].sort() },
    assets,
    wallets: custody === null ? wallets : [...wallets, ...custody.holders],
    ...(input.lots?.config.entity === undefined ? {} : { entity: input.lots.config.entity }),
  });
  try {
    await reconcilePass(input, folder, reads.reconcile(wallets, scope.bills), reconciler);
    // everything below reads every wallet, or what needs all of them (summaries, cross-wallet checks)
    await input.pacing?.pulled();
    await reconciler.resolveUnknown((ids) => source.knownPaymentIds(org, ids));
    let result = reconciler.finish();
    await ledgerSheetPass(folder, reads.ledger(folder.writesWorkbook ? wallets : []), window);
    await writeAll(await folder.table(FEES_TABLE), result.fees);
    await writeAll(await folder.table(BALANCES_TABLE), result.balances);
    await writeAll(await folder.table(SUMMARY_CHECK_TABLE), result.summaryChecks);
    await writeAll(await folder.table(BILLS_TABLE), result.bills);
    await writeAll(await folder.table(FEE_RATES_TABLE), result.feeRates);
    const journal = input.journal
      ? await runJournalStage({ ...input.journal, source, organizationId: org, wallets, assets, window, period: input.period, balances: result.balances, fees: result.fees, folder, ...(custody === null ? {} : { custody: custodyPort(custody) }) })
      : null;
    result = mergeJournalResult(result, journal);
    const lots = input.journal && input.lots
      ? await runLotsStage({ lots: input.lots, journal: input.journal.config, prices: input.journal.prices, source, organizationId: org, wallets, assets, window, balances: result.balances, folder, record: input.lotsRecord ?? null, csvEol: input.csv.eol, ...(journal === null ? {} : { journalCustody: journal.custody }) })
      : null;
    result = mergeLotsResult(result, lots);
    // a closed month's rebuild says what its close said: the close warning depends on the record, not the command
    result = withChecksNotRun(result, { closes: input.closing !== undefined || input.closed, period: input.period });
    await writeAll(await folder.table(EXCEPTIONS_TABLE), result.findings);
    const openRows = await openItemsPass(folder, reads.openPayments(wallets));
    const close = closeStatus({ closing: input.closing !== undefined, allowOpen: input.closing?.allowOpen ?? false, closedBefore: input.closed, openItems: openRows, period: input.period });
    if (input.evidence !== undefined && input.evidence.length > 0) await copyEvidence(folder, input.evidence, result.summaryChecks, input.runId);
    const publish = await folder.publish({
      // Only what defines the report: a rebuild from the snapshot must render the same Overview.
      parameters: {
        organization: org,
        environments: input.environmentIds.length > 0 ? [...input.environmentIds].sort() : 'all',
        wallets: input.walletIds.length > 0 ? [...input.walletIds].sort() : 'all',
      },
      controlTotals: result.controlTotals,
      checks: result.checks,
      counts: { ...input.counts, wallets: wallets.length, findings: result.findings.length, ...bookCounts(journal, lots) },
      close,
      ...(lots ? { crypto: lots.crypto } : {}),
    });
    input.log.info({ dir: publish.dir, unchanged: publish.unchanged, findings: result.findings.length }, 'report published');
    return { publish, assets, wallets, result, journal, lots, exceptions: hasErrors(result.findings), close };
  } catch (error) {
    await folder.abort().catch(() => undefined);
    throw error;
  }
}

/** The wallets, assets, summaries and bills the report covers, read once. */
async function readScope(input: ReportStageInput) {
  const { source, organizationId: org, window } = input;
  const envFilter = new Set(input.environmentIds.map((e) => e.toLowerCase()));
  const wallets = (await source.wallets(org, input.walletIds.length > 0 ? input.walletIds : undefined)).filter(
    (w) => envFilter.size === 0 || envFilter.has(w.environment_id.toLowerCase()),
  );
  const assets = await source.assets();
  const summaries = (await source.summaries(org, window)).filter(
    (s) => (envFilter.size === 0 || envFilter.has(s.environment_id.toLowerCase())) && (s.scope !== 'wallet' || wallets.some((w) => w.wallet_id === s.scope_id)),
  );
  // Ages of open items are measured at the end of the window, so a rebuild gives the same files.
  const bills = await source.bills(org, window);
  const billSummaries = await source.billSummaries(org, window);
  return { wallets, assets, summaries, bills, billSummaries };
}

/**
 * Wallet by wallet: its ledger and payments into the reconciliation, payments.csv and ledger.csv
 * written from the rows it reads anyway (the Ledger sheet follows Payments in the workbook, one
 * streaming zip, so it is written after the pull).
 */
async function reconcilePass(input: ReportStageInput, folder: ReportFolder, walletStreams: Iterable<[WalletRow, ReconcileStreams]>, reconciler: Reconciler): Promise<void> {
  const payments = await folder.table(PAYMENTS_TABLE);
  const ledgerCsv = folder.csvAhead(LEDGER_TABLE);
  let paymentRows = 0;
  let ledgerRows = 0;
  for (const [wallet, streams] of walletStreams) {
    reconciler.startWallet(wallet);
    for await (const batch of streams.ledger) {
      reconciler.addLedger(batch);
      for (const row of batch) {
        if (!windowContains(input.window, row.effective_time)) continue;
        await ledgerCsv.write(row);
        ledgerRows++;
      }
      input.onProgress?.('ledger', ledgerRows);
    }
    for await (const batch of streams.payments) {
      reconciler.addPayments(batch);
      for (const row of batch) await payments.write(row);
      paymentRows += batch.length;
      input.onProgress?.('payments', paymentRows);
    }
    for await (const batch of streams.billPayments) reconciler.addBillPayments(batch);
    // a ledger entry may name another wallet's payment, which the pull may not have read yet
    await reconciler.endWallet();
  }
  await payments.close();
  await ledgerCsv.close();
}

/** The Ledger sheet: the window's ledger lines, wallet by wallet (no wallets when no workbook is written). */
async function ledgerSheetPass(folder: ReportFolder, walletLedgers: Iterable<[WalletRow, AsyncIterable<LedgerRow[]>]>, window: Window): Promise<void> {
  const ledgerSheet = await folder.table(LEDGER_TABLE);
  for (const [, entries] of walletLedgers) {
    for await (const batch of entries) {
      for (const row of batch) if (windowContains(window, row.effective_time)) await ledgerSheet.write(row);
    }
  }
  await ledgerSheet.close();
}

/** open-items.csv: the window's payments not yet settled; its row count decides whether the month may close. */
async function openItemsPass(folder: ReportFolder, walletOpen: Iterable<[WalletRow, AsyncIterable<PaymentRow[]>]>): Promise<number> {
  const open = await folder.table(OPEN_ITEMS_TABLE);
  for (const [, batches] of walletOpen) {
    for await (const batch of batches) {
      // openOnly is the source's filter; the check stays so the sheet's meaning does not depend on it
      for (const row of batch) if (isOpen(row)) await open.write(row);
    }
  }
  return (await open.close()).rows;
}

/** The manifest's counts of the books: entries, lots and what the period discipline did. */
function bookCounts(journal: JournalStageResult | null, lots: LotsStageResult | null): Record<string, number> {
  return {
    ...(journal ? { journal_entries: journal.entries, journal_needs_price: journal.needsPrice } : {}),
    ...(lots ? { lots_held: lots.lotsHeld, lot_reliefs: lots.reliefLines } : {}),
    ...(journal?.discipline ? { journal_unchanged: journal.discipline.unchanged, journal_corrected: journal.discipline.corrected, journal_late: journal.discipline.late, journal_deferred: journal.discipline.deferred } : {}),
  };
}

function isOpen(row: PaymentRow): boolean {
  return row.status_class === 'open' || row.status_class === 'unknown';
}

async function writeAll<Row>(table: { write(row: Row): Promise<void> | undefined; close(): Promise<{ rows: number }> }, rows: readonly Row[]): Promise<void> {
  for (const row of rows) await table.write(row);
  await table.close();
}
