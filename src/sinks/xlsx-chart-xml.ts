/**
 * Native workbook charts as DrawingML XML (ECMA-376 part 1, §21.2 charts and §20.5 spreadsheet
 * drawings): a bar/column chart whose series read cells of the workbook, and the drawing that
 * anchors charts to cells of a sheet. exceljs's streaming writer has no charts, so
 * xlsx-workbook.ts adds these parts to the zip itself.
 *
 * Every series carries its cells' values as a cache beside the reference: a reader that does not
 * recalculate (a viewer, a preview) draws the cache, a spreadsheet reads the cells. Element order
 * follows the schema's sequences, which strict readers enforce. No ids are random, so the same
 * input gives the same bytes.
 */

export const CHART_CONTENT_TYPE = 'application/vnd.openxmlformats-officedocument.drawingml.chart+xml';
export const DRAWING_CONTENT_TYPE = 'application/vnd.openxmlformats-officedocument.drawing+xml';
export const DRAWING_REL_TYPE = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships/drawing';
export const CHART_REL_TYPE = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships/chart';

const NS_C = 'http://schemas.openxmlformats.org/drawingml/2006/chart';
const NS_A = 'http://schemas.openxmlformats.org/drawingml/2006/main';
const NS_R = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';
const NS_XDR = 'http://schemas.openxmlformats.org/drawingml/2006/spreadsheetDrawing';

/** A cell range with the texts or numbers it holds (the cache). */
export interface CellRef<V> {
  /** `'Sheet name'!$A$1:$A$9` */
  ref: string;
  values: readonly V[];
}

export interface ChartSeries {
  /** the cell holding the series name */
  name: CellRef<string>;
  /** numbers as exact decimal text (`0.00012`), as the cells hold them */
  values: CellRef<string>;
  /** fill colour, `RRGGBB` */
  color: string;
}

export interface BarChartSpec {
  title: string;
  /** col: vertical columns (a time axis); bar: horizontal bars (labels read top-down) */
  direction: 'col' | 'bar';
  grouping: 'stacked' | 'clustered';
  categories: CellRef<string>;
  series: readonly ChartSeries[];
  /** number format of the value axis' labels (the cells' own format) */
  numberFormat: string;
}

/** Where a chart sits on a sheet: zero-based cell corners, `to` excluded. */
export interface ChartAnchor {
  fromCol: number;
  fromRow: number;
  toCol: number;
  toRow: number;
}

export function escapeXml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' })[c] as string);
}

/** `'Fee charts'!$B$4:$B$9` for zero-based columns and one-based rows. */
export function rangeRef(sheet: string, col: number, firstRow: number, lastRow = firstRow): string {
  const letter = columnLetter(col);
  const quoted = `'${sheet.replaceAll("'", "''")}'`;
  return firstRow === lastRow ? `${quoted}!$${letter}$${firstRow}` : `${quoted}!$${letter}$${firstRow}:$${letter}$${lastRow}`;
}

export function columnLetter(col: number): string {
  let n = col + 1;
  let out = '';
  while (n > 0) {
    const r = (n - 1) % 26;
    out = String.fromCharCode(65 + r) + out;
    n = Math.floor((n - 1) / 26);
  }
  return out;
}

function strRef(cells: CellRef<string>): string {
  const points = cells.values.map((v, i) => `<c:pt idx="${i}"><c:v>${escapeXml(v)}</c:v></c:pt>`).join('');
  return `<c:strRef><c:f>${escapeXml(cells.ref)}</c:f><c:strCache><c:ptCount val="${cells.values.length}"/>${points}</c:strCache></c:strRef>`;
}

function numRef(cells: CellRef<string>, format: string): string {
  const points = cells.values.map((v, i) => `<c:pt idx="${i}"><c:v>${escapeXml(v)}</c:v></c:pt>`).join('');
  return `<c:numRef><c:f>${escapeXml(cells.ref)}</c:f><c:numCache><c:formatCode>${escapeXml(format)}</c:formatCode><c:ptCount val="${cells.values.length}"/>${points}</c:numCache></c:numRef>`;
}

const TEXT_PROPS = (size: number, bold: boolean): string =>
  `<c:txPr><a:bodyPr/><a:lstStyle/><a:p><a:pPr><a:defRPr sz="${size}" b="${bold ? 1 : 0}"><a:solidFill><a:srgbClr val="374151"/></a:solidFill></a:defRPr></a:pPr><a:endParaRPr lang="en-US"/></a:p></c:txPr>`;
const LINE = (color: string): string => `<c:spPr><a:ln w="6350"><a:solidFill><a:srgbClr val="${color}"/></a:solidFill></a:ln></c:spPr>`;
/**
 * Axis labels and legend at 11 pt (hundredths of a point): a chart is printed at its sheet's scale,
 * which may be as small as 8/11 (print-fit.ts), and its text must stay at 8 pt or more.
 */
const CHART_TEXT_SIZE = 1100;
const CAT_AX_ID = 500100;
const VAL_AX_ID = 500200;

