import fc from 'fast-check';
import { parse as losslessParse, parseNumberAndBigInt } from 'lossless-json';
import { describe, expect, it } from 'vitest';
import { normalizeAsset } from '../../src/normalize/asset.js';
import { normalizeLedgerEvent } from '../../src/normalize/ledger.js';
import { normalizePayment } from '../../src/normalize/payment.js';
import { normalizeSummary } from '../../src/normalize/summary.js';
import { normalizeWallet } from '../../src/normalize/wallet.js';
import { bolt11Send, ENV, onchainSwapSend, ORG, WALLET } from '../support/wire/examples.js';

const ctx = { organization_id: ORG, environment_id: ENV };
const ALL_BTC_MSATS = 2_100_000_000_000_000_000n;
const amount = fc.bigInt({ min: 0n, max: ALL_BTC_MSATS });
/** An amount as the wire may carry it: a safe number, a bigint, or a digit string. */
const wireInt = (value: bigint, form: number): number | bigint | string => (form === 0 && value <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(value) : form === 1 ? value : value.toString());
const btcAmount = (value: bigint, form: number) => ({ currency: 'btc', amount: wireInt(value, form), unit: 'msats' });

const generated = fc.record({
  direction: fc.constantFrom('send', 'receive'),
  status: fc.constantFrom('completed', 'failed', 'expired', 'sending', 'receiving', 'generating', 'approved', 'settling_v2'),
  category: fc.constantFrom('standard', 'treasury', undefined),
  kind: fc.constantFrom('bolt11', 'onchain', 'bip21'),
  amount: fc.option(amount, { nil: undefined }),
  legacy: fc.boolean(),
  breakdown: fc.option(fc.record({ principal: amount, network: amount, processing: amount }), { nil: undefined }),
  terms: fc.option(fc.record({ bps: fc.integer({ min: 0, max: 10_000 }), amount }), { nil: undefined }),
  fees: fc.option(amount, { nil: undefined }),
  form: fc.integer({ min: 0, max: 2 }),
});
type Generated = typeof generated extends fc.Arbitrary<infer T> ? T : never;

function wire(g: Generated): Record<string, unknown> {
  const data: Record<string, unknown> = {};
  if (g.amount !== undefined) data['amount'] = btcAmount(g.amount, g.form);
  if (g.fees !== undefined) data['fees'] = btcAmount(g.fees, g.form);
  if (g.legacy && g.amount !== undefined) {
    // the deprecated twin says the same thing (whole sats on-chain)
    if (g.kind === 'onchain') data['amount_sats'] = wireInt(g.amount / 1000n, g.form);
    else data['amount_msats'] = wireInt(g.amount, g.form);
  }
  const p: Record<string, unknown> = {
    id: 'p',
    wallet_id: WALLET,
    organization_id: ORG,
    environment_id: ENV,
    direction: g.direction,
    type: g.kind,
    status: g.status,
    currency: 'btc',
    created_at: '2026-10-01T00:00:00Z',
    updated_at: '2026-10-01T00:00:00Z',
    data,
  };
  if (g.category) p['payment_category'] = g.category;
  if (g.breakdown) {
    p['payment_breakdown'] = { principal: btcAmount(g.breakdown.principal, g.form), network_fee: btcAmount(g.breakdown.network, g.form), processing_fee: btcAmount(g.breakdown.processing, g.form) };
  }
  if (g.terms) p['processing_fee'] = { basis_points: g.terms.bps, amount: btcAmount(g.terms.amount, g.form) };
  return p;
}

describe('the fee identity holds on generated payments', () => {
  it('send: total = principal + network + processing; receive: total = principal; unknown stays null', () => {
    fc.assert(
      fc.property(generated, (g) => {
        const row = normalizePayment(wire(g), ctx);
        const principal = g.breakdown ? g.breakdown.principal : (g.amount ?? null);
        expect(row.principal_base).toBe(principal);
        expect(row.processing_fee_source).toBe(g.breakdown ? 'settled' : g.terms ? 'terms' : 'none');
        const processing = g.breakdown ? g.breakdown.processing : g.terms ? g.terms.amount : 0n;
        expect(row.processing_fee_base).toBe(processing);
        if (g.direction === 'receive') {
          expect(row.total_base).toBe(principal);
          expect(row.network_fee_base).toBe(g.breakdown ? g.breakdown.network : 0n);
        } else {
          const network = g.breakdown ? g.breakdown.network : g.fees !== undefined ? g.fees - processing : null;
          expect(row.network_fee_base).toBe(network);
          expect(row.total_base).toBe(principal !== null && network !== null ? principal + network + processing : null);
          if (row.total_base !== null) expect(row.total_base).toBe((row.principal_base ?? 0n) + (row.network_fee_base ?? 0n) + (row.processing_fee_base ?? 0n));
        }
        expect(row.processing_fee_diff_base).toBe(g.breakdown && g.terms ? g.breakdown.processing - g.terms.amount : null);
        const unknown = row.principal_base === null || row.network_fee_base === null || row.processing_fee_base === null;
        if (g.status === 'completed') expect(row.flags.some((f) => f === 'unknown_fee' || f === 'unknown_principal')).toBe(unknown);
        // the deprecated twin agrees, so it never raises a disagreement
        expect(row.flags.some((f) => f.startsWith('amount_disagreement'))).toBe(false);
      }),
      { numRuns: 1_000 },
    );
  });
});

