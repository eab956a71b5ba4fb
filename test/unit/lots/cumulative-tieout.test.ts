/**
 * lots.cumulative_tieout (src/lots/cumulative-tieout.ts): the cumulative realized gain walks every
 * period since the first event — recorded closes, replayed months, the window — and a recorded
 * close that does not continue the one before it, or a window whose cumulative is not the walk's
 * end, is a finding naming the wallet and the period.
 */
import { describe, expect, it } from 'vitest';
import { cumulativeTieout, type PeriodGains } from '../../../src/lots/cumulative-tieout.js';
import type { WalletFigures } from '../../../src/lots/period-run.js';

const KEY = 'w1|btc';
const recorded = (period: string, from: string, to: string, realized: bigint, cumulative: bigint): PeriodGains => ({ period, from, to, realized: new Map([[KEY, realized]]), cumulative: new Map([[KEY, cumulative]]) });
const replayed = (period: string, to: string, realized: bigint): PeriodGains => ({ period, from: null, to, realized: new Map([[KEY, realized]]), cumulative: null });
const figures = (realizedGain: bigint, cumulativeRealizedGain: bigint): Map<string, WalletFigures> =>
  new Map([[KEY, { walletId: 'w1', currency: 'btc', openingUnits: 0n, openingCost: 0n, addedCost: 0n, relievedCost: 0n, movedOutCost: 0n, additions: 0n, dispositions: 0n, transfersNet: 0n, realizedGain, cumulativeRealizedGain }]]);

/** October's window as a run computes it (not read back from a record); its replayed or recorded months end at 'c'. */
const open = (f: Map<string, WalletFigures>) => ({ period: '2026-10', from: 'c', figures: f, recorded: false });
/** October's window read back from its own recorded close: a re-run of the closed month. */
const reread = (f: Map<string, WalletFigures>) => ({ ...open(f), recorded: true });

describe('lots.cumulative_tieout', () => {
  it('passes a first close: the replayed months and the window add up to the cumulative', () => {
    const out = cumulativeTieout([replayed('2026-08', 'a', 100n), replayed('2026-09', 'b', -30n)], open(figures(50n, 120n)));
    expect(out).toEqual({ findings: [], evaluated: 1 });
  });

  it('passes a chain of recorded closes, the first starting where its own replay did', () => {
    // August's close replayed July (gain 40) before it: its cumulative is 40 + 100
    const periods = [recorded('2026-08', 'a', 'b', 100n, 140n), recorded('2026-09', 'b', 'c', -30n, 110n)];
    expect(cumulativeTieout(periods, open(figures(50n, 160n)))).toEqual({ findings: [], evaluated: 1 });
  });

  it('names a recorded close that does not continue the one before it, and a window whose cumulative is not the sum', () => {
    const periods = [recorded('2026-08', 'a', 'b', 100n, 140n), recorded('2026-09', 'b', 'c', -30n, 113n)];
    const out = cumulativeTieout(periods, open(figures(50n, 163n)));
    expect(out.findings.map((f) => [f.check_id, f.subject_id, f.expected, f.actual])).toEqual([['lots.cumulative_tieout', 'w1:2026-09', '110', '113']]);
    const window = cumulativeTieout([replayed('2026-09', 'b', 7_506_41n)], open(figures(46_948_44n, 54_454_82n)));
    expect(window.findings.map((f) => [f.subject_id, f.expected, f.actual, f.difference])).toEqual([['w1:2026-10', '5445485', '5445482', '-3']]);
  });

  it('starts again after unrecorded months between two recorded closes', () => {
    const periods = [recorded('2026-06', 'a', 'b', 10n, 10n), recorded('2026-09', 'x', 'y', 5n, 99n)];
    expect(cumulativeTieout(periods, open(figures(1n, 100n))).findings).toEqual([]);
  });

  it("passes a closed month's re-run: its record's cumulative carries the months its close replayed, which no record holds", () => {
    // October's close replayed January to September (gain 70) and realized 50: recorded cumulative 120
    expect(cumulativeTieout([], reread(figures(50n, 120n)))).toEqual({ findings: [], evaluated: 1 });
    // read as a run's own window it would not tie: what the replay realized is not among the periods
    expect(cumulativeTieout([], open(figures(50n, 120n))).findings.map((f) => [f.subject_id, f.expected, f.actual])).toEqual([['w1:2026-10', '50', '120']]);
  });

  it("checks a closed month's re-run against the recorded close it continues", () => {
    const september = recorded('2026-09', 'b', 'c', -30n, 110n);
    expect(cumulativeTieout([september], reread(figures(50n, 160n)))).toEqual({ findings: [], evaluated: 1 });
    const out = cumulativeTieout([september], reread(figures(50n, 163n)));
    expect(out.findings.map((f) => [f.subject_id, f.expected, f.actual])).toEqual([['w1:2026-10', '160', '163']]);
    // after unrecorded months (August recorded, September replayed by October's close) it starts again
    expect(cumulativeTieout([recorded('2026-08', 'a', 'b', 100n, 140n)], reread(figures(50n, 163n))).findings).toEqual([]);
  });
});
