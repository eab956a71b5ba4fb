/**
 * What the lots pass hands the tax files (tax-files.ts): the window's relief lines, the journal's
 * build context (clock, display, books currency), the tax options, the folder, the brokers'
 * Forms 1099-DA read at setup, and the 1 January 2025 allocation the run uses.
 */
import type { BuildContext } from '../../journal/build-movement.js';
import type { ReportTables } from '../../model/report-output.js';
import type { AssetRow, WalletRow } from '../../model/rows.js';
import type { Window } from '../../model/window.js';
import type { OpeningLot, ReliefLine } from '../model.js';
import type { writeForm8949Statement } from '../tables/form-8949-statement.js';
import type { BrokerForms } from './form-1099da-file.js';
import type { TaxOptions } from './tax-options.js';

export interface TaxFilesInput {
  ctx: BuildContext;
  reliefs: readonly ReliefLine[];
  options: TaxOptions;
  /** the report folder; the statement's sheets are laid out on its workbook */
  folder: ReportTables<Parameters<typeof writeForm8949Statement>[0]>;
  window: Window;
  wallets: readonly WalletRow[];
  assets: readonly AssetRow[];
  entity: string;
  forms1099DA: readonly BrokerForms[];
  /** the 1 January 2025 allocation's statement: its source's name and rows (allocation-record.ts); null without one */
  allocation: { file: string; rows: readonly OpeningLot[] } | null;
  /** tax.allocation_changed as the run found it (allocation-record.ts): null when it did not run */
  allocationCheck: { warning: string | null } | null;
  /** the folder's CSV record delimiter, for the TaxAct file */
  csvEol: 'crlf' | 'lf';
}
