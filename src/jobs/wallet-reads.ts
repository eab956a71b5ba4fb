/**
 * The report's read schedule, in one place (docs/extraction.md#the-report-behind-the-pull): which
 * wallet's rows are read when. Each pass reads wallet by wallet; the next wallet's first batches
 * are already on their way from a database while this one is written (util/read-ahead.ts), and
 * behind the pull a wallet's reads start only once all of its streams are in the snapshot (the
 * pull gates). The report stage asks for a pass and gets each wallet with its streams, in order;
 * how they are scheduled is this module's to know, not the algorithm's nor the source's.
 */
import { billPaymentRanges, type InstantRange } from '../model/bill-period.js';
import type { BillRecord, LedgerRow, PaymentRow, WalletRow } from '../model/rows.js';
import type { ReportSource } from '../model/ports.js';
import type { Window } from '../model/window.js';
import { eachOpenedAhead, readAheadFor } from '../util/read-ahead.js';

/** The pull's pace, as the report behind it waits on it (pull-gates.ts). */
export interface PullPacing {
  /** the sizing stage (summaries, bills) is in the snapshot */
  sized(): Promise<void>;
  /** every stream of this wallet is in the snapshot: its rows will not change in this run */
  walletReady(walletId: string): Promise<void>;
  /** the pull has ended */
  pulled(): Promise<void>;
}

export interface ReconcileStreams {
  ledger: AsyncIterable<LedgerRow[]>;
  /** the window's payments */
  payments: AsyncIterable<PaymentRow[]>;
  /** the payments of the bills' periods beyond the window, which a bill tied here needs (model/bill-period.ts) */
  billPayments: AsyncIterable<PaymentRow[]> | Iterable<PaymentRow[]>;
}

export class WalletReads {
  private readonly early: <T>(stream: AsyncIterable<T>) => AsyncIterable<T>;

  constructor(
    private readonly source: ReportSource,
    private readonly org: string,
    private readonly window: Window,
    private readonly pacing: PullPacing | undefined,
  ) {
    this.early = readAheadFor(source);
  }

  /** The reconciliation's pass: each wallet's ledger, payments and bill periods' payments, once the wallet is pulled. */
  reconcile(wallets: readonly WalletRow[], bills: readonly BillRecord[]): Generator<[WalletRow, ReconcileStreams]> {
    const { source, org, window, early } = this;
    return eachOpenedAhead(wallets, (wallet): ReconcileStreams => {
      const ready = this.pacing?.walletReady(wallet.wallet_id);
      const billRanges = billPaymentRanges(window, bills, wallet);
      return {
        ledger: early(afterGate(ready, () => source.ledger(org, wallet.wallet_id, { withoutRaw: true }))),
        payments: early(afterGate(ready, () => source.payments({ organization_id: org, wallet_id: wallet.wallet_id, window, withoutRaw: true }))),
        billPayments: billRanges.length === 0 ? [] : early(afterGate(ready, () => paymentsIn(source, org, wallet.wallet_id, billRanges, window.tz))),
      };
    });
  }

  /** Each wallet's ledger again (the pull has ended): the Ledger sheet follows the Payments sheet in the workbook. */
  ledger(wallets: readonly WalletRow[]): Generator<[WalletRow, AsyncIterable<LedgerRow[]>]> {
    return eachOpenedAhead(wallets, (wallet) => this.early(this.source.ledger(this.org, wallet.wallet_id, { withoutRaw: true })));
  }

  /** Each wallet's payments of the window still open (the pull has ended). */
  openPayments(wallets: readonly WalletRow[]): Generator<[WalletRow, AsyncIterable<PaymentRow[]>]> {
    return eachOpenedAhead(wallets, (wallet) => this.early(this.source.payments({ organization_id: this.org, wallet_id: wallet.wallet_id, window: this.window, openOnly: true, withoutRaw: true })));
  }
}

/** `open()` once `gate` has opened (at once without one): a read ahead never runs before its wallet is in. */
async function* afterGate<T>(gate: Promise<void> | undefined, open: () => AsyncIterable<T>): AsyncGenerator<T> {
  if (gate !== undefined) await gate;
  yield* open();
}

/** The wallet's payments created in each of `ranges`, in range order (the ranges do not overlap). */
async function* paymentsIn(source: ReportSource, org: string, walletId: string, ranges: readonly InstantRange[], tz: string): AsyncGenerator<PaymentRow[]> {
  for (const range of ranges) yield* source.payments({ organization_id: org, wallet_id: walletId, window: { ...range, tz }, withoutRaw: true });
}
