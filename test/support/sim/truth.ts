/**
 * The simulator's ground truth for one reporting window, in the shape of the manifest's control
 * totals (docs/reconciliation.md "Outputs besides findings"). Derived from the Dataset's own
 * records — payment ids per wallet and window, each payment's generated core (what it was made to
 * move), the ledger's entry ids — never from the wire objects, so it does not share a line of code
 * with normalize/ or reconcile/.
 */
import { createHash } from 'node:crypto';
import type { Dataset } from '../../../src/sim/index.js';
import { DIR_SEND, STATUS_NAMES } from '../../../src/sim/dataset/codes.js';
import type { Window } from '../../../src/model/window.js';
import { minusOneMicrosecond } from '../../../src/api/date-bounds.js';

export interface TruthTotals {
  payments: number;
  completed_payments: number;
  failed_payments: number;
  open_payments: number;
  principal_base: bigint;
  network_fee_base: bigint;
  processing_fee_base: bigint;
  total_base: bigint;
  ledger_entries: number;
  id_hash: string;
  ledger_id_hash: string;
}

const MOD_256 = 2n ** 256n;
const sha = (text: string): bigint => BigInt(`0x${createHash('sha256').update(text, 'utf8').digest('hex')}`);
const hex = (sum: bigint): string => sum.toString(16).padStart(64, '0');

/** Per currency: what a report of `window` must total. */
export function truthTotals(ds: Dataset, window: Window): Record<string, TruthTotals> {
  const out: Record<string, TruthTotals & { idSum: bigint; ledgerSum: bigint }> = {};
  const last = minusOneMicrosecond(window.to);
  for (const wallet of ds.wallets) {
    const t = (out[wallet.currency] ??= {
      payments: 0, completed_payments: 0, failed_payments: 0, open_payments: 0,
      principal_base: 0n, network_fee_base: 0n, processing_fee_base: 0n, total_base: 0n,
      ledger_entries: 0, id_hash: '', ledger_id_hash: '', idSum: 0n, ledgerSum: 0n,
    });
    for (const id of ds.iteratePaymentIds({ walletId: wallet.id, from: window.from, to: last })) {
      const handle = ds.store.handleOf(id);
      if (handle === null) throw new Error(`no handle for ${id}`);
      const core = ds.paymentCore(handle);
      t.payments += 1;
      t.idSum = (t.idSum + sha(id)) % MOD_256;
      const status = STATUS_NAMES[core.status];
      if (status === 'failed' || status === 'expired') t.failed_payments += 1;
      if (status !== 'completed' && status !== 'failed' && status !== 'expired') t.open_payments += 1;
      if (status !== 'completed') continue;
      t.completed_payments += 1;
      const breakdown = core.breakdownVisible && core.feeSettled !== null;
      const send = core.direction === DIR_SEND;
      t.principal_base += breakdown ? core.settledPrincipal : core.principal;
      t.processing_fee_base += breakdown ? (core.feeSettled ?? 0n) : (core.feeTerms ?? 0n);
      t.network_fee_base += send ? core.networkFee : 0n;
      // what the wallet's ledger moved for it: the capture of a send, the credit of a receive
      t.total_base += send ? core.captureAmount : core.creditAmount;
    }
    for (const entry of ds.ledgerEntries(wallet.id, { from: window.from, to: last })) {
      t.ledger_entries += 1;
      t.ledgerSum = (t.ledgerSum + sha(`${entry.entryType}:${entry.entryId}`)) % MOD_256;
    }
  }
  return Object.fromEntries(
    Object.entries(out)
      .filter(([, t]) => t.payments > 0 || t.ledger_entries > 0)
      .map(([currency, { idSum, ledgerSum, ...t }]) => [currency, { ...t, id_hash: hex(idSum), ledger_id_hash: hex(ledgerSum) }]),
  );
}
