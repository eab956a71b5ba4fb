import type { AnomalyPlan } from './anomaly-plan.js';
import { allBillPeriods, insideOneMonth, type BillPeriod } from './bill-periods.js';
import type { GenContext } from './payment-core.js';
import type { SimWallet } from './world.js';

/** What the over-billed line item adds to processing_fees.send, per currency base unit. */
export const OVERBILL = { btc: 137_000n, usd: 137n } as const;

/**
 * Where the bill anomalies go (docs/simulator.md "Planted anomalies"): each on a bill whose period
 * lies inside one calendar month of the dataset, so a month-end report covers it whole, on a wallet
 * that certainly has activity there (the heaviest wallet of the line of credit). Chosen from the
 * world alone (no payment is derived), so planning stays cheap at any scale.
 */
export function planBillAnomalies(ctx: GenContext, plan: AnomalyPlan): void {
  const { options, world } = ctx;
  const wanted = options.anomalies.filter((k): k is 'bill_processing_fee_overbilled' | 'bill_missing_line_item' | 'bill_count_off_by_one' => k.startsWith('bill_'));
  if (wanted.length === 0) return;
  const periods = allBillPeriods(world).filter((p) => insideOneMonth(world, p));
  const walletsOf = (p: BillPeriod): SimWallet[] =>
    world.wallets.filter((w) => w.lineOfCreditIndex === p.lineOfCreditIndex && w.deactivatedUs === null && w.createdUs < p.startUs).sort((a, b) => b.weight - a.weight || a.index - b.index);
  const usedBills = new Set<string>();
  const pick = (prefer: (p: BillPeriod) => boolean, wallet: (ws: SimWallet[]) => SimWallet | undefined): { period: BillPeriod; wallet: SimWallet } | null => {
    const ordered = [...periods.filter(prefer), ...periods.filter((p) => !prefer(p))];
    for (const period of ordered) {
      if (usedBills.has(period.billId) || period.historical) continue;
      const w = wallet(walletsOf(period));
      if (w) {
        usedBills.add(period.billId);
        return { period, wallet: w };
      }
    }
    return null;
  };
  for (const kind of wanted) {
    const choice =
      kind === 'bill_processing_fee_overbilled'
        ? pick((p) => p.length === 'monthly', (ws) => ws.find((w) => (w.processingFee?.sendBps ?? 0) > 0))
        : kind === 'bill_missing_line_item'
          ? pick((p) => p.length === 'monthly', (ws) => ws[0])
          : pick((p) => p.length === 'weekly', (ws) => ws[0]);
    if (!choice) continue;
    const { period, wallet } = choice;
    const list = plan.bills.get(period.billId) ?? [];
    list.push({ kind, walletIndex: wallet.index });
    plan.bills.set(period.billId, list);
    const currency = wallet.currency === 'usd' ? 'usd' : 'btc';
    const detail =
      kind === 'bill_processing_fee_overbilled'
        ? `line item's processing_fees.send (and total) billed ${OVERBILL[currency]} ${currency === 'usd' ? 'cents' : 'msats'} above the settled fees`
        : kind === 'bill_missing_line_item'
          ? 'the invoice has no line item for this wallet, which had payments in the period'
          : "line item's total_transactions_sent is one more than the completed sends";
    plan.planted.push({
      kind,
      subjectKind: 'bill_line_item',
      subjectId: `${period.billId}:${wallet.id}`,
      walletId: wallet.id,
      environmentId: (world.environments[wallet.environmentIndex] as { id: string }).id,
      paymentId: null,
      detail,
    });
  }
}
