/**
 * The streams of a pull, in the order their slices are queued within a stage (equal sizes run
 * first come first served): environment summaries, bills, wallet summaries; the environments
 * read whole, then their payments of bill periods beyond the window; per wallet its payments, its
 * payments of bill periods beyond the window (unless read with its environment), then its ledger;
 * once the wallet is done, its reads by id.
 */
import type { Stream } from '../stream.js';
import { billPeriodPaymentsStream, environmentBillPeriodPaymentsStream } from './bill-period-payments.js';
import { billsStream } from './bills.js';
import { environmentPaymentsStream } from './environment-payments.js';
import { environmentSummaryStream } from './environment-summary.js';
import { ledgerStream } from './ledger.js';
import { paymentsByIdStream } from './payments-by-id.js';
import { paymentsStream } from './payments.js';
import { walletSummaryStream } from './wallet-summary.js';

export const PULL_STREAMS: ReadonlyArray<Stream<unknown>> = [environmentSummaryStream, billsStream, walletSummaryStream, environmentPaymentsStream, environmentBillPeriodPaymentsStream, paymentsStream, billPeriodPaymentsStream, ledgerStream, paymentsByIdStream];
