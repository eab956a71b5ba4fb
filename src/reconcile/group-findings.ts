/**
 * Findings of one cause, grouped: one row per check, cause and asset, with the count, the units
 * and the first and last instants it touches — where a run would otherwise list a finding per
 * journal line or per lot. A month without prices made 919 `journal.needs_price` and 955
 * `lots.basis_unknown` rows (issue 52), and the real anomalies were lost among them; grouped, the
 * Exceptions sheet and the Overview show each distinct problem once, beside the anomalies.
 *
 * Nothing is lost: each grouped row names where its members are listed one by one (the journal's
 * `needs_price` column, the lots' and relief lines' empty cost). A cause met once keeps its own
 * finding as it was, so a single anomaly is never folded into a summary.
 */
import type { Finding } from '../model/results.js';
import { checkDefinition, type CheckId } from './catalogue.js';
import { compareText } from './findings.js';

export interface CausedFinding {
  finding: Finding;
  /** a short machine key of the cause (`no_price`, `deposit_no_row`): part of the grouped subject id */
  cause: string;
  /** the cause in words, for the grouped message: `have no USD price (payment quote, price file, price cache)` */
  text: string;
  /** the instant the finding is about (a movement, an acquisition), when known */
  at: string | null;
}

export interface GroupWords {
  /** what a member is, in the plural: `ledger entries`, `lots` */
  members: string;
  /** where the members are listed one by one: `journal.csv (needs_price true)` */
  detail: string;
}

/** One finding per (check, cause, currency) of two or more members; a lone member is returned as it was. */
export function groupByCause(caused: readonly CausedFinding[], words: GroupWords): Finding[] {
  const groups = new Map<string, CausedFinding[]>();
  for (const c of caused) {
    const key = `${c.finding.check_id}\u0000${c.cause}\u0000${c.finding.currency ?? ''}`;
    groups.set(key, [...(groups.get(key) ?? []), c]);
  }
  const out: Finding[] = [];
  for (const members of groups.values()) {
    const first = members[0] as CausedFinding;
    if (members.length === 1) {
      out.push(first.finding);
      continue;
    }
    const check = first.finding.check_id as CheckId;
    const currency = first.finding.currency;
    const wallets = new Set(members.map((m) => m.finding.wallet_id));
    const instants = members.map((m) => m.at).filter((a): a is string => a !== null).sort(compareText);
    const units = members.reduce((sum, m) => sum + (m.finding.actual !== null && /^-?\d+$/.test(m.finding.actual) ? BigInt(m.finding.actual) : 0n), 0n);
    const span = instants.length === 0 ? '' : instants.length === 1 || instants[0] === instants[instants.length - 1] ? ` at ${instants[0]}` : ` from ${instants[0]} to ${instants[instants.length - 1]}`;
    const where = wallets.size === 1 ? `wallet ${[...wallets][0] ?? '(none)'}` : `${wallets.size} wallets`;
    out.push({
      check_id: check,
      severity: checkDefinition(check).severity,
      subject_kind: 'run',
      subject_id: `${check}:${currency ?? '-'}:${first.cause}`,
      wallet_id: wallets.size === 1 ? ([...wallets][0] ?? null) : null,
      currency,
      expected: null,
      actual: units.toString(),
      difference: null,
      message: `${members.length} ${words.members} of ${currency ?? 'no currency'} in ${where}${span} ${first.text} (${units} base units in all); each is listed in ${words.detail}`,
    });
  }
  return out;
}
