/**
 * The fee charts as openpyxl (software that did not write them) reads them: native bar charts on
 * the "Fee charts" sheet whose series read its own cells, and those cells hold the figures the
 * other files hold — fees by day and by wallet and rail sum to fees.csv per currency, billed vs
 * computed to bills.csv's processing-fee lines (both read by Python's csv module).
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FEE_CHARTS_SHEET, TOP_WALLETS } from '../../../src/sinks/fee-charts.js';
import { writeChartReport } from '../../support/sinks/write-chart-report.js';
import { readCsvWithPython, readersMissing, readXlsxWithOpenpyxl, type OpenpyxlChart, type OpenpyxlSheet, sheetNamed } from '../../support/readers/readers.js';

const missing = readersMissing('both');
const SCALE: Record<string, number> = { btc: 11, usd: 2 };

describe.skipIf(missing !== null)(`fee charts read by openpyxl${missing === null ? '' : ` (skipped: ${missing})`}`, () => {
  let root = '';
  let dir = '';
  let sheets: OpenpyxlSheet[] = [];

  beforeAll(async () => {
    root = await mkdtemp(join(tmpdir(), 'payexport-fee-charts-'));
    dir = (await writeChartReport(join(root, 'out'))).dir;
    sheets = readXlsxWithOpenpyxl(join(dir, 'report.xlsx'), { cells: true });
  });
  afterAll(async () => {
    if (root !== '') await rm(root, { recursive: true, force: true });
  });

  const sheet = (name: string): OpenpyxlSheet => sheetNamed(sheets, name);

  /** The cells of `'Sheet'!$B$4:$B$9` (one column), as openpyxl read them. */
  const cells = (ref: string | null): (string | number | boolean | null)[] => {
    const m = /^'((?:[^']|'')+)'!\$([A-Z]+)\$(\d+)(?::\$([A-Z]+)\$(\d+))?$/.exec(ref ?? '');
    if (m === null) throw new Error(`not a one-column range: ${ref}`);
    const col = (m[2] as string).charCodeAt(0) - 65;
    expect(m[4] ?? m[2], 'one column').toBe(m[2]);
    const rows = sheet((m[1] as string).replaceAll("''", "'")).rows ?? [];
    const out: (string | number | boolean | null)[] = [];
    for (let r = Number(m[3]); r <= Number(m[5] ?? m[3]); r++) out.push(rows[r - 1]?.[col]?.v ?? null);
    return out;
  };

  /** A display amount cell back to base units (the cells hold at most the currency's decimals). */
  const base = (value: string | number | boolean | null, currency: string): bigint => {
    if (typeof value !== 'number') throw new Error(`not a number: ${String(value)}`);
    const [whole, frac = ''] = value.toFixed(SCALE[currency] ?? 0).split('.');
    return BigInt(`${whole}${frac}`);
  };
  const total = (ref: string | null, currency: string): bigint => cells(ref).reduce<bigint>((s, v) => s + base(v, currency), 0n);

  const charts = (): OpenpyxlChart[] => sheet(FEE_CHARTS_SHEET).chart_details;
  const chart = (title: string): OpenpyxlChart => {
    const found = charts().find((c) => c.title === title);
    if (found === undefined) throw new Error(`no chart "${title}" among ${charts().map((c) => c.title).join(', ')}`);
    return found;
  };

  it('draws bar charts on the Fee charts sheet whose every series reads its own cells, none on the Overview', () => {
    expect(sheet('Overview').chart_details).toEqual([]);
    expect(charts().map((c) => c.title)).toEqual(['BTC fees by day', 'BTC fees by wallet and rail', 'BTC processing fees: billed vs computed', 'USD fees by day', 'USD fees by wallet and rail']);
    for (const c of charts()) {
      expect(c.type).toBe('barChart');
      expect(c.series).toHaveLength(2);
      for (const s of c.series) {
        for (const ref of [s.name, s.categories, s.values]) expect(ref).toMatch(new RegExp(`^'${FEE_CHARTS_SHEET}'!`));
        expect(cells(s.values)).toHaveLength(cells(s.categories).length);
        for (const v of cells(s.values)) expect(typeof v).toBe('number');
      }
    }
    // the charts sit under the figures, side by side, never on top of each other
    const anchors = charts().map((c) => `${c.anchor?.row}:${c.anchor?.col}`);
    expect(new Set(anchors).size).toBe(anchors.length);
  });

  it('fees by day and by wallet and rail sum to fees.csv per currency, network and processing apart', () => {
    const fees = readCsvWithPython(join(dir, 'fees.csv'));
    const at = (name: string): number => fees.header.indexOf(name);
    for (const currency of ['btc', 'usd']) {
      const rows = fees.rows.filter((r) => r[at('currency')] === currency);
      const network = rows.reduce((s, r) => s + BigInt(r[at('network_fee_base')] as string), 0n);
      const processing = rows.reduce((s, r) => s + BigInt(r[at('processing_fee_base')] as string), 0n);
      expect(network + processing, currency).toBeGreaterThan(0n);
      for (const title of [`${currency.toUpperCase()} fees by day`, `${currency.toUpperCase()} fees by wallet and rail`]) {
        const [net, proc] = chart(title).series;
        expect(cells(net!.name)).toEqual([`network fee (${currency.toUpperCase()})`]);
        expect({ title, network: total(net!.values, currency), processing: total(proc!.values, currency) }).toEqual({ title, network, processing });
      }
    }
  });

  it(`shows at most ${TOP_WALLETS} wallet × rail bars and sums the rest as "other"`, () => {
    const labels = cells(chart('BTC fees by wallet and rail').series[0]!.categories);
    expect(labels).toHaveLength(TOP_WALLETS + 1);
    expect(String(labels.at(-1))).toMatch(/^other \(\d+ wallet·rail\)$/);
    const days = cells(chart('BTC fees by day').series[0]!.categories);
    expect(days.length).toBeGreaterThan(1);
    expect([...days].sort()).toEqual(days);
  });

  it('billed vs computed: the processing-fee lines of bills.csv whose figures are both known', () => {
    const bills = readCsvWithPython(join(dir, 'bills.csv'));
    const at = (name: string): number => bills.header.indexOf(name);
    const lines = bills.rows.filter((r) => /^processing_fee_/.test(r[at('figure')] as string) && r[at('billed_base')] !== '' && r[at('computed_base')] !== '');
    expect(lines.length).toBeGreaterThan(0);
    const [billed, computed] = chart('BTC processing fees: billed vs computed').series;
    expect(cells(billed!.name)).toEqual(['billed (BTC)']);
    expect(total(billed!.values, 'btc')).toBe(lines.reduce((s, r) => s + BigInt(r[at('billed_base')] as string), 0n));
    expect(total(computed!.values, 'btc')).toBe(lines.reduce((s, r) => s + BigInt(r[at('computed_base')] as string), 0n));
  });
});
