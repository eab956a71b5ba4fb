/**
 * Period-end fair-value remeasurement (ASU 2023-08 / ASC 350-60: crypto assets at fair value,
 * gains and losses in net income), one entry per wallet and non-books currency:
 *
 *   fair value at the end   = round(closing balance × period-end price)
 *   carrying value          = round(opening balance × period-start price) + the period's wallet lines
 *   remeasurement           = fair value − carrying value
 *   Dr fair-value adjustment / Cr gain-loss when positive, the reverse when negative.
 *
 * The opening carrying value assumes the previous period was remeasured too (at its end price,
 * which is this period's start price). Prices come from the price file only: a period-end mark is
 * a market price, not one payment's quote. Without both prices (or with a movement of the period
 * that needs one) the remeasurement needs a price.
 */
import { formatBase } from '../money/format.js';
import { divRound } from '../money/rounding.js';
import type { BalanceRow } from '../model/results.js';
import { finding } from '../reconcile/findings.js';
import type { Finding } from '../model/results.js';
import type { Window } from '../model/window.js';
import { localDate, type BuildContext } from './build-movement.js';
import { entryNumber } from './entry-number.js';
import type { JournalEntry } from './model.js';

export interface FairValueAccounts {
  adjustment: string;
  gainLoss: string;
}

/** What is remeasured: a wallet's balances at the window's boundaries (a BalanceRow), or an own custody wallet's (custody-book.ts). */
export type RemeasuredHolding = Pick<BalanceRow, 'wallet_id' | 'currency' | 'unit' | 'opening_base' | 'closing_base'>;

/** `label`: how the narration names the holder (default: `wallet <id>`). */
export function remeasurementEntry(ctx: BuildContext, accounts: FairValueAccounts, balance: RemeasuredHolding, periodFiat: bigint | null, window: Window, period: string, label = `wallet ${balance.wallet_id}`): { entry: JournalEntry | null; findings: Finding[] } {
  const table = ctx.valuation.prices.get(balance.currency);
  const perWhole = ctx.valuation.baseUnitsPerWhole(balance.currency);
  const end = table?.at(window.to) ?? null;
  const start = balance.opening_base === 0n ? null : table?.at(window.from) ?? null;
  const subject = `${balance.wallet_id}:${balance.currency}:remeasurement`;
  if (perWhole === null || end === null || (balance.opening_base !== 0n && start === null) || periodFiat === null) {
    if (balance.opening_base === 0n && balance.closing_base === 0n && periodFiat === 0n) return { entry: null, findings: [] };
    const why = periodFiat === null ? 'a movement of the period has no price' : `no price-file price for ${ctx.display.commodity(balance.currency)} at ${end === null ? window.to : window.from}`;
    return {
      entry: null,
      findings: [finding('journal.needs_price', { subject_kind: 'wallet', subject_id: subject, wallet_id: balance.wallet_id, currency: balance.currency, actual: balance.closing_base, message: `period-end remeasurement not computed: ${why}` })],
    };
  }
  const minor = 10n ** BigInt(ctx.config.minorUnits);
  const value = (amount: bigint, digits: bigint, decimals: number): bigint => divRound(amount * digits * minor, 10n ** BigInt(decimals) * perWhole, ctx.config.rounding);
  const fair = value(balance.closing_base, end.digits, end.decimals);
  const opening = start === null ? 0n : value(balance.opening_base, start.digits, start.decimals);
  const carrying = opening + periodFiat;
  const delta = fair - carrying;
  if (delta === 0n) return { entry: null, findings: [] };
  const gain = delta > 0n;
  const amount = gain ? delta : -delta;
  const code = ctx.valuation.displayCode(balance.currency);
  const books = (v: bigint): string => `${formatBase(v, ctx.config.minorUnits)} ${ctx.config.booksCurrency}`;
  const memo = `fair value ${books(fair)} − carrying ${books(carrying)}; closing ${ctx.display.source({ amount: balance.closing_base, currency: balance.currency, unit: balance.unit })} @ ${end.text} ${ctx.config.booksCurrency}/${code} (${end.at})`;
  const entry: JournalEntry = {
    entryNo: entryNumber(ctx.config.numberPrefix, `fv|${balance.wallet_id}|${balance.currency}|${period}`),
    kind: 'remeasurement',
    date: localDate(ctx.clock, new Date(Date.parse(window.to.slice(0, 23) + 'Z') - 1000).toISOString().replace(/\.(\d{3})Z$/, '.$1000Z')),
    postedAt: window.to,
    walletId: balance.wallet_id,
    paymentId: null,
    ledgerRef: null,
    narration: `fair-value remeasurement of ${label} ${code}, period ${period}`,
    valuation: { num: end.digits * minor, den: 10n ** BigInt(end.decimals) * perWhole, source: end.source, at: end.at, text: `${end.text} ${ctx.config.booksCurrency}/${code}`, rate: end.text, unit: `${ctx.config.booksCurrency}/${code}` },
    lines: [
      { account: accounts.adjustment, side: gain ? 'debit' : 'credit', component: 'remeasurement', source: null, amount, memo },
      { account: accounts.gainLoss, side: gain ? 'credit' : 'debit', component: 'remeasurement', source: null, amount, memo: gain ? 'unrealized gain' : 'unrealized loss' },
    ],
  };
  return { entry, findings: [] };
}
