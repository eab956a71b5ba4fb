import { describe, expect, it } from 'vitest';
import { FeeChartData, topAndRest } from '../../../src/sinks/fee-charts.js';
import { barChartXml, columnLetter, drawingXml, rangeRef } from '../../../src/sinks/xlsx-chart-xml.js';
import { ZonedClock } from '../../../src/model/zoned-time.js';
import { chartBills } from '../../support/sinks/write-chart-report.js';
import { paymentRow } from '../../support/sinks/rows.js';

describe('fee chart data', () => {
  it('sums fees per day of the report zone, fills the days between, and counts only what fees.csv sums', () => {
    const data = new FeeChartData(new ZonedClock('Europe/Berlin'));
    // 22:30 UTC on Sep 30 is Oct 1 in Berlin
    data.addPayment(paymentRow({ created_at: '2026-09-30T22:30:00.000000Z', network_fee_base: 10n, processing_fee_base: 100n }));
    data.addPayment(paymentRow({ created_at: '2026-10-03T09:00:00.000000Z', network_fee_base: 1n, processing_fee_base: 2n }));
    data.addPayment(paymentRow({ created_at: '2026-10-03T10:00:00.000000Z', network_fee_base: 1n, processing_fee_base: 2n }));
    data.addPayment(paymentRow({ created_at: '2026-10-02T10:00:00.000000Z', status: 'failed', status_class: 'failed', network_fee_base: 500n }));
    data.addPayment(paymentRow({ created_at: '2026-10-02T10:00:00.000000Z', network_fee_base: null }));
    expect(data.daysOf('btc')).toEqual([
      ['2026-10-01', { network: 10n, processing: 100n }],
      ['2026-10-02', { network: 0n, processing: 0n }],
      ['2026-10-03', { network: 2n, processing: 4n }],
    ]);
    expect(data.daysOf('usd')).toEqual([]);
  });

  it('takes the processing-fee lines of bills.csv whose billed and computed figures are both known', () => {
    const data = new FeeChartData(new ZonedClock('UTC'));
    for (const row of chartBills()) data.addBill(row);
    expect(data.billedOf('btc').map(([wallet, f]) => [wallet.slice(-4), f])).toEqual([
      ['0000', { billed: 35_000n, computed: 30_000n, lines: 2 }],
      ['0001', { billed: 60_000n, computed: 60_000n, lines: 1 }],
    ]);
  });

  it('keeps the largest bars in their order and returns the rest', () => {
    const items = ['a', 'b', 'c', 'd', 'e'].map((key, i) => ({ key, size: BigInt([5, 1, 9, 1, 7][i] as number) }));
    const { top, rest } = topAndRest(items, (t) => t.size, (t) => t.key, 3);
    expect(top.map((t) => t.key)).toEqual(['a', 'c', 'e']);
    expect(rest.map((t) => t.key)).toEqual(['b', 'd']);
    expect(topAndRest(items, (t) => t.size, (t) => t.key, 5).rest).toEqual([]);
  });
});

describe('chart XML', () => {
  it('quotes sheet names in references and escapes texts', () => {
    expect(rangeRef("Bob's fees", 1, 4, 9)).toBe("'Bob''s fees'!$B$4:$B$9");
    expect(rangeRef('Fee charts', 27, 3)).toBe("'Fee charts'!$AB$3");
    expect(columnLetter(0)).toBe('A');
    const xml = barChartXml({
      title: 'A & B <fees>',
      direction: 'bar',
      grouping: 'clustered',
      numberFormat: '#,##0.00',
      categories: { ref: "'Fee charts'!$A$2:$A$3", values: ['x<y', 'z'] },
      series: [{ name: { ref: "'Fee charts'!$B$1", values: ['billed'] }, values: { ref: "'Fee charts'!$B$2:$B$3", values: ['1.5', '2'] }, color: 'F59E0B' }],
    });
    expect(xml).toContain('<a:t>A &amp; B &lt;fees&gt;</a:t>');
    expect(xml).toContain('<c:f>&apos;Fee charts&apos;!$A$2:$A$3</c:f><c:strCache><c:ptCount val="2"/><c:pt idx="0"><c:v>x&lt;y</c:v></c:pt>');
    expect(xml).toContain('<c:barDir val="bar"/><c:grouping val="clustered"/>');
    expect(drawingXml([{ fromCol: 0, fromRow: 3, toCol: 3, toRow: 18 }, { fromCol: 3, fromRow: 3, toCol: 6, toRow: 18 }])).toMatch(/r:id="rId1".*r:id="rId2"/s);
  });
});
