/**
 * One balance movement of a wallet (a ledger entry that changes its total) → one journal entry.
 *
 *   receive (credited)          Dr wallet                      Cr counter (principal = the amount credited)
 *   send (captured)             Dr counter (principal),        Cr wallet (the amount captured)
 *                                  network fee, processing fee
 *   treasury                    as above, the counter defaulting to the transfer account
 *   deposited / withdrawn       wallet against the balance-movements account (no payment), or the
 *                                  own custody wallet's account it moved to or from (ctx.balanceAccount)
 *   held / released             never posted: they move the available balance, not the total
 *
 * A receive's processing fee is paid by the payer on top of the principal and never reaches the
 * wallet, so the entry posts what the wallet received (net presentation). The split of a capture
 * comes from its own payment_breakdown, else from its payment when that sums to the capture.
 */
import { allocateLargestRemainder, roundEach } from './allocate.js';
import type { JournalConfig } from '../config/journal-schema.js';
import type { LedgerRow, PaymentRow } from '../model/rows.js';
import { finding } from '../reconcile/findings.js';
import type { Finding } from '../model/results.js';
import type { ZonedClock } from '../model/zoned-time.js';
import { counterAccount, type CompiledRule } from './counter-account.js';
import type { Display } from './display.js';
import { entryNumber } from './entry-number.js';
import type { JournalEntry, JournalLine, LineComponent, SourceAmount } from './model.js';
import { valueMovement, type ValuationContext } from './valuation.js';

export interface BuildContext {
  config: JournalConfig;
  rules: readonly CompiledRule[];
  valuation: ValuationContext;
  display: Display;
  clock: ZonedClock;
  /**
   * the account a deposit or withdrawal (no payment) posts against when not `balanceMovements`:
   * the company's own custody wallet's account (docs/lots.md "Withdrawals and own custody"); null = balanceMovements
   */
  balanceAccount?: (walletId: string, ref: string) => string | null;
}

export interface MovementOutcome {
  /** null when nothing posts (a hold, a release) or the movement cannot be posted (see findings) */
  entry: JournalEntry | null;
  findings: Finding[];
}

/** The books-local date (YYYY-MM-DD) of an instant. */
export function localDate(clock: ZonedClock, instant: string): string {
  const parts = clock.parts(instant);
  if (parts === null) return instant.slice(0, 10);
  return new Date(parts.utcSecondsMs + parts.offsetMinutes * 60_000).toISOString().slice(0, 10);
}