/** One chart part (`xl/charts/chartN.xml`). */
export function barChartXml(spec: BarChartSpec): string {
  const series = spec.series
    .map(
      (s, i) =>
        `<c:ser><c:idx val="${i}"/><c:order val="${i}"/><c:tx>${strRef(s.name)}</c:tx>` +
        `<c:spPr><a:solidFill><a:srgbClr val="${s.color}"/></a:solidFill></c:spPr><c:invertIfNegative val="0"/>` +
        `<c:cat>${strRef(spec.categories)}</c:cat><c:val>${numRef(s.values, spec.numberFormat)}</c:val></c:ser>`,
    )
    .join('');
  const horizontal = spec.direction === 'bar';
  return [
    '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n',
    `<c:chartSpace xmlns:c="${NS_C}" xmlns:a="${NS_A}" xmlns:r="${NS_R}">`,
    '<c:roundedCorners val="0"/>',
    '<c:chart>',
    `<c:title><c:tx><c:rich><a:bodyPr/><a:lstStyle/><a:p><a:pPr><a:defRPr sz="1100" b="1"/></a:pPr><a:r><a:rPr lang="en-US" sz="1100" b="1"/><a:t>${escapeXml(spec.title)}</a:t></a:r></a:p></c:rich></c:tx><c:overlay val="0"/></c:title>`,
    '<c:autoTitleDeleted val="0"/>',
    '<c:plotArea><c:layout/>',
    `<c:barChart><c:barDir val="${spec.direction}"/><c:grouping val="${spec.grouping}"/><c:varyColors val="0"/>${series}`,
    `<c:gapWidth val="${horizontal ? 60 : 40}"/>${spec.grouping === 'stacked' ? '<c:overlap val="100"/>' : '<c:overlap val="-10"/>'}`,
    `<c:axId val="${CAT_AX_ID}"/><c:axId val="${VAL_AX_ID}"/></c:barChart>`,
    // horizontal bars list the first category at the top, as the data block does
    `<c:catAx><c:axId val="${CAT_AX_ID}"/><c:scaling><c:orientation val="${horizontal ? 'maxMin' : 'minMax'}"/></c:scaling><c:delete val="0"/><c:axPos val="${horizontal ? 'l' : 'b'}"/>`,
    `<c:numFmt formatCode="General" sourceLinked="0"/><c:majorTickMark val="none"/><c:minorTickMark val="none"/><c:tickLblPos val="nextTo"/>${LINE('9CA3AF')}${TEXT_PROPS(CHART_TEXT_SIZE, false)}`,
    `<c:crossAx val="${VAL_AX_ID}"/><c:crosses val="autoZero"/><c:auto val="1"/><c:lblAlgn val="ctr"/><c:lblOffset val="100"/><c:noMultiLvlLbl val="0"/></c:catAx>`,
    `<c:valAx><c:axId val="${VAL_AX_ID}"/><c:scaling><c:orientation val="minMax"/></c:scaling><c:delete val="0"/><c:axPos val="${horizontal ? 'b' : 'l'}"/>`,
    `<c:majorGridlines>${LINE('E5E7EB')}</c:majorGridlines><c:numFmt formatCode="${escapeXml(spec.numberFormat)}" sourceLinked="0"/><c:majorTickMark val="none"/><c:minorTickMark val="none"/><c:tickLblPos val="nextTo"/>${LINE('9CA3AF')}${TEXT_PROPS(CHART_TEXT_SIZE, false)}`,
    // with the categories top-down, the value axis crosses at their far end: its labels sit below the bars
    `<c:crossAx val="${CAT_AX_ID}"/><c:crosses val="${horizontal ? 'max' : 'autoZero'}"/><c:crossBetween val="between"/></c:valAx>`,
    '</c:plotArea>',
    `<c:legend><c:legendPos val="b"/><c:overlay val="0"/>${TEXT_PROPS(CHART_TEXT_SIZE, false)}</c:legend>`,
    '<c:plotVisOnly val="1"/><c:dispBlanksAs val="gap"/>',
    '</c:chart>',
    '<c:spPr><a:solidFill><a:srgbClr val="FFFFFF"/></a:solidFill><a:ln w="6350"><a:solidFill><a:srgbClr val="D1D5DB"/></a:solidFill></a:ln></c:spPr>',
    '</c:chartSpace>',
  ].join('');
}

/** The drawing part (`xl/drawings/drawingN.xml`): chart k at anchor k, related as `rId{k+1}`. */
export function drawingXml(anchors: readonly ChartAnchor[]): string {
  const frames = anchors.map((a, k) =>
    [
      '<xdr:twoCellAnchor editAs="oneCell">',
      `<xdr:from><xdr:col>${a.fromCol}</xdr:col><xdr:colOff>0</xdr:colOff><xdr:row>${a.fromRow}</xdr:row><xdr:rowOff>0</xdr:rowOff></xdr:from>`,
      `<xdr:to><xdr:col>${a.toCol}</xdr:col><xdr:colOff>0</xdr:colOff><xdr:row>${a.toRow}</xdr:row><xdr:rowOff>0</xdr:rowOff></xdr:to>`,
      `<xdr:graphicFrame macro=""><xdr:nvGraphicFramePr><xdr:cNvPr id="${k + 2}" name="Chart ${k + 1}"/><xdr:cNvGraphicFramePr/></xdr:nvGraphicFramePr>`,
      '<xdr:xfrm><a:off x="0" y="0"/><a:ext cx="0" cy="0"/></xdr:xfrm>',
      `<a:graphic><a:graphicData uri="${NS_C}"><c:chart xmlns:c="${NS_C}" xmlns:r="${NS_R}" r:id="rId${k + 1}"/></a:graphicData></a:graphic>`,
      '</xdr:graphicFrame><xdr:clientData/></xdr:twoCellAnchor>',
    ].join(''),
  );
  return `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<xdr:wsDr xmlns:xdr="${NS_XDR}" xmlns:a="${NS_A}">${frames.join('')}</xdr:wsDr>`;
}

/** A part's relationships (`…/_rels/<part>.rels`): `rId{k+1}` → targets[k]. */
export function relationshipsXml(targets: readonly { type: string; target: string }[]): string {
  const rels = targets.map((t, k) => `<Relationship Id="rId${k + 1}" Type="${t.type}" Target="${escapeXml(t.target)}"/>`).join('');
  return `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">${rels}</Relationships>`;
}
