/**
 * What the report stage hands the lots pass (lots-stage.ts) and the run it computes (lots-run.ts):
 * the setup, the journal's valuation inputs, the snapshot's rows, and the record of closed periods.
 */
import type { JournalConfig } from '../config/journal-schema.js';
import type { PriceLookup } from '../journal/price-file.js';
import type { JournalExports } from '../model/journal-record.js';
import type { LotsRecord } from '../model/lots-record.js';
import type { ReportSource } from '../model/ports.js';
import type { BalanceRow } from '../model/results.js';
import type { AssetRow, WalletRow } from '../model/rows.js';
import type { Window } from '../model/window.js';
import type { TaxFilesInput } from './tax/tax-input.js';
import type { LotsSetup } from './lots-setup.js';

export interface LotsStageInput {
  lots: LotsSetup;
  journal: JournalConfig;
  prices: ReadonlyMap<string, PriceLookup>;
  source: ReportSource;
  organizationId: string;
  wallets: readonly WalletRow[];
  assets: readonly AssetRow[];
  window: Window;
  balances: readonly BalanceRow[];
  /** the report folder (the Crypto assets sheet is handed over as data, the note; the Form 8949 statement is laid out on its workbook) */
  folder: TaxFilesInput['folder'];
  /** the own custody wallets' units at the window's end as the journal moved them (lots.fair_value_tieout) */
  journalCustody?: ReadonlyArray<{ currency: string; units: bigint }>;
  /** the snapshot's record of closed periods (null on the spool) and what this run does with it */
  record?: LotsRecordUse | null;
  /** the folder's CSV record delimiter (csv.eol): the tax import CSV ends its records the same way, as verify reads them */
  csvEol?: 'crlf' | 'lf';
}

export interface LotsRecordUse {
  lots: LotsRecord;
  runId: string;
  period: string;
  /** the period was closed before this run (an amended folder): show its record when there is one */
  closed: boolean;
  /** this month-end closes the period: stage what it computes (the pipeline confirms it) */
  stage: boolean;
  /** the journal's record: which movements a recorded period posted (a late one is applied in the first open period) */
  journal?: JournalExports | null;
}