describe('normalization is total', () => {
  const anything = fc.anything({ withBigInt: true, withNullPrototype: true, withObjectString: true, withBoxedValues: true, withSparseArray: true });
  it('any value at any level gives a row, never an exception', () => {
    fc.assert(
      fc.property(anything, fc.constantFrom('', 'data', 'data.amount', 'data.amount.amount', 'payment_breakdown', 'processing_fee', 'exchanges', 'data.outflows', 'status', 'created_at', 'currency'), (junk, path) => {
        const p = onchainSwapSend() as Record<string, unknown>;
        if (path === '') {
          normalizePayment(junk, ctx);
        } else {
          const keys = path.split('.');
          let target: Record<string, unknown> = p;
          for (const key of keys.slice(0, -1)) target = target[key] as Record<string, unknown>;
          target[keys[keys.length - 1] as string] = junk;
          const row = normalizePayment(p, ctx);
          expect(row.payment_id).toBe('2ec1e783-19b4-4c10-8181-66336a6232bd');
        }
        normalizeLedgerEvent(junk, { ...ctx, wallet_id: WALLET });
        normalizeLedgerEvent({ type: 'credited', credit_id: 'c', payment_id: 'p', amount: junk, effective_time: '2026-10-01T00:00:00Z' }, { ...ctx, wallet_id: WALLET });
        normalizeWallet(junk, { organization_id: ORG });
        normalizeWallet({ id: 'w', balances: [{ currency: 'btc', total: junk, available: junk }] }, { organization_id: ORG });
        normalizeAsset(junk);
        normalizeSummary(junk, { scope: 'environment', environment_id: ENV });
        normalizeSummary({ buckets: [junk], total_count: junk }, { scope: 'wallet', environment_id: ENV, wallet_id: WALLET });
      }),
      { numRuns: 1_000 },
    );
  });

  it('no malformed amount string ever becomes a number in a row', () => {
    fc.assert(
      fc.property(fc.string({ unit: fc.constantFrom('0', '1', '5', '-', '+', '.', 'e', ',', ' ', 'x') }), (text) => {
        const p = bolt11Send();
        p.data['amount'] = { currency: 'btc', amount: text, unit: 'msats' };
        delete p.data['amount_msats'];
        const row = normalizePayment(p, ctx);
        if (/^-?(0|[1-9][0-9]*)$/.test(text)) expect(row.principal_base).toBe(BigInt(text));
        else {
          expect(row.principal_base).toBeNull();
          expect(row.flags).toContain('malformed_amount:data.amount.amount');
        }
      }),
      { numRuns: 2_000 },
    );
  });
});

describe('lossless parsing vs JSON.parse', () => {
  it('big amounts survive a lossless parse exactly; a rounded JSON.parse number is refused, never booked', () => {
    const template = onchainSwapSend();
    delete template['payment_breakdown'];
    delete template.data['amount_sats'];
    fc.assert(
      fc.property(fc.bigInt({ min: 0n, max: 2n ** 64n - 1n }), (value) => {
        const text = JSON.stringify(template).replace('"amount":150000000', `"amount":${value}`);
        const lossless = normalizePayment(losslessParse(text, null, parseNumberAndBigInt), ctx);
        const rounded = normalizePayment(JSON.parse(text), ctx);
        expect(lossless.principal_base).toBe(value);
        expect(lossless.flags.filter((f) => f.startsWith('malformed_amount'))).toEqual([]);
        if (value <= BigInt(Number.MAX_SAFE_INTEGER)) {
          expect(rounded.principal_base).toBe(value);
        } else {
          expect(rounded.principal_base).toBeNull();
          expect(rounded.flags).toContain('malformed_amount:data.amount.amount');
        }
      }),
      { numRuns: 500 },
    );
  });
});
