/**
 * Forms 1099-DA reconciled with the disposals, on generated files: exact matches (the principal's
 * units, or every leg's), each kind of difference — proceeds more and less than the books, basis
 * reported and not, a date a day off, the holding period — a form no disposal matches, a duplicate,
 * and a disposal no form reports; each with its box, its Form 8949 columns (d)–(h) as the
 * instructions ask, and the finding it raises. (h) stays the books' gain on every line.
 */
import { describe, expect, it } from 'vitest';
import type { ReliefLine } from '../../../../src/lots/model.js';
import { parseForm1099DA, type BrokerForms } from '../../../../src/lots/tax/form-1099da-file.js';
import { reconcileForms } from '../../../../src/lots/tax/form-1099da-reconcile.js';
import { form8949Lines, type Form8949Line } from '../../../../src/lots/tax/form-8949-lines.js';
import { AppError } from '../../../../src/util/errors.js';

const W = 'aaaaaaaa-0000-4000-8000-000000000001';
const OTHER = 'aaaaaaaa-0000-4000-8000-000000000002';
const HEADER = 'box_1b_name,box_1c_units,box_1d_date_acquired,box_1e_date_sold,box_1f_proceeds,box_1g_cost_basis,box_2_basis_reported,box_6_term,applicable_checkbox,transaction_id';

/** a disposal's relief lines: principal of 1,000,000 msat (two lots), network fee 10,000 msat */
function disposal(ref: string, at: string, over: { proceeds?: [bigint, bigint, bigint]; cost?: [bigint, bigint, bigint]; terms?: ['short' | 'long', 'short' | 'long'] } = {}): ReliefLine[] {
  const [p1, p2, pf] = over.proceeds ?? [60_00n, 40_00n, 1_00n];
  const [c1, c2, cf] = over.cost ?? [50_00n, 30_00n, 80n];
  const [t1, t2] = over.terms ?? ['short', 'long'];
  const base = { walletId: W, currency: 'btc', disposalRef: ref, disposedAt: at, acquiredAt: '2025-06-01T12:00:00.000000Z' };
  return [
    { ...base, part: 'principal', lotId: `${ref}-1`, units: 600_000n, proceeds: p1, cost: c1, gain: p1 - c1, term: t1 },
    { ...base, part: 'principal', lotId: `${ref}-2`, units: 400_000n, proceeds: p2, cost: c2, gain: p2 - c2, term: t2, acquiredAt: '2024-01-01T12:00:00.000000Z' },
    { ...base, part: 'network_fee', lotId: `${ref}-1`, units: 10_000n, proceeds: pf, cost: cf, gain: pf - cf, term: t1 },
  ];
}

const reliefs: ReliefLine[] = [
  ...disposal('captured:exact', '2026-10-05T15:00:00.000000Z'),
  ...disposal('captured:all-legs', '2026-10-06T15:00:00.000000Z'),
  ...disposal('captured:more', '2026-10-07T15:00:00.000000Z'),
  ...disposal('captured:less', '2026-10-08T15:00:00.000000Z'),
  ...disposal('captured:basis-g', '2026-10-09T15:00:00.000000Z'),
  ...disposal('captured:basis-h', '2026-10-10T15:00:00.000000Z'),
  ...disposal('captured:late', '2026-10-20T15:00:00.000000Z'),
  ...disposal('captured:term', '2026-10-12T15:00:00.000000Z', { terms: ['short', 'short'] }),
  ...disposal('captured:by-id', '2026-10-13T15:00:00.000000Z'),
  ...disposal('captured:unreported', '2026-10-14T15:00:00.000000Z'),
  { ...disposal('captured:other-wallet', '2026-10-05T15:00:00.000000Z')[0]!, walletId: OTHER },
];

