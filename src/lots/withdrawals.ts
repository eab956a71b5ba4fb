/**
 * The window's withdrawals as the configuration classifies them (custody.ts): how many went to
 * the company's own custody, how many were disposals, and a warning for each one nobody
 * classified (lots.withdrawal_unclassified), booked as a disposal until it is — with its amount,
 * so the person classifying it can find it. The Overview's lots line says the counts.
 */
import type { BuildContext } from '../journal/build-movement.js';
import { formatBase, groupThousands } from '../money/format.js';
import type { Finding } from '../model/results.js';
import { windowContains, type Window } from '../model/window.js';
import { finding } from '../reconcile/findings.js';
import type { CustodyRules, MovementTreatment } from './custody.js';
import type { Movement } from './events.js';

export interface WindowWithdrawal {
  walletId: string;
  currency: string;
  ref: string;
  at: string;
  units: bigint;
  /** the journal's value, minor units; null when it needs a price */
  value: bigint | null;
  treatment: MovementTreatment;
}

/** The withdrawals (no-payment outflows) of the window among `movements`, classified. */
export function windowWithdrawals(movements: readonly Movement[], window: Window, custody: CustodyRules): WindowWithdrawal[] {
  const out: WindowWithdrawal[] = [];
  for (const m of movements) {
    // a late one of a closed period is booked here (re-dated to the window's start): it counts here
    if (!m.noPayment || m.inflow || !windowContains(window, m.entry.postedAt)) continue;
    const wallet = m.entry.lines.find((l) => l.component === 'wallet');
    const ref = m.entry.ledgerRef ?? m.entry.entryNo;
    out.push({ walletId: m.entry.walletId, currency: m.currency, ref, at: m.entry.postedAt, units: wallet?.source?.amount ?? 0n, value: wallet?.amount ?? null, treatment: custody.classify(m.entry.walletId, ref).treatment });
  }
  return out.sort((a, b) => (a.at < b.at ? -1 : a.at > b.at ? 1 : a.ref < b.ref ? -1 : 1));
}

export function withdrawalFindings(withdrawals: readonly WindowWithdrawal[], ctx: BuildContext): { findings: Finding[]; evaluated: number; overview: string } {
  const money = (v: bigint | null): string => (v === null ? 'no price' : `${groupThousands(formatBase(v, ctx.config.minorUnits))} ${ctx.config.booksCurrency}`);
  const unclassified = withdrawals.filter((w) => w.treatment === 'unclassified');
  const findings = unclassified.map((w) =>
    finding('lots.withdrawal_unclassified', {
      subject_kind: 'ledger_entry',
      subject_id: w.ref,
      wallet_id: w.walletId,
      currency: w.currency,
      actual: w.units,
      message: `withdrawal ${w.ref} of ${ctx.display.source({ amount: w.units, currency: w.currency, unit: '' })} (${money(w.value)}) is not classified: booked as a disposal until lots.withdrawals says own_custody (the company's own wallet) or disposal`,
    }),
  );
  const custody = withdrawals.filter((w) => w.treatment === 'own_custody').length;
  const overview = withdrawals.length === 0 ? '' : ` Withdrawals: ${custody} to own custody, ${withdrawals.length - custody} disposals, ${unclassified.length} unclassified${unclassified.length > 0 ? ' (booked as disposals until classified)' : ''}.`;
  return { findings, evaluated: withdrawals.length, overview };
}
