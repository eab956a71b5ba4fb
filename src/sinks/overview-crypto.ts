/**
 * The Overview's crypto block (docs/reports.md "Overview"), under the roll-forward: per crypto
 * currency the lots hold, its units, cost basis, fair value, the period's realized gain, the
 * unrealized gain at the end, and whether its lots tie; the total in the books' currency; what
 * the figures are measured against. The subledger (src/lots) fills it in; the details are on the
 * Crypto assets and Lots sheets.
 */
import { formatBase } from '../money/format.js';
import type { CryptoOverview, CryptoOverviewRow } from '../model/crypto-overview.js';
import { decimalStyle } from './render-cells.js';
import { headerCells, type OverviewRows } from './overview-layout.js';
import { BOLD_STYLE, COUNT_STYLE, FAIL_STYLE, PASS_STYLE, SUBTITLE_STYLE, textCell, type Cell } from './xlsx-cells.js';

// the block's figures are the subledger's data (model/crypto-overview.ts); this file only draws them
export type { CryptoOverview, CryptoOverviewRow };

export function writeCryptoBlock(out: OverviewRows, crypto: CryptoOverview): void {
  const books = crypto.booksCurrency;
  const money = (v: bigint | null, bold = false): Cell => ({ value: v === null ? null : Number(formatBase(v, crypto.minorUnits)), style: bold ? { ...BOLD_STYLE, ...decimalStyle(crypto.minorUnits) } : decimalStyle(crypto.minorUnits) });
  const sum = (pick: (r: CryptoOverviewRow) => bigint | null): bigint | null => crypto.rows.reduce<bigint | null>((a, r) => (a === null || pick(r) === null ? null : a + (pick(r) as bigint)), 0n);
  out.section(`Crypto assets (the lots; details: sheets Crypto assets and Lots), ${books}`);
  const labels = ['currency', 'lots', 'units held', `cost basis`, `fair value`, 'realized gain, period', `unrealized gain, ${crypto.lastDay}`, 'lots tie'];
  out.put(headerCells(labels, 1), 30);
  if (crypto.rows.length === 0) out.put([textCell('No crypto asset held or moved in the tracked wallets.')]);
  for (const r of crypto.rows) {
    out.put([
      textCell(r.ticker, BOLD_STYLE),
      { value: r.lots, style: COUNT_STYLE },
      { value: Number(formatBase(r.units, r.unitScale)), style: decimalStyle(r.unitScale) },
      money(r.costBasis),
      money(r.fairValue),
      money(r.realizedGain),
      money(r.unrealizedGain),
      textCell(r.ties ? 'yes' : 'NO', r.ties ? PASS_STYLE : FAIL_STYLE),
    ]);
  }
  if (crypto.rows.length > 1) {
    const ties = crypto.rows.every((r) => r.ties);
    out.put([textCell(`total ${books}`, BOLD_STYLE), { value: crypto.rows.reduce((a, r) => a + r.lots, 0), style: COUNT_STYLE }, null, money(sum((r) => r.costBasis), true), money(sum((r) => r.fairValue), true), money(sum((r) => r.realizedGain), true), money(sum((r) => r.unrealizedGain), true), textCell(ties ? 'yes' : 'NO', ties ? PASS_STYLE : FAIL_STYLE)]);
  }
  out.note(`Units in each currency's own unit; amounts in ${books}. Realized gain: proceeds − cost basis of the lots relieved in the period. Unrealized gain: fair value (the units at the closing price) − cost basis of the lots held at ${crypto.lastDay}. The lots tie when the lots checks (units, cost, gain, fair value, known basis) found nothing for the currency.`, SUBTITLE_STYLE);
  for (const note of crypto.notes) out.note(note, SUBTITLE_STYLE);
}