const csv = [
  HEADER,
  'Bitcoin,0.00001,VARIOUS,10/05/2026,100.00,,,,,', // exact, principal units, no basis: H and K
  'BTC,0.0000101,,10/06/2026,101.00,,,,,', // every leg's units
  'Bitcoin,0.00001,,10/07/2026,103.00,,,,,', // proceeds more than the books
  'Bitcoin,0.00001,,10/08/2026,99.00,,,,,', // proceeds less than the books
  'Bitcoin,0.00001,,10/09/2026,100.00,70.00,X,,,', // basis reported, differs
  'Bitcoin,0.00001,,10/10/2026,100.00,90.00,,,,', // basis shown, not reported, differs
  'Bitcoin,0.00001,,10/21/2026,100.00,,,,,', // the 20 October sale, dated a day late
  'Bitcoin,0.00001,,10/12/2026,100.00,,,long,,', // 12 October, but long term
  'Bitcoin,0.00001,,10/13/2026,100.00,,,,,by-id',
  'Bitcoin,0.00002,,10/15/2026,200.00,,,,,', // no disposal of 0.00002 BTC: the IRS has a sale the books do not
  'Bitcoin,0.00002,,10/15/2026,200.00,,,,,', // and its duplicate
  'Bitcoin,0.00002,,11/20/2026,200.00,,,,,', // outside the window: another period's
].join('\r\n');

const file: BrokerForms = { broker: 'Exchange Co', file: 'da.csv', wallets: [W], rows: parseForm1099DA(csv, 'da.csv', 2) };
const rec = reconcileForms([file], reliefs, {
  day: (i) => i.slice(0, 10),
  firstDay: '2026-10-01',
  lastDay: '2026-10-31',
  minorUnits: 2,
  scaleOf: () => 11,
  namesOf: () => ['bitcoin', 'btc'],
  brokerOf: () => 'Exchange Co',
});
const lines = form8949Lines(reliefs, { day: (i) => i.slice(0, 10), unitsOf: () => ({ symbol: 'BTC', scale: 11, baseUnitName: 'msat' }), receiptOf: () => 'none', booksCurrency: 'USD', minorUnits: 2, reportOf: rec.reportOf });
const of = (ref: string): Form8949Line[] => lines.filter((l) => l.relief.disposalRef === `captured:${ref}`);
const principal = (ref: string): Form8949Line[] => of(ref).filter((l) => l.relief.part === 'principal');
const columns = (l: Form8949Line): string => `${l.box} d=${l.proceeds} e=${l.cost} f=${l.codes} g=${l.adjustment} h=${l.gain}`;

describe('Forms 1099-DA reconciled with the disposals', () => {
  it('matches each form to one disposal: the principal’s units, or every leg’s; by transaction id first', () => {
    expect(rec.rows.map((r) => `${r.status} ${r.row?.line ?? '-'} ${r.disposal?.ref ?? '-'} ${r.differences.join('+')}`)).toEqual([
      'matched 2 captured:exact ',
      'matched 3 captured:all-legs ',
      'differs 4 captured:more proceeds',
      'differs 5 captured:less proceeds',
      'differs 6 captured:basis-g basis',
      'differs 7 captured:basis-h basis',
      'differs 8 captured:late date',
      'differs 9 captured:term term',
      'matched 10 captured:by-id ',
      'unmatched 11 - ',
      'duplicate 12 - ',
      'not_reported - captured:unreported ',
    ].map((s) => s.replace('differs 10 captured:by-id ', 'matched 10 captured:by-id ')));
  });

  it('puts a matched sale in H or K (no basis reported) or G or J (reported), the books’ figures when they agree', () => {
    expect(of('exact').map(columns)).toEqual(['H d=6000 e=5000 f= g=null h=1000', 'I d=100 e=80 f= g=null h=20', 'K d=4000 e=3000 f= g=null h=1000']);
    expect(of('all-legs').map((l) => l.box)).toEqual(['H', 'H', 'K']);
    expect(of('unreported').map((l) => l.box)).toEqual(['I', 'I', 'L']);
    expect(of('unreported')[0]?.note).toBe('No Form 1099-DA from Exchange Co reports this disposal: box I or L.');
  });

  it('takes a larger reported proceeds into (d) with the difference in (g), code O; a smaller one leaves the books’ (d)', () => {
    expect(principal('more').map(columns)).toEqual(['H d=6180 e=5000 f=O g=-180 h=1000', 'K d=4120 e=3000 f=O g=-120 h=1000']);
    expect(principal('less').map(columns)).toEqual(['H d=6000 e=5000 f= g=null h=1000', 'K d=4000 e=3000 f= g=null h=1000']);
    expect(of('more')[0]?.note).toBe('Form 1099-DA from Exchange Co (line 4): proceeds 103.00 on the form, 100.00 in the books.');
  });

  it('corrects a reported basis in (g) with code B (G/J), and enters -0- for one not reported (H/K)', () => {
    expect(principal('basis-g').map(columns)).toEqual(['G d=6000 e=4200 f=B g=-800 h=1000', 'J d=4000 e=2800 f=B g=-200 h=1000']);
    expect(principal('basis-h').map(columns)).toEqual(['H d=6000 e=5000 f=B g=0 h=1000', 'K d=4000 e=3000 f=B g=0 h=1000']);
  });

  it('keeps the books’ part and date: code T with -0- for a wrong term, a day off matched and noted', () => {
    expect(principal('term').map(columns)).toEqual(['H d=6000 e=5000 f=T g=0 h=1000', 'H d=4000 e=3000 f=T g=0 h=1000']);
    expect(of('late').map((l) => [l.sold, l.codes])).toEqual([['10/20/2026', ''], ['10/20/2026', ''], ['10/20/2026', '']]);
    expect(of('late')[0]?.note).toBe('Form 1099-DA from Exchange Co (line 8): date sold 10/21/2026 on the form.');
  });

  it('leaves every line’s (h) at the books’ gain, and (d) − (e) + (g) = (h)', () => {
    for (const l of lines) {
      expect(l.gain).toBe(l.relief.gain);
      expect((l.proceeds as bigint) - (l.cost as bigint) + (l.adjustment ?? 0n)).toBe(l.gain);
    }
  });

  it('raises a finding for each difference, the unmatched form (an error), the duplicate and the unreported disposal', () => {
    expect(rec.findings.map((f) => `${f.check_id} ${f.severity} ${f.subject_id}`).sort()).toEqual([
      'tax.1099da_basis warning captured:basis-g',
      'tax.1099da_basis warning captured:basis-h',
      'tax.1099da_date warning captured:late',
      'tax.1099da_duplicate warning Exchange Co:line 12',
      'tax.1099da_not_reported info captured:unreported',
      'tax.1099da_proceeds warning captured:less',
      'tax.1099da_proceeds warning captured:more',
      'tax.1099da_term warning captured:term',
      'tax.1099da_unmatched error Exchange Co:line 11',
    ]);
    expect(rec.findings.find((f) => f.check_id === 'tax.1099da_unmatched')?.message).toBe('Form 1099-DA from Exchange Co, line 11: 0.00002 Bitcoin sold 2026-10-15, proceeds 200.00 — no disposal of its wallets matches (asset, units, date sold within a day): the IRS has a sale the books do not');
  });
});

