/**
 * Pairing a broker's Forms 1099-DA with the window's disposals (docs/tax.md "Forms 1099-DA").
 *
 * A disposal is one ledger movement of one wallet (its relief lines: principal, network fee,
 * processing fee, …). A form reports a sale: its asset (box 1b), units (1c) and date sold (1e). A
 * form matches a disposal of one of its file's wallets with the same asset whose principal units,
 * or all its legs' units (a broker "may combine the reporting of the transaction to pay for broker
 * fees with the underlying transaction", Instructions for Form 1099-DA (2026), *General
 * Reporting*), equal box 1c exactly, sold the same day in the books' zone — or, failing that, a
 * day either side (a broker may date by another zone). A transaction id, when the file gives one,
 * picks its disposal first; otherwise equal proceeds break ties, then the disposals' order. Each
 * disposal matches one form at most; a form identical to an earlier one of its file is a duplicate.
 */
import type { ReliefLine } from '../model.js';
import type { BrokerForms, Form1099DARow } from './form-1099da-file.js';

export interface Disposal {
  walletId: string;
  currency: string;
  ref: string;
  /** YYYY-MM-DD in the books' zone */
  day: string;
  lines: ReliefLine[];
  principalUnits: bigint;
  allUnits: bigint;
}

export interface FormMatch {
  broker: string;
  row: Form1099DARow;
  disposal: Disposal;
  /** the relief lines the form reports: the principal's, or every leg's */
  lines: ReliefLine[];
}

export interface Pairing {
  matches: FormMatch[];
  /** forms dated in the window that match no disposal */
  unmatched: Array<{ broker: string; row: Form1099DARow }>;
  duplicates: Array<{ broker: string; row: Form1099DARow }>;
  /** disposals of wallets whose forms were read that no form reports */
  notReported: Disposal[];
}

export interface PairingInputs {
  day: (instant: string) => string;
  /** the window's first and last days in the books' zone */
  firstDay: string;
  lastDay: string;
  /** digits of a currency's base unit (BTC: 11) */
  scaleOf: (currency: string) => number;
  /** the names box 1b may give a currency (lower case): bitcoin, btc; an asset's name and symbol */
  namesOf: (currency: string) => readonly string[];
}

export function disposalsOf(reliefs: readonly ReliefLine[], day: (instant: string) => string): Disposal[] {
  const byKey = new Map<string, Disposal>();
  for (const r of reliefs) {
    const key = `${r.walletId.toLowerCase()}|${r.disposalRef}`;
    let d = byKey.get(key);
    if (d === undefined) {
      d = { walletId: r.walletId, currency: r.currency, ref: r.disposalRef, day: day(r.disposedAt), lines: [], principalUnits: 0n, allUnits: 0n };
      byKey.set(key, d);
    }
    d.lines.push(r);
    d.allUnits += r.units;
    if (r.part === 'principal' || r.part === 'withdrawal' || r.part === 'swap') d.principalUnits += r.units;
  }
  return [...byKey.values()];
}

export function pairForms(files: readonly BrokerForms[], reliefs: readonly ReliefLine[], inputs: PairingInputs): Pairing {
  const disposals = disposalsOf(reliefs, inputs.day);
  const taken = new Set<Disposal>();
  const out: Pairing = { matches: [], unmatched: [], duplicates: [], notReported: [] };
  const covered = new Set(files.flatMap((f) => f.wallets.map((w) => w.toLowerCase())));
  for (const file of files) {
    const wallets = new Set(file.wallets.map((w) => w.toLowerCase()));
    const mine = disposals.filter((d) => wallets.has(d.walletId.toLowerCase()));
    const seen = new Set<string>();
    const rows: Form1099DARow[] = [];
    for (const row of file.rows) {
      if (row.sold < shiftDay(inputs.firstDay, -1) || row.sold > shiftDay(inputs.lastDay, 1)) continue;
      const key = JSON.stringify({ ...row, line: 0 }, (_k, v: unknown) => (typeof v === 'bigint' ? v.toString() : v));
      if (seen.has(key)) out.duplicates.push({ broker: file.broker, row });
      else rows.push(row);
      seen.add(key);
    }
    const left = new Set(rows);
    const attempt = (tolerance: number, byId: boolean): void => {
      for (const row of rows) {
        if (!left.has(row) || (byId && row.transactionId === '')) continue;
        const fits = mine.filter((d) => !taken.has(d) && (!byId || d.ref === row.transactionId || d.ref.endsWith(`:${row.transactionId}`)) && legsOf(row, d, inputs) !== null && Math.abs(dayDiff(row.sold, d.day)) <= tolerance);
        const chosen = fits.find((d) => proceedsOf(legsOf(row, d, inputs) ?? []) === row.proceeds) ?? fits[0];
        if (chosen === undefined) continue;
        taken.add(chosen);
        left.delete(row);
        out.matches.push({ broker: file.broker, row, disposal: chosen, lines: legsOf(row, chosen, inputs) ?? [] });
      }
    };
    attempt(1, true);
    attempt(0, false);
    attempt(1, false);
    for (const row of rows) if (left.has(row) && row.sold >= inputs.firstDay && row.sold <= inputs.lastDay) out.unmatched.push({ broker: file.broker, row });
  }
  out.notReported = disposals.filter((d) => covered.has(d.walletId.toLowerCase()) && !taken.has(d));
  return out;
}

/** The relief lines a form reports of a disposal, when its asset and units fit; null otherwise. */
function legsOf(row: Form1099DARow, d: Disposal, inputs: PairingInputs): ReliefLine[] | null {
  if (!inputs.namesOf(d.currency).includes(row.name.toLowerCase())) return null;
  const units = unitsAt(row.units, inputs.scaleOf(d.currency));
  if (units === null) return null;
  if (units === d.principalUnits) return d.lines.filter((l) => l.part === 'principal' || l.part === 'withdrawal' || l.part === 'swap');
  if (units === d.allUnits) return d.lines;
  return null;
}

/** Box 1c in base units of `scale` digits, or null when it is finer than the unit (it can equal no disposal). */
export function unitsAt(text: string, scale: number): bigint | null {
  const [whole, fraction = ''] = text.split('.') as [string, string?];
  const trimmed = fraction.replace(/0+$/, '');
  if (trimmed.length > scale) return null;
  return BigInt(whole) * 10n ** BigInt(scale) + BigInt((trimmed.padEnd(scale, '0') || '0'));
}

export function proceedsOf(lines: readonly ReliefLine[]): bigint | null {
  return lines.some((l) => l.proceeds === null) ? null : lines.reduce((a, l) => a + (l.proceeds as bigint), 0n);
}

export function costOf(lines: readonly ReliefLine[]): bigint | null {
  return lines.some((l) => l.cost === null) ? null : lines.reduce((a, l) => a + (l.cost as bigint), 0n);
}

const DAY_MS = 86_400_000;
export function dayDiff(a: string, b: string): number {
  return Math.round((Date.parse(a) - Date.parse(b)) / DAY_MS);
}
function shiftDay(day: string, by: number): string {
  return new Date(Date.parse(day) + by * DAY_MS).toISOString().slice(0, 10);
}
