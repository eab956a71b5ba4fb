/**
 * What a compiled table's row renderers share (render-cells.ts compiles the table, column-cells.ts
 * each column): the context they read, the reused XLSX row buffer they fill, and the counts of what
 * rendering met that a reader should be told about.
 */
import type { Style } from 'exceljs';
import type { SpecContext } from '../model/column-spec.js';
import type { ZonedClock } from '../model/zoned-time.js';

export interface RenderContext extends SpecContext {
  readonly clock: ZonedClock;
}

export type XlsxValue = string | number | boolean | Date | null;

/** What rendering an XLSX row met that a reader should be told about (Definitions / manifest). */
export interface XlsxRenderStats {
  /** cells whose control characters (e.g. NUL) were replaced by visible symbols */
  replacedControlChars: number;
  /** text cells cut at Excel's 32,767-character limit */
  truncatedTexts: number;
  /** amounts written as exact text because they exceed 15 significant digits (`_base` and exact decimals) */
  amountsAsText: number;
  /** display amounts beyond 15 significant digits: numbers rounded by Excel, exact in their `_base` column */
  displayAmountsRounded: number;
}

export interface XlsxCellOut {
  values: XlsxValue[];
  styles: Partial<Style>[];
  /** column indexes (0-based) that hold an amount written as text in this row */
  textAmountColumns: number[];
}