describe('the Form 1099-DA file', () => {
  it('refuses a bad row naming the file and line (exit 78)', () => {
    const bad = (text: string): string => {
      try {
        parseForm1099DA(text, 'da.csv', 2);
      } catch (e) {
        expect(e).toBeInstanceOf(AppError);
        expect((e as AppError).exit).toBe('config');
        return (e as Error).message;
      }
      return 'accepted';
    };
    expect(bad('box_1b_name,box_1c_units,box_1e_date_sold\nBitcoin,1,10/05/2026')).toBe("Form 1099-DA file 'da.csv' line 1: the header lacks box_1f_proceeds (columns: box_1b_name, box_1c_units, box_1e_date_sold, box_1f_proceeds, box_1a_code, box_1d_date_acquired, box_1g_cost_basis, box_2_basis_reported, box_6_term, box_9_noncovered, applicable_checkbox, account_number, transaction_id)");
    expect(bad(`${HEADER}\nBitcoin,0.5,,13/05/2026,1.00,,,,,`)).toBe("Form 1099-DA file 'da.csv' line 2: box_1e_date_sold is not a date MM/DD/YYYY");
    expect(bad(`${HEADER}\nBitcoin,0.5,,10/05/2026,1.001,,,,,`)).toBe("Form 1099-DA file 'da.csv' line 2: box_1f_proceeds '1.001' is not an amount with at most 2 decimals");
    expect(bad(`${HEADER}\nBitcoin,-1,,10/05/2026,1.00,,,,,`)).toMatch(/line 2: box_1c_units '-1' is not a positive number of units/);
    expect(bad(`${HEADER}\n"Bit"coin,1,,10/05/2026,1.00,,,,,`)).toBe("Form 1099-DA file 'da.csv' line 2: text after a closing quote");
    expect(bad(`\uFEFF${HEADER}\r\n"Bitcoin, the asset",1,,10/05/2026,"1.00",,x,Short-term,g,\r\n`)).toBe('accepted');
  });
});
