/**
 * The import files against their software's own documentation (docs/tax.md "Imports"):
 *
 * - TaxAct (support article 882): the headings it names, the required ones on every row; and what
 *   the article leaves open, as the forms write it — MM/DD/YYYY, two decimals, no sign but an
 *   adjustment's minus, no byte-order mark; the reporting category a Form 8949 box consistent with
 *   the dates' holding period; a line with an unknown figure left out, never imported as zero.
 * - TXF v042 (Intuit's specification): the V/A/D header, record format 5 with the refnum of the
 *   line's box (321/711/712, 323/713/714), MM/DD/YYYY dates, an ASCII file with no tabs, records
 *   ended by "^"; digital-asset boxes G–L, for which the specification has no refnum, not written.
 */
import { parse } from 'csv-parse/sync';
import { describe, expect, it } from 'vitest';
import type { ReliefLine } from '../../../../src/lots/model.js';
import { form8949Lines } from '../../../../src/lots/tax/form-8949-lines.js';
import { taxActFile } from '../../../../src/lots/tax/taxact-file.js';
import { txfFile } from '../../../../src/lots/tax/txf-file.js';

const relief = (over: Partial<ReliefLine>): ReliefLine => ({
  walletId: 'w', currency: 'btc', disposalRef: 'captured:a', part: 'principal', disposedAt: '2026-10-02T15:00:00.000000Z', lotId: 'L',
  acquiredAt: '2026-09-01T15:00:00.000000Z', units: 1_234_567_000n, proceeds: 1_234_56n, cost: 1_000_00n, gain: 234_56n, term: 'short', ...over,
});
const inputs = { day: (i: string) => i.slice(0, 10), unitsOf: () => ({ symbol: 'BTC', scale: 11, baseUnitName: 'msat' }), receiptOf: () => 'none' as const, booksCurrency: 'USD', minorUnits: 2 };
const lines = form8949Lines([
  relief({ lotId: 'short-2026' }),
  relief({ lotId: 'long-2026', term: 'long', acquiredAt: '2024-03-15T12:00:00.000000Z', cost: 2_000_00n, gain: -765_44n }),
  relief({ lotId: 'short-2024', disposedAt: '2024-11-02T15:00:00.000000Z', acquiredAt: '2024-10-01T15:00:00.000000Z' }),
  relief({ lotId: 'long-2024', term: 'long', disposedAt: '2024-11-02T15:00:00.000000Z', acquiredAt: '2022-10-01T15:00:00.000000Z' }),
  relief({ lotId: 'unknown', cost: null, gain: null }),
  relief({ lotId: 'sub-sat', units: 737n, proceeds: 0n, cost: 0n, gain: 0n, part: 'network_fee' }),
], inputs);

describe('the TaxAct CSV (TaxAct support article 882)', () => {
  const file = taxActFile(lines, 2);
  const records = parse(file.text, { columns: true, bom: false }) as Array<Record<string, string>>;

  it('has the article’s headings, no byte-order mark, CRLF records, ASCII text', () => {
    expect(file.text.split('\r\n')[0]).toBe('Description,Date Acquired,Date Sold,Sales Proceeds,Cost or Other Basis,Adjustment Code,Adjustment Amount,Reporting Category');
    expect(file.text.charCodeAt(0)).not.toBe(0xfeff);
    expect(file.text.replaceAll('\r\n', '')).not.toMatch(/[\r\n]/);
    expect(/^[\x20-\x7e\r\n]*$/.test(file.text)).toBe(true);
  });

  it('fills the required columns on every row with MM/DD/YYYY dates and plain two-decimal amounts, never negative but for an adjustment', () => {
    expect(records).toHaveLength(5);
    for (const r of records) {
      for (const column of ['Description', 'Date Sold', 'Sales Proceeds', 'Date Acquired', 'Cost or Other Basis']) expect(r[column], column).not.toBe('');
      expect(r['Date Acquired']).toMatch(/^(0[1-9]|1[0-2])\/(0[1-9]|[12]\d|3[01])\/\d{4}$/);
      expect(r['Date Sold']).toMatch(/^(0[1-9]|1[0-2])\/(0[1-9]|[12]\d|3[01])\/\d{4}$/);
      expect(r['Sales Proceeds']).toMatch(/^\d+\.\d{2}$/);
      expect(r['Cost or Other Basis']).toMatch(/^\d+\.\d{2}$/);
      expect(r['Adjustment Amount']).toMatch(/^(-?\d+\.\d{2})?$/);
      expect(r['Description']).toMatch(/^(\d+\.\d{1,8} BTC|less than 0\.00000001 BTC \(\d+ msat\))$/);
    }
  });

  it('gives each row the Form 8949 box of its year and holding period as its reporting category', () => {
    const term = (r: Record<string, string>): 'short' | 'long' => {
      const iso = (us: string): string => `${us.slice(6)}-${us.slice(0, 5).replace('/', '-')}`;
      const a = iso(r['Date Acquired']!);
      return iso(r['Date Sold']!) > `${Number(a.slice(0, 4)) + 1}${a.slice(4)}` ? 'long' : 'short';
    };
    for (const r of records) {
      const year = Number(r['Date Sold']!.slice(6));
      const expected = year >= 2025 ? (term(r) === 'short' ? 'I' : 'L') : term(r) === 'short' ? 'C' : 'F';
      expect({ row: r['Description'], category: r['Reporting Category'] }).toEqual({ row: r['Description'], category: expected });
    }
  });

  it('ends its records with LF when the folder’s CSV files do (csv.eol lf)', () => {
    const lf = taxActFile(lines, 2, 'lf');
    expect(lf.text.includes('\r')).toBe(false);
    expect(lf.text.split('\n')).toHaveLength(file.text.split('\r\n').length);
  });

  it('leaves out a line with an unknown figure, and counts it', () => {
    expect(file.incomplete).toBe(1);
    expect(records.some((r) => r['Cost or Other Basis'] === '')).toBe(false);
  });
});

describe('the TXF file (Intuit TXF specification v042)', () => {
  const txf = txfFile(lines, { program: 'payexport', exportDay: '10/31/2026', minorUnits: 2 });
  const records = txf.text.split('\r\n^\r\n').map((r) => r.split('\r\n'));

  it('opens with the version, the program and the export date, and is ASCII without tabs', () => {
    expect(txf.text.startsWith('V042\r\nApayexport\r\nD 10/31/2026\r\n^\r\n')).toBe(true);
    expect(/^[\x20-\x7e\r\n]*$/.test(txf.text)).toBe(true);
  });

  it('writes each line of boxes A–F in record format 5 with its box’s refnum, and none of G–L', () => {
    const details = records.slice(1).filter((r) => r[0] === 'TD');
    expect(details.map((r) => r.slice(0, 4).join(' '))).toEqual(['TD N712 C1 L1', 'TD N714 C1 L1']);
    for (const r of details) {
      expect(r).toHaveLength(10);
      expect(r[4]).toMatch(/^P\d+\.\d{8} BTC$/);
      expect(r[5]).toMatch(/^D\d\d\/\d\d\/\d{4}$/);
      expect(r[6]).toMatch(/^D\d\d\/\d\d\/2024$/);
      expect(r[7]).toMatch(/^\$\d+\.\d{2}$/);
      expect(r[8]).toMatch(/^\$\d+\.\d{2}$/);
      expect(r[9]).toBe('$');
    }
    expect([txf.rows, txf.left]).toEqual([2, 4]);
  });
});
