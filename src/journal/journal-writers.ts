/**
 * The journal files of one report folder, written side by side as entries arrive: journal.csv
 * (and the Journal sheet) gets every entry line, including entries that need a price; Beancount,
 * hledger, QuickBooks Online and Xero get the posted entries that are fully valued.
 */
import type { ExtraFileHandle, ReportTables, TableHandle } from '../model/report-output.js';
import { BEANCOUNT_FILE, beancountEntry, beancountHeader } from './formats/beancount.js';
import { ledgerName, qboName, xeroCode, type FormatContext } from './formats/format-context.js';
import { HLEDGER_FILE, hledgerEntry, hledgerHeader } from './formats/hledger.js';
import { JOURNAL_TABLE, type JournalTableRow } from './formats/journal-table.js';
import { QBO_TABLE, qboRows, type QboRow } from './formats/qbo-table.js';
import { XERO_TABLE, xeroRows, type XeroRow } from './formats/xero-table.js';
import { FeeExpense } from './fee-expense.js';
import { isValued, type JournalEntry } from './model.js';

export class JournalWriters {
  private entries = 0;
  private lines = 0;
  /** the fee accounts' lines as journal.csv holds them (the Overview's fees in the books' currency) */
  private readonly fees: FeeExpense;

  private constructor(
    private readonly folder: ReportTables,
    private readonly ctx: FormatContext,
    private readonly csv: TableHandle<JournalTableRow> | null,
    private readonly beancount: ExtraFileHandle | null,
    private readonly hledger: ExtraFileHandle | null,
    private readonly qbo: TableHandle<QboRow> | null,
    private readonly xero: TableHandle<XeroRow> | null,
  ) {
    const { booksCurrency, minorUnits, fees } = ctx.config;
    this.fees = new FeeExpense(booksCurrency, minorUnits, ledgerName(ctx, fees.network), ledgerName(ctx, fees.processing));
  }

  static async open(folder: ReportTables, ctx: FormatContext): Promise<JournalWriters> {
    const on = new Set(ctx.config.formats);
    const csv = on.has('csv') ? await folder.table(JOURNAL_TABLE) : null;
    const beancount = on.has('beancount') ? folder.extraFile(BEANCOUNT_FILE) : null;
    const hledger = on.has('hledger') ? folder.extraFile(HLEDGER_FILE) : null;
    const qbo = on.has('qbo') ? folder.extraCsv(QBO_TABLE) : null;
    const xero = on.has('xero') ? folder.extraCsv(XERO_TABLE) : null;
    await beancount?.write(beancountHeader(ctx));
    await hledger?.write(hledgerHeader(ctx));
    return new JournalWriters(folder, ctx, csv, beancount, hledger, qbo, xero);
  }

  /** Every entry's lines, valued or not, to journal.csv. */
  async detail(entry: JournalEntry, summaryNo: string | null): Promise<void> {
    if (this.csv === null) return;
    const { booksCurrency, minorUnits } = this.ctx.config;
    for (const [i, line] of entry.lines.entries()) {
      this.fees.add(line);
      await this.csv.write({ entry, line, lineNo: i + 1, summaryNo, account: ledgerName(this.ctx, line.account), booksCurrency, minorUnits });
    }
  }

  /** A posted entry (per payment, a daily summary or a remeasurement) to the ledger and ERP formats, when valued. */
  async posted(entry: JournalEntry): Promise<void> {
    if (!isValued(entry)) return;
    this.entries += 1;
    this.lines += entry.lines.length;
    await this.beancount?.write(beancountEntry(this.ctx, entry));
    await this.hledger?.write(hledgerEntry(this.ctx, entry));
    const { minorUnits, xeroTaxRate } = this.ctx.config;
    if (this.qbo !== null) for (const row of qboRows(entry, minorUnits, (key) => qboName(this.ctx, key))) await this.qbo.write(row);
    if (this.xero !== null) for (const row of xeroRows(entry, minorUnits, (key) => xeroCode(this.ctx, key), xeroTaxRate)) await this.xero.write(row);
  }

  async close(): Promise<{ entries: number; lines: number }> {
    await this.csv?.close();
    await this.beancount?.close(this.entries);
    await this.hledger?.close(this.entries);
    await this.qbo?.close();
    await this.xero?.close();
    // the Overview's fees in the books' currency are what journal.csv posts to the fee accounts
    if (this.csv !== null) this.folder.journalFees?.(this.fees.result());
    return { entries: this.entries, lines: this.lines };
  }

  /** The folder's abort removes every file; nothing to undo here. */
  async abort(): Promise<void> {}
}
