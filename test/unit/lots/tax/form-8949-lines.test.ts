/**
 * Form 8949 lines and their totals from relief lines: the box per wallet's Form 1099-DA setting and
 * per tax year, Part I before Part II and the boxes in the form's order, dates MM/DD/YYYY on the
 * books' calendar, (h) = (d) − (e), a 0.00-proceeds line explained, and each box's totals equal to
 * the sums of its lines (what Schedule D gets).
 */
import { describe, expect, it } from 'vitest';
import { localDate } from '../../../../src/journal/build-movement.js';
import type { ReliefLine } from '../../../../src/lots/model.js';
import { form8949Lines } from '../../../../src/lots/tax/form-8949-lines.js';
import { boxTotals } from '../../../../src/lots/tax/form-8949-totals.js';
import { ZonedClock } from '../../../../src/model/zoned-time.js';

const relief = (over: Partial<ReliefLine>): ReliefLine => ({
  walletId: 'w-none', currency: 'btc', disposalRef: 'captured:a', part: 'principal', disposedAt: '2026-10-02T15:00:00.000000Z', lotId: 'LOT-1',
  acquiredAt: '2026-09-01T15:00:00.000000Z', units: 1_000_000_000n, proceeds: 100_00n, cost: 90_00n, gain: 10_00n, term: 'short', ...over,
});

const clock = new ZonedClock('America/New_York');
const inputs = {
  day: (i: string): string => localDate(clock, i),
  unitsOf: () => ({ symbol: 'BTC', scale: 11, baseUnitName: 'msat' }),
  receiptOf: (w: string) => (w === 'w-basis' ? ('basis_reported' as const) : w === 'w-nobasis' ? ('basis_not_reported' as const) : ('none' as const)),
  booksCurrency: 'USD',
  minorUnits: 2,
};

describe('Form 8949 lines', () => {
  const reliefs = [
    relief({ lotId: 'L-long', term: 'long', acquiredAt: '2024-03-15T12:00:00.000000Z', cost: 65_00n, gain: 35_00n }),
    relief({ lotId: 'L-basis', walletId: 'w-basis' }),
    relief({ lotId: 'L-fee', part: 'network_fee', units: 737n, proceeds: 0n, cost: 0n, gain: 0n }),
    relief({ lotId: 'L-nobasis', walletId: 'w-nobasis', term: 'long', acquiredAt: '2024-03-15T12:00:00.000000Z' }),
    relief({ lotId: 'L-2024', disposedAt: '2025-01-01T04:30:00.000000Z' }), // 31 December 2024 in New York: tax year 2024
    relief({ lotId: 'L-unknown', cost: null, gain: null, acquiredAt: '2026-10-02T15:00:00.000000Z' }),
  ];
  const lines = form8949Lines(reliefs, inputs);

  it('gives each line its box: by the wallet’s Form 1099-DA setting, and A–F for a 2024 disposal', () => {
    expect(lines.map((l) => `${l.taxYear} ${l.part} ${l.box} ${l.relief.lotId}`)).toEqual([
      '2024 I C L-2024',
      '2026 I G L-basis',
      '2026 I I L-fee',
      '2026 I I L-unknown',
      '2026 II K L-nobasis',
      '2026 II L L-long',
    ]);
    expect(lines.map((l) => l.scheduleDLine)).toEqual(['3', '1b', '3', '3', '9', '10']);
  });

  it('prints the dates on the books’ calendar and the units in the description, with (h) = (d) − (e)', () => {
    const y2024 = lines[0]!;
    expect([y2024.acquired, y2024.sold]).toEqual(['09/01/2026', '12/31/2024']);
    const long = lines.find((l) => l.relief.lotId === 'L-long')!;
    expect([long.description, long.acquired, long.sold, long.proceeds, long.cost, long.gain, long.codes, long.adjustment]).toEqual(['0.01000000 BTC', '03/15/2024', '10/02/2026', 100_00n, 65_00n, 35_00n, '', null]);
  });

  it('explains a line whose proceeds round below a cent, and an unknown basis', () => {
    const fee = lines.find((l) => l.relief.lotId === 'L-fee')!;
    expect(fee.description).toBe('less than 0.00000001 BTC (737 msat)');
    expect(fee.note).toMatch(/^Proceeds under 0\.01 USD: the journal values this network fee's share at less than one cent, which rounds to 0\.00; the disposal is reported all the same\.$/);
    expect(lines.find((l) => l.relief.lotId === 'L-unknown')!.note).toMatch(/^Basis unknown \(lots\.basis_unknown\)/);
    expect(lines.filter((l) => l.note === '').length).toBe(4);
  });

  it('totals each box’s (d), (e), (g), (h) for Schedule D; an unknown figure leaves its total unknown', () => {
    const totals = boxTotals(lines);
    expect(totals.map((t) => `${t.taxYear} ${t.box} ${t.scheduleDLine} ${t.lines}`)).toEqual(['2024 C 3 1', '2026 G 1b 1', '2026 I 3 2', '2026 K 9 1', '2026 L 10 1']);
    const i = totals.find((t) => t.box === 'I')!;
    expect([i.proceeds, i.cost, i.gain]).toEqual([100_00n, null, null]);
    for (const t of totals.filter((x) => x.cost !== null)) {
      const mine = lines.filter((l) => l.box === t.box && l.taxYear === t.taxYear);
      expect(t.proceeds).toBe(mine.reduce((s, l) => s + (l.proceeds as bigint), 0n));
      expect(t.gain).toBe((t.proceeds as bigint) - (t.cost as bigint) + t.adjustment);
    }
  });
});
