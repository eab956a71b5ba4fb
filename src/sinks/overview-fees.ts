/**
 * The Overview's fee block (docs/reports.md "Overview"): per currency the fees the company paid (the
 * network and processing fees of its sends: its expense) apart from those its payers paid (the
 * processing fee a payer adds on top of a receive: it never reaches the wallet, docs/journal.md),
 * then the company's fees in the books' currency as the journal posts them — the fee expense
 * accounts' lines of journal.csv (model/journal-fees.ts) — so the Overview's fee figure is the
 * books' figure, and a sentence that says so and whether the journal's fee lines tie to fees.csv.
 */
import { formatBase, groupThousands } from '../money/format.js';
import { displayCurrency } from '../money/units.js';
import type { SpecContext } from '../model/column-spec.js';
import type { JournalFees } from '../model/journal-fees.js';
import type { CheckResult } from '../model/results.js';
import type { FeeSplit } from './fees-picture.js';
import { headerCells, rowHeight, type OverviewRows } from './overview-layout.js';
import { decimalStyle } from './render-cells.js';
import { amountCell, BOLD_STYLE, countCell, SUBTITLE_STYLE, textCell, type Cell } from './xlsx-cells.js';

export interface OverviewFees {
  splits: readonly FeeSplit[];
  /** absent: the run wrote no journal */
  journal?: JournalFees;
  /** journal.fee_tieout's result, when it ran */
  feeTieout?: CheckResult;
}

/** The company's fees in the books' currency: the journal's network and processing fee lines, all currencies. */
export function journalFeeTotals(journal: JournalFees): { network: bigint; processing: bigint; unvalued: number } {
  return journal.byCurrency.reduce((t, c) => ({ network: t.network + c.network, processing: t.processing + c.processing, unvalued: t.unvalued + c.unvalued }), { network: 0n, processing: 0n, unvalued: 0 });
}

export function writeFeeBlock(out: OverviewRows, fees: OverviewFees, ctx: SpecContext): void {
  out.section('Fees: paid by the company and by its payers (completed payments; by wallet and rail: sheets Fees and Fee charts)');
  const labels = ['currency', 'sends', 'network fee', 'processing fee', 'paid by the company', 'paid by payers (on receives)'];
  out.put(headerCells(labels, 1), rowHeight(labels, out.widths));
  if (fees.splits.length === 0) out.put([textCell('No completed payments in this window.')]);
  for (const s of fees.splits) {
    const total = amountCell(s.companyNetwork + s.companyProcessing, s.currency, ctx);
    out.put([
      textCell(displayCurrency(s.currency, ctx.assetNames), BOLD_STYLE),
      countCell(s.sends),
      amountCell(s.companyNetwork, s.currency, ctx),
      amountCell(s.companyProcessing, s.currency, ctx),
      { value: total.value, style: { ...total.style, font: BOLD_STYLE.font } },
      amountCell(s.payersNetwork + s.payersProcessing, s.currency, ctx),
    ]);
  }
  const words = ["Paid by the company: its sends' network and processing fees, its expense. Paid by payers: the processing fees they add on top of what they pay, which never reach the wallets."];
  if (fees.journal === undefined) {
    words.push('No journal in this run: the fees are in each currency only.');
  } else {
    const j = fees.journal;
    const t = journalFeeTotals(j);
    const money = (v: bigint, bold = false): Cell => ({ value: Number(formatBase(v, j.minorUnits)), style: bold ? { ...BOLD_STYLE, ...decimalStyle(j.minorUnits) } : decimalStyle(j.minorUnits) });
    const show = (v: bigint): string => groupThousands(formatBase(v, j.minorUnits));
    out.put([textCell(`company's fees in ${j.booksCurrency}`, BOLD_STYLE), null, money(t.network), money(t.processing), money(t.network + t.processing, true)]);
    words.push(
      `The company's fees in ${j.booksCurrency} are the journal's fee expense (sheet Journal): ${j.networkAccount} ${show(t.network)} + ${j.processingAccount} ${show(t.processing)} = ${show(t.network + t.processing)} ${j.booksCurrency}, each fee at the rate of the movement that paid it.`,
    );
    if (t.unvalued > 0) words.push(`${t.unvalued.toLocaleString('en-US')} fee line${t.unvalued === 1 ? ' has' : 's have'} no price yet and ${t.unvalued === 1 ? 'is' : 'are'} not in that figure.`);
    const tie = fees.feeTieout;
    if (tie !== undefined && !tie.skipped_reason) {
      words.push(
        tie.findings === 0
          ? "In each currency and wallet the journal's fee lines tie to the company's fees above."
          : `The journal's fee lines do not tie to the company's fees above for ${tie.findings.toLocaleString('en-US')} wallet and fee account${tie.findings === 1 ? '' : 's'}: see the Exceptions sheet.`,
      );
    }
  }
  out.note(words.join(' '), SUBTITLE_STYLE);
}
