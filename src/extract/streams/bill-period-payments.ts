/**
 * The payments of the bill periods the report ties beyond the payments sweep: a bill is for the
 * service's period in UTC (its month, its week), the report's window is the company's month in its
 * own zone, and the bill is tied by the report whose window holds the larger part of its period
 * (model/bill-period.ts) — against the payments of the whole period. The part outside the window
 * (a few hours at a month's edge in New York or Tokyo, days for a week across a month's start) is
 * swept by list here, one chain per range, into the snapshot beside the window's payments; the
 * report reads them for the bill only (docs/reconciliation.md "Bill checks").
 *
 * Per wallet (its bills' ranges, with the `wallet_id` filter), or — for an environment the
 * `environment` stage reads whole (environment-payments.ts), whose wallets read nothing per wallet —
 * per environment, over the union of its wallets' ranges. Each range is its own stream, named by
 * it, so a resumed run continues the same range's cursor.
 */
import { mergeRanges, type InstantRange } from '../../model/bill-period.js';
import type { PaymentRow, WalletRow } from '../../model/rows.js';
import { streamName } from '../positions.js';
import type { RunStream, SizedSlice, WalletStream } from '../stream.js';
import { pullPaymentsChain, type PaymentsChain } from './payments.js';

/** A few hours or days of one wallet or environment: short chains. */
const SIZE = 1;

export const billPeriodPaymentsStream: WalletStream<PaymentsChain> = {
  name: 'bill-period-payments',
  stage: 'wallet',
  slices: async (_ctx, scope, wallet: WalletRow) => {
    if (scope.wholeReads.has(wallet.environment_id)) return { slices: [] };
    const ranges = (await scope.plan.billPeriodPayments?.(wallet)) ?? [];
    return {
      slices: ranges.map((range) => ({
        slice: { environmentId: wallet.environment_id, walletId: wallet.wallet_id, stream: streamName.billPeriodPayments(wallet.wallet_id, range), range, slice: true },
        size: SIZE,
      })),
    };
  },
  read: async (ctx, _scope, chain) => ({ progress: [await pullPaymentsChain(ctx, chain)] }),
};

/** After environment-payments.ts in the stage: it has said which environments are read whole. */
export const environmentBillPeriodPaymentsStream: RunStream<PaymentsChain> = {
  name: 'environment-bill-period-payments',
  stage: 'environment',
  slices: async (_ctx, scope) => {
    const slices: Array<SizedSlice<PaymentsChain>> = [];
    for (const environmentId of [...scope.wholeReads].sort()) {
      const wallets = scope.plan.wallets.filter((w) => w.environment_id === environmentId);
      const byWallet = new Map<string, InstantRange[]>();
      for (const wallet of wallets) byWallet.set(wallet.wallet_id, [...((await scope.plan.billPeriodPayments?.(wallet)) ?? [])]);
      // each wallet keeps the payments of its own bills' periods: the snapshot holds what reads per wallet would
      const wants = (row: PaymentRow): boolean => byWallet.get(row.wallet_id)?.some((r) => r.from <= row.created_at && row.created_at < r.to) ?? false;
      const keep = new Set(wallets.map((w) => w.wallet_id));
      for (const range of mergeRanges([...byWallet.values()].flat())) {
        slices.push({ slice: { environmentId, walletId: null, keep, wants, stream: streamName.billPeriodPayments(`env:${environmentId}`, range), range, slice: true }, size: SIZE });
      }
    }
    return { slices };
  },
  read: async (ctx, _scope, chain) => ({ progress: [await pullPaymentsChain(ctx, chain)] }),
};