export function buildMovementEntry(ctx: BuildContext, walletAccount: string, row: LedgerRow, payment: PaymentRow | null): MovementOutcome {
  const findings: Finding[] = [];
  const subject = `${row.entry_type}:${row.entry_id}`;
  if (row.effect === 'memo') return { entry: null, findings };
  if (row.amount_base === null || row.currency === '' || row.effective_time === '') {
    findings.push(finding('journal.unposted', { subject_kind: 'ledger_entry', subject_id: subject, wallet_id: row.wallet_id, currency: row.currency || null, message: `the ${row.entry_type} entry's amount, currency or time is unknown: it cannot be posted` }));
    return { entry: null, findings };
  }
  const effect = row.balance_effect_base;
  if (effect === 0n) return { entry: null, findings };
  const inflow = effect > 0n;
  const amount = inflow ? effect : -effect;
  const unit = row.unit;
  const src = (value: bigint): SourceAmount => ({ amount: value, currency: row.currency, unit });

  // principal, network fee, processing fee
  let parts: [bigint, bigint, bigint] = [amount, 0n, 0n];
  const noPayment = row.payment_id === null;
  if (!inflow && !noPayment) {
    const fromRow = split(row.principal_base, row.network_fee_base, row.processing_fee_base, amount);
    const fromPayment = payment === null || payment.currency !== row.currency ? null : split(payment.principal_base, payment.network_fee_base, payment.processing_fee_base, amount);
    const chosen = fromRow ?? fromPayment;
    if (chosen !== null) parts = chosen;
    else {
      findings.push(finding('journal.breakdown_unknown', { subject_kind: 'ledger_entry', subject_id: subject, wallet_id: row.wallet_id, currency: row.currency, actual: amount, message: `no principal/fee split sums to the ${row.entry_type} amount: the whole amount is posted to the counter account` }));
    }
  }
  const direction = inflow ? 'receive' : 'send';
  const counter = noPayment ? { key: ctx.balanceAccount?.(row.wallet_id, subject) ?? ctx.config.balanceMovements, rule: null } : counterAccount(ctx.config, ctx.rules, payment, direction);

  const walletSide = inflow ? 'debit' : 'credit';
  const otherSide = inflow ? 'credit' : 'debit';
  const legs: Array<{ account: string; component: LineComponent; value: bigint; memo: string }> = [
    { account: counter.key, component: 'principal', value: parts[0], memo: `${noPayment ? row.entry_type : 'principal'} ${ctx.display.source(src(parts[0]))}${counter.rule ? ` (rule: ${counter.rule})` : ''}` },
    { account: ctx.config.fees.network, component: 'network_fee', value: parts[1], memo: `network fee ${ctx.display.source(src(parts[1]))}` },
    { account: ctx.config.fees.processing, component: 'processing_fee', value: parts[2], memo: `processing fee ${ctx.display.source(src(parts[2]))}` },
  ].filter((leg, i) => i === 0 || leg.value > 0n) as Array<{ account: string; component: LineComponent; value: bigint; memo: string }>;

  const valuation = valueMovement(ctx.valuation, row.currency, row.effective_time, payment);
  const lines: JournalLine[] = [];
  const walletMemo = `${inflow ? 'in' : 'out'} ${ctx.display.source(src(amount))}${valuation ? ` @ ${valuation.text} (${valuation.source.replace('_', ' ')})` : ''}`;
  if (valuation === null) {
    lines.push({ account: walletAccount, side: walletSide, component: 'wallet', source: src(amount), amount: null, memo: walletMemo });
    for (const leg of legs) lines.push({ account: leg.account, side: otherSide, component: leg.component, source: src(leg.value), amount: null, memo: leg.memo });
    findings.push(finding('journal.needs_price', { subject_kind: 'ledger_entry', subject_id: subject, wallet_id: row.wallet_id, currency: row.currency, actual: amount, message: `no ${ctx.config.booksCurrency} price for ${ctx.display.commodity(row.currency)} at ${row.effective_time} (payment quote, price file): left out of the fiat formats` }));
  } else {
    const values = legs.map((l) => l.value);
    const rounded = ctx.config.roundingStrategy === 'allocate'
      ? allocateLargestRemainder(values, valuation.num, valuation.den, ctx.config.rounding)
      : roundEach(values, valuation.num, valuation.den, ctx.config.rounding);
    lines.push({ account: walletAccount, side: walletSide, component: 'wallet', source: src(amount), amount: rounded.wallet, memo: walletMemo });
    legs.forEach((leg, i) => lines.push({ account: leg.account, side: otherSide, component: leg.component, source: src(leg.value), amount: rounded.parts[i] as bigint, memo: leg.memo }));
    const residual = rounded.wallet - rounded.parts.reduce((a, b) => a + b, 0n);
    if (residual !== 0n) {
      // rounding-line strategy: the legs' own roundings missed the wallet leg by `residual`
      const side = residual > 0n ? otherSide : walletSide;
      lines.push({ account: ctx.config.roundingAccount, side, component: 'rounding', source: null, amount: residual > 0n ? residual : -residual, memo: 'rounding difference' });
    }
  }

  const identity = `${row.payment_id ?? ''}|${row.entry_type}|${row.entry_id}`;
  const entry: JournalEntry = {
    entryNo: entryNumber(ctx.config.numberPrefix, identity),
    kind: 'movement',
    date: localDate(ctx.clock, row.effective_time),
    postedAt: row.effective_time,
    walletId: row.wallet_id,
    paymentId: row.payment_id,
    ledgerRef: subject,
    narration: narration(row, payment, inflow),
    valuation,
    lines,
  };
  return { entry, findings };
}

/** [principal, network, processing] when all are known and sum to `amount`. */
function split(principal: bigint | null, network: bigint | null, processing: bigint | null, amount: bigint): [bigint, bigint, bigint] | null {
  if (principal === null || network === null || processing === null) return null;
  if (principal < 0n || network < 0n || processing < 0n || principal + network + processing !== amount) return null;
  return [principal, network, processing];
}

function narration(row: LedgerRow, payment: PaymentRow | null, inflow: boolean): string {
  if (row.payment_id === null) return `${row.entry_type} (no payment)`;
  if (payment === null) return `${inflow ? 'receive' : 'send'} payment ${row.payment_id} (payment not in the snapshot)`;
  const parts = [`${payment.category === 'treasury' ? 'treasury ' : ''}${payment.kind} ${payment.direction}`, `payment ${payment.payment_id}`];
  if (payment.route === 'swap') parts.push(`swap${payment.rail_fee_base !== null ? `, rail fee ${payment.rail_fee_base} ${payment.rail_currency === 'btc' ? 'msats' : (payment.rail_currency ?? '')}` : ''}`);
  if (payment.rail_amount_base !== null && payment.rail_currency !== null && payment.rail_currency !== payment.currency) parts.push(`rail ${payment.rail_amount_base} ${payment.rail_currency === 'btc' ? 'msats' : payment.rail_currency}`);
  const external = payment.metadata?.['external_id'];
  if (external !== undefined) parts.push(`ext ${external}`);
  return parts.join(', ');
}
