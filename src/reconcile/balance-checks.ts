/**
 * The checks of one wallet × currency roll-forward row (balances.csv): the roll-forward adds up
 * (`balance.rollforward`, also unproven while entries are unreadable) and the ledger meets the
 * API's balance (`balance.api_total`, directly or bridged by the movements since the window end).
 */
import type { BalanceRow, Finding } from '../model/results.js';
import type { CheckId } from './catalogue.js';
import { finding } from './findings.js';

export function checkBalanceRow(walletId: string, row: BalanceRow): { findings: Finding[]; evaluated: CheckId[] } {
  const findings: Finding[] = [];
  const evaluated: CheckId[] = ['balance.rollforward'];
  const subject = { subject_kind: 'wallet' as const, subject_id: walletId, wallet_id: walletId, currency: row.currency };
  const rolled = row.opening_base + row.credits_base - row.debits_base;
  if (rolled !== row.closing_base) {
    findings.push(
      finding('balance.rollforward', {
        ...subject,
        expected: rolled,
        actual: row.closing_base,
        difference: row.closing_base - rolled,
        message: `opening ${row.opening_base} + credits ${row.credits_base} − debits ${row.debits_base} = ${rolled}, but the ledger closes at ${row.closing_base} ${row.unit}`,
      }),
    );
  }
  if ((row.unknown_entries ?? 0) > 0) {
    findings.push(
      finding('balance.rollforward', {
        ...subject,
        actual: BigInt(row.unknown_entries ?? 0),
        message: `${row.unknown_entries} ledger entr${row.unknown_entries === 1 ? 'y' : 'ies'} up to the window end with an unknown amount, time or effect: the roll-forward is not proven`,
      }),
    );
  }
  if (row.balance_check === 'not_checked' || row.balance_check === undefined) return { findings, evaluated };
  evaluated.push('balance.api_total');
  const direct = row.balance_check === 'direct';
  const difference = (direct ? row.difference_base : row.bridge_difference_base) ?? 0n;
  if (difference !== 0n) {
    const api = (direct ? row.api_balance_base : row.api_balance_now_base) ?? 0n;
    const ledger = api + difference;
    findings.push(
      finding('balance.api_total', {
        ...subject,
        expected: api,
        actual: ledger,
        difference,
        message: direct
          ? `closing ${row.closing_base} ${row.unit} − API balance ${api} (read at ${row.api_balance_time}) = ${difference}${row.balance_check_note ? ` (${row.balance_check_note})` : ''}`
          : `closing ${row.closing_base} + movements since ${row.movements_since_base ?? 0n} = ${ledger} ${row.unit}, but the API balance at ${row.api_balance_time} is ${api}${row.balance_check_note?.startsWith('the API lists no') ? ` (${row.balance_check_note.split(';')[0]})` : ''}`,
      }),
    );
  }
  return { findings, evaluated };
}
