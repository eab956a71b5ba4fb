/**
 * lots.cumulative_tieout (docs/lots.md "The checks"): per wallet and currency, the cumulative
 * realized gain at the window's end is the sum of every period's realized gain since the first
 * event. The periods, oldest first: the recorded closes before the window (each with its own
 * realized and cumulative gain), the months this run replayed, what the run's events before the
 * window realized (an export from the 10th), then the window. Walking them, each recorded close
 * must end where the one before it plus its own realized gain does, and the window where all of
 * them do. The first recorded close starts from what its own run replayed (cumulative − realized,
 * checked when it closed); so does a recorded close after a gap of unrecorded months. A window
 * read back from its own record (a re-run of a closed month) is such a close too: the months its
 * closing run replayed are in no record, so unless it continues a recorded close it starts where
 * that replay did, and the re-run finds what the close found.
 */
import type { Finding } from '../model/results.js';
import { finding } from '../reconcile/findings.js';
import type { WalletFigures } from './period-run.js';

/** One period of the walk: what it realized per figureKey, and what it recorded as cumulative (null: not recorded). */
export interface PeriodGains {
  period: string;
  from: string | null;
  to: string;
  realized: ReadonlyMap<string, bigint>;
  cumulative: ReadonlyMap<string, bigint> | null;
}

/** The window checked: its figures, and whether they are its own recorded close read back (lots-run.ts basis 'recorded'). */
export interface WindowGains {
  period: string;
  from: string;
  figures: ReadonlyMap<string, WalletFigures>;
  recorded: boolean;
}

export function cumulativeTieout(periods: readonly PeriodGains[], window: WindowGains): { findings: Finding[]; evaluated: number } {
  const findings: Finding[] = [];
  const keys = new Set<string>(window.figures.keys());
  for (const p of periods) for (const key of [...p.realized.keys(), ...(p.cumulative?.keys() ?? [])]) keys.add(key);
  let evaluated = 0;
  for (const key of [...keys].sort()) {
    const [walletId = '', currency = ''] = key.split('|');
    const differs = (where: string, expected: bigint, actual: bigint): void => {
      findings.push(finding('lots.cumulative_tieout', { subject_kind: 'wallet', subject_id: `${walletId}:${where}`, wallet_id: walletId, currency, expected, actual, difference: actual - expected, message: `cumulative realized gain of wallet ${walletId} at the end of ${where}: ${actual}; the realized gains of every period since the first event add up to ${expected} (minor units)` }));
    };
    let running = 0n;
    let previousTo: string | null = null;
    for (const p of periods) {
      const realized = p.realized.get(key) ?? 0n;
      const recorded = p.cumulative === null ? null : (p.cumulative.get(key) ?? null);
      // the first recorded close, or one after unrecorded months: it starts where its own run's replay did
      if (recorded !== null && (previousTo === null || (p.from !== null && p.from !== previousTo))) running = recorded - realized;
      running += realized;
      if (recorded !== null) {
        if (recorded !== running) differs(p.period, running, recorded);
        running = recorded;
      }
      previousTo = p.to;
    }
    // the subjects are the wallets and currencies, whichever recorded periods they were checked over:
    // the count does not change when an earlier month closes (the rerun property)
    evaluated++;
    const f = window.figures.get(key);
    if (f === undefined) continue;
    if (window.recorded && previousTo !== window.from) running = f.cumulativeRealizedGain - f.realizedGain;
    if (running + f.realizedGain !== f.cumulativeRealizedGain) differs(window.period, running + f.realizedGain, f.cumulativeRealizedGain);
  }
  return { findings, evaluated };
}
