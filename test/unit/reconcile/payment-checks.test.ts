import { describe, expect, it } from 'vitest';
import { normalizePayment } from '../../../src/normalize/payment.js';
import type { PaymentRow } from '../../../src/normalize/rows.js';
import { checkPayment } from '../../../src/reconcile/payment-checks.js';
import { payment, type PaymentSpec } from '../../fixtures/wire-builders.js';

const CTX = { organization_id: 'org', environment_id: 'env' };
const onchainOutflow = (id: string) => ({ type: 'onchain', data: { tx_id: `tx-${id}`, amount_sats: 199_153, confirmations: 1, is_pending: false, ledger_id: `hold-${id}` } });

function row(spec: Omit<PaymentSpec, 'wallet' | 'environment' | 'organization' | 'created' | 'direction'> & { direction?: 'send' | 'receive' }): PaymentRow {
  return normalizePayment(payment({ wallet: 'w', environment: 'env', organization: 'org', created: '2026-10-02T00:00:00Z', direction: 'send', ...spec }), CTX);
}

const rateFindings = (p: PaymentRow) => checkPayment(p, [], { walletCurrencies: new Set() }).findings.filter((f) => f.check_id === 'payment.processing_fee_rate');

describe('payment.processing_fee_rate', () => {
  // 199,153 sats at 100 bps = 1,991.53 sats: 1,991,530 msats exactly, 1,992 sats on chain.
  const principal = 199_153_000n;

  it('accepts an on-chain fee rounded to a whole sat (on-chain amounts are whole sats)', () => {
    for (const fee of [1_991_000n, 1_992_000n]) {
      const p = row({ id: `oc-${fee}`, type: 'onchain', amount: principal, settled: { network: 5_000n, processing: fee }, terms: { bps: 100, amount: fee }, extra: (w) => void (w.data['outflows'] = [onchainOutflow('oc')]) });
      expect(rateFindings(p)).toEqual([]);
    }
  });

  it('accepts a BIP21 payment settled on chain (a tx id) the same way', () => {
    const p = row({ id: 'b21', type: 'bip21', amount: principal, settled: { network: 5_000n, processing: 1_992_000n }, terms: { bps: 100, amount: 1_992_000n }, extra: (w) => void (w.data['outflows'] = [onchainOutflow('b21')]) });
    expect(rateFindings(p)).toEqual([]);
  });

  it('still accepts the msat neighbours on chain, and refuses a fee off by more than a sat or not a whole sat beyond the msat rounding', () => {
    const at = (fee: bigint) => row({ id: `oc-${fee}`, type: 'onchain', amount: principal, settled: { network: 5_000n, processing: fee }, terms: { bps: 100, amount: fee }, extra: (w) => void (w.data['outflows'] = [onchainOutflow('oc')]) });
    expect(rateFindings(at(1_991_530n))).toEqual([]);
    expect(rateFindings(at(1_993_000n))).toHaveLength(1);
    expect(rateFindings(at(1_991_900n))).toHaveLength(1);
    expect(rateFindings(at(1_990_000n))[0]?.message).toMatch(/rounded to a whole msat or sat/);
  });

  it('keeps msat rounding for a Lightning payment', () => {
    const p = row({ id: 'ln', type: 'bolt11', amount: principal, settled: { network: 5_000n, processing: 1_992_000n }, terms: { bps: 100, amount: 1_992_000n }, ledgerId: 'h' });
    expect(rateFindings(p)).toHaveLength(1);
    expect(rateFindings(p)[0]?.message).toMatch(/rounded to a whole msat$/);
  });
});
