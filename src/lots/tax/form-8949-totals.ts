/**
 * The totals of each part and box: what Form 8949's line 2 adds up — "Add the amounts in columns
 * (d), (e), (g), and (h) (subtract negative amounts). Enter each total here and include on your
 * Schedule D, line 1b (if Box A or Box G above is checked), line 2 (...), or line 3 (...)" — the
 * figures a preparer carries to Schedule D (Form 8949 (2025), Part I and Part II line 2). One total
 * per tax year, part and box present, in the form's order. A total is unknown (null) when one of
 * its lines' figures is: it cannot be carried before that line is completed.
 */
import { BOX_ORDER, partOf, SCHEDULE_D_LINE, type Box8949, type Part8949 } from './boxes.js';
import type { Form8949Line } from './form-8949-lines.js';

export interface BoxTotal {
  taxYear: number;
  part: Part8949;
  box: Box8949;
  scheduleDLine: string;
  lines: number;
  proceeds: bigint | null;
  cost: bigint | null;
  adjustment: bigint;
  gain: bigint | null;
}

export function boxTotals(lines: readonly Form8949Line[]): BoxTotal[] {
  const byKey = new Map<string, BoxTotal>();
  const plus = (a: bigint | null, b: bigint | null): bigint | null => (a === null || b === null ? null : a + b);
  for (const l of lines) {
    const key = `${l.taxYear}|${l.box}`;
    const t = byKey.get(key) ?? { taxYear: l.taxYear, part: partOf(l.box), box: l.box, scheduleDLine: SCHEDULE_D_LINE[l.box], lines: 0, proceeds: 0n, cost: 0n, adjustment: 0n, gain: 0n };
    t.lines += 1;
    t.proceeds = plus(t.proceeds, l.proceeds);
    t.cost = plus(t.cost, l.cost);
    t.adjustment += l.adjustment ?? 0n;
    t.gain = plus(t.gain, l.gain);
    byKey.set(key, t);
  }
  return [...byKey.values()].sort((a, b) => a.taxYear - b.taxYear || BOX_ORDER.indexOf(a.box) - BOX_ORDER.indexOf(b.box));
}
