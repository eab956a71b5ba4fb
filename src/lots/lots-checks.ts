/**
 * The subledger's checks (catalogue: lots.*), on what the period run produced:
 *   units_tieout       Σ units held per wallet = the roll-forward's closing balance
 *   cost_tieout        opening cost + added − relieved − moved out = closing cost
 *   gain_identity      per relief line, gain = proceeds − cost
 *   fair_value_tieout  per currency, the lots' fair value = the journal's (from the balances)
 *   basis_unknown, identification_late: the notes of the run
 */
import type { BalanceRow, Finding } from '../model/results.js';
import { finding } from '../reconcile/findings.js';
import type { Lot, ReliefLine } from './model.js';
import { figureKey, type WalletFigures } from './period-run.js';
import type { LotNote } from './subledger.js';
import { basisCause, noteInstants } from './note-causes.js';
import { groupByCause, type CausedFinding } from '../reconcile/group-findings.js';

export interface CheckOutcome {
  findings: Finding[];
  evaluated: Record<string, number>;
}

export function lotsChecks(input: {
  figures: ReadonlyMap<string, WalletFigures>;
  closing: readonly Lot[];
  reliefs: readonly ReliefLine[];
  notes: readonly LotNote[];
  balances: readonly BalanceRow[];
  tracked: (walletId: string, currency: string) => boolean;
  /** per currency: the lots' closing fair value and the journal's, null when a price is missing */
  fairValues: ReadonlyMap<string, { lots: bigint | null; journal: bigint | null }>;
}): CheckOutcome {
  const findings: Finding[] = [];
  const evaluated: Record<string, number> = {};
  const count = (id: string): void => {
    evaluated[id] = (evaluated[id] ?? 0) + 1;
  };
  const heldUnits = new Map<string, bigint>();
  const heldCost = new Map<string, bigint>();
  for (const l of input.closing) {
    const key = figureKey(l.walletId, l.currency);
    heldUnits.set(key, (heldUnits.get(key) ?? 0n) + l.units);
    heldCost.set(key, (heldCost.get(key) ?? 0n) + (l.cost ?? 0n));
  }
  const keys = new Set([...input.figures.keys()]);
  for (const b of input.balances) if (input.tracked(b.wallet_id, b.currency)) keys.add(figureKey(b.wallet_id, b.currency));
  for (const key of [...keys].sort()) {
    const [walletId = '', currency = ''] = key.split('|');
    const balance = input.balances.find((b) => b.wallet_id === walletId && b.currency === currency);
    if (balance !== undefined) {
      count('lots.units_tieout');
      const units = heldUnits.get(key) ?? 0n;
      if (units !== balance.closing_base) findings.push(finding('lots.units_tieout', { subject_kind: 'wallet', subject_id: walletId, wallet_id: walletId, currency, expected: balance.closing_base, actual: units, difference: units - balance.closing_base, message: `the lots of wallet ${walletId} hold ${units} base units; the roll-forward closes at ${balance.closing_base}` }));
    }
    const f = input.figures.get(key);
    if (f !== undefined) {
      count('lots.cost_tieout');
      const expected = f.openingCost + f.addedCost - f.relievedCost - f.movedOutCost;
      const actual = heldCost.get(key) ?? 0n;
      if (expected !== actual) findings.push(finding('lots.cost_tieout', { subject_kind: 'wallet', subject_id: walletId, wallet_id: walletId, currency, expected, actual, difference: actual - expected, message: `opening cost ${f.openingCost} + added ${f.addedCost} − relieved ${f.relievedCost} − moved out ${f.movedOutCost} ≠ closing cost ${actual} (minor units)` }));
    }
  }
  for (const r of input.reliefs) {
    count('lots.gain_identity');
    if (r.proceeds !== null && r.cost !== null && r.gain !== r.proceeds - r.cost) findings.push(finding('lots.gain_identity', { subject_kind: 'ledger_entry', subject_id: `${r.disposalRef}:${r.part}:${r.lotId}`, wallet_id: r.walletId, currency: r.currency, expected: r.proceeds - r.cost, actual: r.gain, message: 'gain ≠ proceeds − cost basis' }));
  }
  for (const [currency, fv] of [...input.fairValues].sort()) {
    count('lots.fair_value_tieout');
    if (fv.lots === null || fv.journal === null) continue;
    if (fv.lots !== fv.journal) findings.push(finding('lots.fair_value_tieout', { subject_kind: 'wallet', subject_id: currency, wallet_id: null, currency, expected: fv.journal, actual: fv.lots, difference: fv.lots - fv.journal, message: `closing fair value of the lots (${fv.lots}) ≠ the journal's (${fv.journal}), minor units` }));
  }
  const unknown: CausedFinding[] = [];
  const at = noteInstants(input.closing, input.reliefs);
  for (const n of input.notes) {
    const id = n.code === 'basis_unknown' ? 'lots.basis_unknown' : 'lots.identification_late';
    const f = finding(id, { subject_kind: n.code === 'basis_unknown' ? 'wallet' : 'ledger_entry', subject_id: n.code === 'basis_unknown' ? `${n.walletId}:${n.ref}` : n.ref, wallet_id: n.walletId, currency: n.currency, actual: n.units, message: n.message });
    if (n.code === 'basis_unknown') unknown.push({ finding: f, ...basisCause(n.message), at: at(n) });
    else findings.push(f);
  }
  // one row per cause and currency, not one per lot (group-findings.ts): the lots stay listed one by one
  findings.push(...groupByCause(unknown, { members: 'lot movements', detail: 'lots.csv and lot-reliefs.csv (cost empty) and the Lots sheet' }));
  evaluated['lots.basis_unknown'] = input.closing.length + input.reliefs.length;
  evaluated['lots.identification_late'] = input.reliefs.length;
  return { findings, evaluated };
}
