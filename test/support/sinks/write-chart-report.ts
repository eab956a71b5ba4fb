/**
 * A report whose tables agree with each other the way a run's do (fees.csv rolled up from
 * payments.csv, bills.csv beside them), for the fee charts: more wallet × rail bars than a chart
 * shows, fees on several days in two currencies, and billed vs computed processing fees.
 */
import type { PaymentRow } from '../../../src/model/rows.js';
import { FeeRollup } from '../../../src/reconcile/controls.js';
import type { BillCheckRow } from '../../../src/model/results.js';
import { openReportFolder } from '../../../src/sinks/report-folder.js';
import type { PublishResult, ReportFolderOptions } from '../../../src/sinks/report-folder-api.js';
import { BILLS_TABLE, FEES_TABLE, PAYMENTS_TABLE } from '../../../src/sinks/tables/index.js';
import { paymentRow, smallFixture } from './rows.js';
import { fixtureOptions } from './write-report.js';

const walletId = (k: number): string => `7a1f0000-0000-4000-8000-0000000c${k.toString(16).padStart(4, '0')}`;

/** 12 BTC wallets × 2 rails with fees spread over days of October, plus the small fixture's payments. */
export function chartPayments(): PaymentRow[] {
  const rows: PaymentRow[] = [...smallFixture().payments];
  for (let k = 0; k < 12; k++) {
    for (let n = 0; n < 3; n++) {
      const day = String(2 + ((k + n * 5) % 20)).padStart(2, '0');
      rows.push(
        paymentRow({
          payment_id: `55555555-0000-4000-8000-${(k * 16 + n).toString(16).padStart(12, '0')}`,
          wallet_id: walletId(k),
          kind: n === 2 ? 'onchain' : 'bolt11',
          created_at: `2026-10-${day}T10:00:00.000000Z`,
          updated_at: `2026-10-${day}T10:00:05.000000Z`,
          principal_base: BigInt(1_000_000 * (k + 1)),
          network_fee_base: BigInt(1_000 * (n + 1)),
          processing_fee_base: BigInt(10_000 * (k + 1)),
          total_base: BigInt(1_000_000 * (k + 1) + 1_000 * (n + 1) + 10_000 * (k + 1)),
        }),
      );
    }
  }
  return rows;
}

export function chartBills(): BillCheckRow[] {
  const row = (wallet: string, figure: string, billed: bigint | null, computed: bigint | null): BillCheckRow => ({
    bill_id: '66666666-0000-4000-8000-000000000001',
    line_of_credit_id: '66666666-0000-4000-8000-0000000000c1',
    period_length: 'monthly',
    start_time: '2026-09-30T22:00:00.000000Z',
    end_time: '2026-10-31T23:00:00.000000Z',
    bill_status: 'payment_due',
    wallet_id: wallet,
    currency: 'btc',
    unit: figure.endsWith('_count') ? 'count' : 'msats',
    figure,
    billed,
    computed,
    difference: billed === null || computed === null ? null : billed - computed,
    status: billed === null || computed === null ? 'not_checked' : billed === computed ? 'ok' : 'differs',
    payments: 3,
  });
  return [
    row(walletId(0), 'processing_fee_send', 35_000n, 30_000n),
    row(walletId(0), 'processing_fee_receive', 0n, 0n),
    row(walletId(0), 'amount_sent', 6_000_000n, 6_000_000n),
    row(walletId(1), 'processing_fee_send', 60_000n, 60_000n),
    // not recomputed: left out of the billed-vs-computed chart
    row(walletId(2), 'processing_fee_send', 90_000n, null),
  ];
}

export async function writeChartReport(outRoot: string, overrides: Partial<ReportFolderOptions> = {}): Promise<PublishResult> {
  const f = smallFixture();
  const payments = chartPayments();
  const rollup = new FeeRollup();
  for (const p of payments) rollup.add(p);
  const folder = await openReportFolder(fixtureOptions(outRoot, overrides));
  try {
    const write = async <Row>(spec: Parameters<typeof folder.table<Row>>[0], rows: readonly Row[]): Promise<void> => {
      const table = await folder.table(spec);
      await table.writeAll(rows);
      await table.close();
    };
    await write(PAYMENTS_TABLE, payments);
    await write(FEES_TABLE, rollup.result());
    await write(BILLS_TABLE, chartBills());
    return await folder.publish({ parameters: { organization: '0b6c0d5e-0000-4000-8000-000000000001' }, controlTotals: f.controlTotals, checks: f.checks });
  } catch (error) {
    await folder.abort();
    throw error;
  }
}
