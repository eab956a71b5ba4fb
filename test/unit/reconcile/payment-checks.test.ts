import { describe, expect, it } from 'vitest';
import { normalizePayment } from '../../../src/normalize/payment.js';
import type { PaymentRow } from '../../../src/model/rows.js';
import { checkPayment } from '../../../src/reconcile/payment-checks.js';
import { payment, type PaymentSpec } from '../../support/wire/builders.js';
import { usd } from '../../support/wire/examples.js';

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

describe('payment.quote_conversion', () => {
  // 10,000 sats at 6,500,000 cents per BTC ($65,000) = 650 cents
  const usdReceive = (id: string, sats: number, settledPrincipal: bigint): PaymentRow =>
    row({
      id,
      direction: 'receive',
      type: 'onchain',
      currency: 'usd',
      unit: usd,
      amount: 650n,
      settled: { network: 0n, processing: 10n },
      terms: { bps: 150, amount: 10n },
      fees: 10n,
      extra: (w) => {
        w.data['amount_sats'] = sats;
        w.data['market_quote'] = { from: 'btc', to: 'usd', rate: '6500000e0', quoted_at: '2026-10-02T00:00:00Z', expires_at: '2026-10-02T00:01:00Z' };
        w['requested_amount'] = usd(650);
        (w['payment_breakdown'] as Record<string, unknown>)['principal'] = usd(settledPrincipal);
      },
    });
  const quoteFindings = (p: PaymentRow) => checkPayment(p, [], { walletCurrencies: new Set() }).findings.filter((f) => f.check_id === 'payment.quote_conversion');

  it('compares the deprecated BTC field with data.amount (its twin; the requested amount) — not with an over-paid settled principal', () => {
    const overpaid = usdReceive('over', 10_000, 830n);
    expect(overpaid.principal_base).toBe(830n);
    expect(overpaid.quote_principal_base).toBe(650n);
    expect(quoteFindings(overpaid)).toEqual([]);
    expect(quoteFindings(usdReceive('exact', 10_000, 650n))).toEqual([]);
  });

  it('still reports a rail amount that is not worth the requested amount at the quote', () => {
    const findings = quoteFindings(usdReceive('off', 20_000, 830n));
    expect(findings).toHaveLength(1);
    expect(findings[0]?.message).toMatch(/is 1300 cents, but the requested amount is 650/);
    expect(quoteFindings(usdReceive('off-exact', 20_000, 650n))[0]?.message).toMatch(/is 1300 cents, but the principal is 650/);
  });
});
