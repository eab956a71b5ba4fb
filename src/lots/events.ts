/**
 * The journal's movement entries → subledger events, valued exactly as the journal values them
 * (build-movement.ts: the same rate, the same rounding): a receive's cost is its wallet leg, each
 * leg of a send is its own disposal with the leg's books amount as proceeds.
 *
 *   receive (credited)               acquire, origin receive (swap when the payment was routed by swap)
 *   deposited (no payment)           acquire, origin deposit: basis from the opening-lots file
 *   send (captured)                  dispose: principal, network_fee, processing_fee (swap: the principal is `swap`)
 *   withdrawn (no payment)           dispose: withdrawal; to own custody (custody.ts): a transfer to the custody wallet
 *   deposited from own custody       a transfer from the custody wallet: its lots come back with their dates and cost
 *   treasury send + its receive      transfer: the principal's lots move with their dates and cost;
 *     in another tracked wallet        the network fee is a `transfer_fee` disposal, a processing fee one too
 *
 * A treasury send and receive pair when they sit in two tracked wallets of one currency, the
 * receive credits exactly the send's principal, and they share a payment hash or transaction id;
 * failing that (the service need not give both legs one), the earliest such receive posted at or
 * after the send and within a day of it. Anything else is an ordinary send and receive.
 */
import type { JournalEntry } from '../journal/model.js';
import type { PaymentRow } from '../model/rows.js';
import type { DisposalLeg, DisposalPart, LotEvent } from './model.js';

/** One valued movement of a tracked wallet, with what pairing a transfer needs. */
export interface Movement {
  entry: JournalEntry;
  currency: string;
  inflow: boolean;
  treasury: boolean;
  swap: boolean;
  noPayment: boolean;
  /** payment hash or tx id shared by both legs of a treasury transfer */
  pairKey: string | null;
  /** a late movement of this closed period (YYYY-MM), re-dated to the first open instant (collect-movements.ts) */
  lateFrom?: string;
  /** a withdrawal to, or a deposit from, the company's own custody wallet: its lot-holder id (custody.ts) */
  custody?: string;
}

export function movementOf(entry: JournalEntry, currency: string, payment: PaymentRow | null): Movement {
  const wallet = entry.lines.find((l) => l.component === 'wallet');
  const key = payment === null ? null : (payment.payment_hashes[0] ?? payment.tx_ids[0] ?? null);
  return { entry, currency, inflow: wallet?.side === 'debit', treasury: payment?.category === 'treasury', swap: payment?.route === 'swap', noPayment: entry.paymentId === null, pairKey: key };
}

const walletLine = (m: Movement) => m.entry.lines.find((l) => l.component === 'wallet');
const unitsOf = (m: Movement): bigint => walletLine(m)?.source?.amount ?? 0n;

/** All movements of the tracked wallets → events (a paired receive is folded into its transfer); `paired` holds both legs of each transfer. */
export function lotEvents(movements: readonly Movement[]): { events: LotEvent[]; paired: Set<Movement> } {
  const receives = new Map<string, Movement[]>();
  for (const m of movements) if (m.inflow && m.treasury && m.pairKey !== null) receives.set(m.pairKey, [...(receives.get(m.pairKey) ?? []), m]);
  const paired = new Set<Movement>();
  const byTime = (a: Movement, b: Movement): number => (a.entry.postedAt < b.entry.postedAt ? -1 : a.entry.postedAt > b.entry.postedAt ? 1 : (a.entry.ledgerRef ?? '') < (b.entry.ledgerRef ?? '') ? -1 : 1);
  const treasuryReceives = movements.filter((m) => m.inflow && m.treasury).sort(byTime);
  const events: LotEvent[] = [];
  for (const m of [...movements].sort(byTime)) {
    if (m.inflow) continue;
    const ref = m.entry.ledgerRef ?? m.entry.entryNo;
    const base = { walletId: m.entry.walletId, currency: m.currency, at: m.entry.postedAt, ref, ...(m.lateFrom === undefined ? {} : { lateFrom: m.lateFrom }) };
    const legs = m.entry.lines.filter((l) => l.component !== 'wallet' && l.component !== 'rounding');
    const principal = legs.find((l) => l.component === 'principal');
    if (m.custody !== undefined) {
      // to the company's own custody wallet: the lots move with their dates and cost, nothing is disposed of
      events.push({ type: 'transfer', ...base, toWalletId: m.custody, units: unitsOf(m), fees: [] });
      continue;
    }
    const matches = (r: Movement): boolean => !paired.has(r) && r.entry.walletId !== m.entry.walletId && r.currency === m.currency && unitsOf(r) === (principal?.source?.amount ?? -1n);
    const withinADay = (r: Movement): boolean => r.entry.postedAt >= m.entry.postedAt && Date.parse(r.entry.postedAt.slice(0, 23) + 'Z') - Date.parse(m.entry.postedAt.slice(0, 23) + 'Z') <= 86_400_000;
    const receive = !m.treasury ? undefined : ((m.pairKey === null ? undefined : (receives.get(m.pairKey) ?? []).find(matches)) ?? treasuryReceives.find((r) => matches(r) && withinADay(r)));
    if (receive !== undefined) {
      paired.add(receive);
      paired.add(m);
      const fees = legs.filter((l) => l !== principal).map((l): DisposalLeg => ({ part: l.component === 'network_fee' ? 'transfer_fee' : (l.component as DisposalPart), units: l.source?.amount ?? 0n, proceeds: l.amount }));
      events.push({ type: 'transfer', ...base, toWalletId: receive.entry.walletId, units: principal?.source?.amount ?? 0n, fees });
      continue;
    }
    const part = (component: string): DisposalPart => (component === 'principal' ? (m.noPayment ? 'withdrawal' : m.swap ? 'swap' : 'principal') : (component as DisposalPart));
    events.push({ type: 'dispose', ...base, legs: legs.map((l) => ({ part: part(l.component), units: l.source?.amount ?? 0n, proceeds: l.amount })) });
  }
  for (const m of movements) {
    if (!m.inflow || paired.has(m)) continue;
    if (m.custody !== undefined) {
      // back from the company's own custody wallet: its lots return with their dates and cost
      events.push({ type: 'transfer', walletId: m.custody, toWalletId: m.entry.walletId, currency: m.currency, at: m.entry.postedAt, ref: m.entry.ledgerRef ?? m.entry.entryNo, units: unitsOf(m), fees: [], ...(m.lateFrom === undefined ? {} : { lateFrom: m.lateFrom }) });
      continue;
    }
    const wallet = walletLine(m);
    events.push({ type: 'acquire', walletId: m.entry.walletId, currency: m.currency, at: m.entry.postedAt, ref: m.entry.ledgerRef ?? m.entry.entryNo, origin: m.noPayment ? 'deposit' : m.swap ? 'swap' : 'receive', units: unitsOf(m), cost: wallet?.amount ?? null, ...(m.lateFrom === undefined ? {} : { lateFrom: m.lateFrom }) });
  }
  return { events, paired };
}
