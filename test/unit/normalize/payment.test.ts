import { describe, expect, it } from 'vitest';
import { normalizePayment } from '../../../src/normalize/payment.js';
import { btc, bolt11Receive, bolt11Send, ENV, onchainSwapSend, ORG, SEND_ERROR, usd, usdWalletBolt11Send, type Wire } from '../../support/wire/examples.js';

const ctx = { organization_id: ORG, environment_id: ENV };
const norm = (p: unknown) => normalizePayment(p, ctx);

describe('normalizePayment — the OpenAPI examples', () => {
  it('on-chain swap send: settled breakdown, swap steps, both rails referenced', () => {
    const row = norm(onchainSwapSend());
    expect(row).toMatchObject({
      payment_id: '2ec1e783-19b4-4c10-8181-66336a6232bd',
      direction: 'send',
      kind: 'onchain',
      route: 'swap',
      status_class: 'completed',
      created_at: '2025-02-12T21:22:50.302190Z',
      currency: 'btc',
      unit: 'msats',
      principal_base: 150_000_000n,
      network_fee_base: 150_000n,
      processing_fee_base: 100_000n,
      processing_fee_source: 'settled',
      total_base: 150_250_000n,
      max_fee_base: 1_000_000n,
      reported_fees_base: 250_000n,
      ledger_ids: ['0c16fd8e-ce4d-42fe-9d0b-3069244eb66c'],
      tx_ids: ['a22ec88f7a84a705466c9cd8d37024155ffa7930300fcee4fed9e5cc4e25904e'],
      swap_steps: ['target_claimed'],
    });
    // The example predates payment_category: booked standard, flagged; legacy twins agree (no disagreement flag).
    expect(row.flags).toEqual(['missing_category']);
  });

  it('bolt11 receive: credited the principal, no fee objects → source none', () => {
    const row = norm(bolt11Receive());
    expect(row).toMatchObject({
      direction: 'receive',
      principal_base: 150_000n,
      network_fee_base: 0n,
      processing_fee_base: 0n,
      processing_fee_source: 'none',
      total_base: 150_000n,
      requested_amount_base: 150_000n,
      payment_hashes: ['2222222222222222222222222222222222222222222222222222222222222222'],
      description: 'Order 123',
    });
  });

  it('keeps the raw object untouched', () => {
    const wire = bolt11Send();
    expect(norm(wire).raw).toBe(wire);
  });
});

describe('normalizePayment — deprecated amount fields', () => {
  it('uses amount_msats / fee_msats / max_fee_msats when the Amount objects are absent, and flags it', () => {
    const p = bolt11Send();
    delete p.data['amount'];
    delete p.data['fees'];
    delete p.data['max_fee'];
    p.data['amount_msats'] = 5000;
    p.data['fee_msats'] = 12;
    p.data['max_fee_msats'] = 100;
    const row = norm(p);
    expect(row).toMatchObject({ principal_base: 5000n, reported_fees_base: 12n, network_fee_base: 12n, max_fee_base: 100n, total_base: 5012n });
    expect(row.flags).toEqual(expect.arrayContaining(['legacy_amount:data.amount_msats', 'legacy_amount:data.fee_msats', 'legacy_amount:data.max_fee_msats']));
  });

  it('reads on-chain amount_sats / fee_sats / max_fee_sats as WHOLE sats', () => {
    const p = onchainSwapSend();
    delete p.data['amount'];
    delete p.data['fees'];
    delete p.data['max_fee'];
    delete p['payment_breakdown'];
    const row = norm(p);
    expect(row).toMatchObject({ principal_base: 150_000_000n, reported_fees_base: 250_000n, max_fee_base: 1_000_000n, network_fee_base: 250_000n });
    expect(row.flags).toContain('legacy_amount:data.amount_sats');
  });

  it('prefers the Amount object when both forms disagree, and flags the disagreement', () => {
    const p = bolt11Send();
    p.data['amount_msats'] = 999;
    const row = norm(p);
    expect(row.principal_base).toBe(1000n);
    expect(row.flags).toContain('amount_disagreement:data.amount_msats');
  });

  it('lets a whole-sat field differ by less than one sat of rounding without a flag', () => {
    const p = onchainSwapSend();
    p.data['fees'] = btc(250_400);
    delete p['payment_breakdown'];
    expect(norm(p).flags).not.toContain('amount_disagreement:data.fee_sats');
    p.data['fees'] = btc(251_000);
    expect(norm(p).flags).toContain('amount_disagreement:data.fee_sats');
  });

  it('sums on-chain receipts (whole sats) when a receive has no amount at all', () => {
    const p = bolt11Receive();
    p['type'] = 'onchain';
    p.data = {
      receipts: [
        { type: 'onchain', data: { tx_id: 'aa', amount_sats: 1500, required_confirmations_num: 1, ledger_id: 'c1' } },
        { type: 'onchain', data: { tx_id: 'bb', amount_sats: '2500', required_confirmations_num: 1, ledger_id: 'c2' } },
      ],
    };
    delete p['requested_amount'];
    const row = norm(p);
    expect(row.principal_base).toBe(4_000_000n);
    expect(row.total_base).toBe(4_000_000n);
    expect(row.ledger_ids).toEqual(['c1', 'c2']);
    expect(row.tx_ids).toEqual(['aa', 'bb']);
    expect(row.flags).toContain('principal_from_receipts');
  });
});

describe('normalizePayment — currencies and amounts', () => {
  it('lowercases an old uppercase BTC and flags it', () => {
    const p = bolt11Send();
    p['currency'] = 'BTC';
    p.data['amount'] = { amount: 1000, currency: 'BTC', unit: 'msats' };
    const row = norm(p);
    expect(row.currency).toBe('btc');
    expect(row.principal_base).toBe(1000n);
    expect(row.flags).toEqual(expect.arrayContaining(['uppercase_currency:currency', 'uppercase_currency:data.amount.currency']));
    expect(row.flags.some((f) => f.startsWith('currency_mismatch'))).toBe(false);
  });

  it('applies negative:true', () => {
    const p = bolt11Send();
    p['payment_breakdown'] = { principal: btc(1000), network_fee: btc(5, true), processing_fee: btc(0) };
    const row = norm(p);
    expect(row.network_fee_base).toBe(-5n);
    expect(row.flags).toContain('negative_amount:payment_breakdown.network_fee');
  });

  it.each([
    ['1e3'],
    ['1,000'],
    [''],
    [' 5'],
    ['+5'],
    [1.5],
    [null],
    [true],
    [2 ** 53],
  ])('a malformed amount %j becomes null and is flagged with its path, never a number', (bad) => {
    const p = bolt11Send();
    p.data['amount'] = { amount: bad, currency: 'btc', unit: 'msats' };
    delete p.data['amount_msats'];
    const row = norm(p);
    expect(row.principal_base).toBeNull();
    expect(row.total_base).toBeNull();
    expect(row.flags).toEqual(expect.arrayContaining(['malformed_amount:data.amount.amount', 'unknown_principal']));
  });

  it('accepts big amounts as bigint or digit strings beyond 2^53', () => {
    const p = bolt11Send();
    p.data['amount'] = btc(2_100_000_000_000_000_000n);
    p.data['amount_msats'] = '2100000000000000000';
    p.data['fees'] = btc('9007199254740993');
    p.data['fee_msats'] = 9007199254740993n;
    const row = norm(p);
    expect(row.principal_base).toBe(2_100_000_000_000_000_000n);
    expect(row.reported_fees_base).toBe(9_007_199_254_740_993n);
    expect(row.total_base).toBe(2_100_000_000_000_000_000n + 9_007_199_254_740_993n);
    expect(row.flags).toEqual([]);
  });

  it('refuses an amount beyond the wire type (u64)', () => {
    const p = bolt11Send();
    p.data['amount'] = btc(2n ** 64n);
    delete p.data['amount_msats'];
    expect(norm(p).flags).toContain('malformed_amount:data.amount.amount');
  });

  it('refuses a unit that does not belong to the currency (msats vs cents)', () => {
    const p = bolt11Send();
    p.data['amount'] = { amount: 1000, currency: 'btc', unit: 'cents' };
    delete p.data['amount_msats'];
    const row = norm(p);
    expect(row.principal_base).toBeNull();
    expect(row.flags).toContain('unit_mismatch:data.amount.unit');
  });

  it('flags an amount in another currency that no quote converts', () => {
    const p = bolt11Send();
    p['payment_breakdown'] = { principal: usd(100), network_fee: btc(0), processing_fee: btc(0) };
    const row = norm(p);
    expect(row.flags).toContain('currency_mismatch:payment_breakdown.principal');
    // the breakdown's principal is unusable, so data.amount stands in
    expect(row.principal_base).toBe(1000n);
  });

  it('keeps and flags an unknown currency', () => {
    const p = bolt11Send();
    p['currency'] = 'eur';
    const row = norm(p);
    expect(row.currency).toBe('eur');
    expect(row.flags).toContain('unknown_currency:eur');
  });
});

describe('normalizePayment — unknown values and fields', () => {
  it('keeps an unknown status verbatim, classifies it unknown, flags it', () => {
    const p = bolt11Send();
    p['status'] = 'settling_v2';
    const row = norm(p);
    expect(row.status).toBe('settling_v2');
    expect(row.status_class).toBe('unknown');
    expect(row.flags).toContain('unknown_status:settling_v2');
  });

  it('keeps unknown kind, category, route and direction', () => {
    const p = bolt11Send();
    p['type'] = 'bolt12';
    p['payment_category'] = 'rebate';
    p['route'] = 'teleport';
    expect(norm(p).flags).toEqual(expect.arrayContaining(['unknown_kind:bolt12', 'unknown_category:rebate', 'unknown_route:teleport']));
    p['direction'] = 'sideways';
    const row = norm(p);
    expect(row.direction).toBe('sideways');
    expect(row.total_base).toBeNull();
    expect(row.flags).toContain('unknown_direction:sideways');
  });

  it('flags unknown fields at every level with a generic path, keeps them in raw', () => {
    const p = onchainSwapSend() as Wire & { data: { outflows: Array<{ data: Record<string, unknown> }> } };
    p['settlement_batch'] = 'x';
    p.data['foo'] = 1;
    const outflow = p.data.outflows[0];
    if (outflow) outflow.data['eta'] = 3;
    (p['payment_breakdown'] as Record<string, unknown>)['rebate'] = btc(1);
    const row = norm(p);
    expect(row.flags).toEqual(
      expect.arrayContaining([
        'unknown_field:settlement_batch',
        'unknown_field:data.foo',
        'unknown_field:data.outflows[].data.eta',
        'unknown_field:payment_breakdown.rebate',
      ]),
    );
    expect((row.raw as Record<string, unknown>)['settlement_batch']).toBe('x');
  });

  it('flags missing required fields and still returns a row', () => {
    const p = bolt11Send();
    delete p['id'];
    delete p['created_at'];
    p['updated_at'] = 'yesterday';
    const row = norm(p);
    expect(row.payment_id).toBe('');
    expect(row.created_at).toBe('');
    expect(row.flags).toEqual(expect.arrayContaining(['missing_field:id', 'missing_field:created_at', 'malformed_value:updated_at']));
  });

  it('is total: any JSON value gives a row', () => {
    for (const junk of [null, 42, 'payment', [], { data: 7 }, { data: { outflows: 'x', receipts: [1, null] } }]) {
      const row = norm(junk);
      expect(row.flags.length).toBeGreaterThan(0);
    }
  });

  it('fills organization and environment from the context, and flags a record that names another', () => {
    const p = bolt11Send();
    delete p['organization_id'];
    expect(norm(p).organization_id).toBe(ORG);
    p['environment_id'] = 'other-env';
    expect(norm(p).flags).toContain('context_mismatch:environment_id');
  });
});

describe('normalizePayment — fee sources', () => {
  it('settled: payment_breakdown wins over terms; the difference is kept', () => {
    const p = bolt11Send();
    p.data['amount'] = btc(1_000_000);
    p.data['amount_msats'] = 1_000_000;
    p.data['fees'] = btc(12_000);
    p.data['fee_msats'] = 12_000;
    p['processing_fee'] = { basis_points: 100, amount: btc(10_000) };
    p['payment_breakdown'] = { principal: btc(1_000_000), network_fee: btc(3_000), processing_fee: btc(9_000) };
    expect(norm(p)).toMatchObject({
      processing_fee_source: 'settled',
      processing_fee_base: 9_000n,
      processing_fee_terms_base: 10_000n,
      processing_fee_settled_base: 9_000n,
      processing_fee_diff_base: -1_000n,
      processing_fee_bps: 100,
      network_fee_base: 3_000n,
      total_base: 1_012_000n,
    });
  });

  it('terms: network fee = data.fees − the terms fee', () => {
    const p = bolt11Send();
    p.data['amount'] = btc(1_000_000);
    p.data['amount_msats'] = 1_000_000;
    p.data['fees'] = btc(12_000);
    p.data['fee_msats'] = 12_000;
    p['processing_fee'] = { basis_points: 100, amount: btc(10_000) };
    expect(norm(p)).toMatchObject({ processing_fee_source: 'terms', processing_fee_base: 10_000n, network_fee_base: 2_000n, total_base: 1_012_000n, processing_fee_diff_base: null });
  });

  it('unknown fee stays null (not 0) and is flagged on a completed send', () => {
    const p = bolt11Send();
    delete p.data['fees'];
    delete p.data['fee_msats'];
    const row = norm(p);
    expect(row.network_fee_base).toBeNull();
    expect(row.total_base).toBeNull();
    expect(row.flags).toContain('unknown_fee');
  });

  it('flags a derived network fee below zero', () => {
    const p = bolt11Send();
    p['processing_fee'] = { basis_points: 100, amount: btc(10) };
    expect(norm(p).network_fee_base).toBe(-10n);
    expect(norm(p).flags).toContain('network_fee_negative');
  });

  it('fixed-amount receive: the payer pays the processing fee on top, the wallet is credited the principal', () => {
    const p = bolt11Receive();
    p['processing_fee'] = { basis_points: 250, amount: btc(3_750) };
    p['payment_breakdown'] = { principal: btc(150_000), network_fee: btc(0), processing_fee: btc(3_750) };
    p.data['fees'] = btc(3_750);
    expect(norm(p)).toMatchObject({ principal_base: 150_000n, processing_fee_base: 3_750n, processing_fee_source: 'settled', total_base: 150_000n, reported_fees_base: 3_750n });
  });

  it('a receive breakdown with a network fee is flagged (still credited the principal)', () => {
    const p = bolt11Receive();
    p['payment_breakdown'] = { principal: btc(150_000), network_fee: btc(500), processing_fee: btc(0) };
    const row = norm(p);
    expect(row.total_base).toBe(150_000n);
    expect(row.flags).toContain('receive_network_fee');
  });

  it('a malformed breakdown means the settled fee is unknown, not absent', () => {
    const p = bolt11Send();
    p['payment_breakdown'] = 'oops';
    const row = norm(p);
    expect(row.processing_fee_source).toBe('settled');
    expect(row.processing_fee_base).toBeNull();
    expect(row.flags).toEqual(expect.arrayContaining(['malformed_value:payment_breakdown', 'unknown_fee']));
  });
});

describe('normalizePayment — cross-currency', () => {
  it('USD wallet paying a BTC invoice: USD figures, the BTC rail and the rate side by side', () => {
    const row = norm(usdWalletBolt11Send());
    expect(row).toMatchObject({
      currency: 'usd',
      unit: 'cents',
      principal_base: 650n,
      processing_fee_base: 7n,
      network_fee_base: 0n,
      total_base: 657n,
      quote_rate: '6500000e0',
      quote_from: 'usd',
      quote_to: 'btc',
      quote_id: '87654321-4321-8765-cba9-fed987654321',
      rail_currency: 'btc',
      rail_amount_base: 10_000_000n,
      rail_fee_base: 107_692n,
      quote_principal_base: 650n,
      ledger_ids: ['hold-usd-1'],
    });
    // The msat fields are the BTC rail on a USD payment: never compared with the USD amounts.
    expect(row.flags).toEqual([]);
  });

  it('converts BTC-denominated terms at the quote (half-even) and flags the conversion', () => {
    const p = usdWalletBolt11Send();
    delete p['payment_breakdown'];
    p['processing_fee'] = { basis_points: 100, amount: btc(100_000) }; // 100,000 msats at $65,000 = 6.5 cents → 6 (half-even)
    const row = norm(p);
    expect(row.processing_fee_terms_base).toBe(6n);
    expect(row.processing_fee_source).toBe('terms');
    expect(row.network_fee_base).toBe(1n);
    expect(row.flags).toContain('converted_amount:processing_fee.amount');
  });

  it('takes the rail amount from the exchanges when the deprecated fields are gone', () => {
    const p = usdWalletBolt11Send();
    delete p.data['amount_msats'];
    delete p.data['fee_msats'];
    delete p.data['max_fee_msats'];
    delete p.data['market_quote'];
    const row = norm(p);
    expect(row.rail_amount_base).toBe(10_000_000n);
    expect(row.rail_fee_base).toBeNull();
    expect(row.quote_rate).toBe('6500000e0');
  });

  it('books an older USD record that has only the BTC fields by converting them at its quote', () => {
    const p = usdWalletBolt11Send();
    for (const key of ['amount', 'fees', 'max_fee']) delete p.data[key];
    delete p['payment_breakdown'];
    delete p['processing_fee'];
    const row = norm(p);
    expect(row).toMatchObject({ principal_base: 650n, reported_fees_base: 7n, max_fee_base: 65n, network_fee_base: 7n, total_base: 657n, rail_amount_base: 10_000_000n, rail_fee_base: 107_692n });
    expect(row.flags).toEqual(expect.arrayContaining(['converted_amount:data.amount_msats', 'converted_amount:data.fee_msats']));
  });

  it('flags a malformed rate and keeps its text', () => {
    const p = usdWalletBolt11Send();
    (p.data['market_quote'] as Record<string, unknown>)['rate'] = '6.5e6';
    const row = norm(p);
    expect(row.quote_rate).toBe('6.5e6');
    expect(row.flags).toContain('malformed_value:data.market_quote.rate');
  });

  it('taproot-asset receive: asset currency lowercased, btc_amount is the rail', () => {
    const asset = 'asset:037C01D8548A17561F9CB9E734F7C761437439815D43F8DD0E9A265C8024B2C725';
    const p = bolt11Receive();
    p['type'] = 'taprootasset';
    p['currency'] = asset;
    p.data = { amount: { amount: 2_000_000, currency: asset, unit: 'base units' }, asset: asset.slice(6), btc_amount: 3_000_000, receipts: [] };
    delete p['requested_amount'];
    const row = norm(p);
    expect(row.currency).toBe(asset.toLowerCase());
    expect(row.unit).toBe('base units');
    expect(row.principal_base).toBe(2_000_000n);
    expect(row.rail_amount_base).toBe(3_000_000n);
  });
});

describe('normalizePayment — swaps, treasury, failures, batches', () => {
  it('keeps swap steps in order and collects both rails', () => {
    const p = bolt11Send();
    p['route'] = 'swap';
    p.data['outflows'] = [
      { type: 'swap', data: { step: 'source_submitted', rail: 'onchain', receipt: { type: 'onchain', data: { tx_id: 'fund', amount_sats: 1, required_confirmations_num: 1 } } } },
      { type: 'swap', data: { step: 'target_paid', rail: 'lightning', receipt: { type: 'lightning', data: { payment_hash: 'h1', preimage: 'p1', ledger_id: 'hold-1' } } } },
      { type: 'swap', data: { step: 'source_claimed', rail: 'onchain', receipt: { type: 'onchain', data: { tx_id: 'claim', amount_sats: 1, required_confirmations_num: 1 } } } },
      { type: 'swap', data: { step: 'warp_drive', rail: 'onchain', receipt: { type: 'onchain', data: { tx_id: 'claim', amount_sats: 1, required_confirmations_num: 1 } } } },
    ];
    const row = norm(p);
    expect(row.swap_steps).toEqual(['source_submitted', 'target_paid', 'source_claimed', 'warp_drive']);
    expect(row.tx_ids).toEqual(['fund', 'claim']);
    expect(row.payment_hashes).toEqual(['h1']);
    expect(row.ledger_ids).toEqual(['hold-1']);
    expect(row.flags).toContain('unknown_swap_step:warp_drive');
  });

  it('short-circuit receipts give the offset payment and its ledger id', () => {
    const p = bolt11Receive();
    p.data['receipts'] = [{ type: 'shortcircuit', data: { amount_msats: 150000, offset_payment_id: 'pay-x', ledger_id: 'credit-x' } }];
    const row = norm(p);
    expect(row.offset_payment_ids).toEqual(['pay-x']);
    expect(row.ledger_ids).toEqual(['credit-x']);
  });

  it('treasury movement: no processing fee is normal; one is flagged', () => {
    const p = bolt11Send();
    p['payment_category'] = 'treasury';
    expect(norm(p)).toMatchObject({ category: 'treasury', processing_fee_source: 'none', processing_fee_base: 0n });
    expect(norm(p).flags).not.toContain('treasury_processing_fee');
    p['processing_fee'] = { basis_points: 10, amount: btc(1) };
    expect(norm(p).flags).toContain('treasury_processing_fee');
  });

  it('failed send: error type/code/detail, failed class, no unknown-fee flag', () => {
    const p = onchainSwapSend();
    p['status'] = 'failed';
    p['error'] = SEND_ERROR;
    delete p['payment_breakdown'];
    delete p.data['fees'];
    delete p.data['fee_sats'];
    const row = norm(p);
    expect(row).toMatchObject({ status_class: 'failed', error_type: 'send_failed', error_code: 'broadcast_fee_above_max', network_fee_base: null });
    expect(row.error_detail).toContain('549 sats');
    expect(row.flags).not.toContain('unknown_fee');
  });

  it('expired receive is failed for accounting; open statuses are open', () => {
    const p = bolt11Receive();
    p['status'] = 'expired';
    p['error'] = { type: 'receive_failed', code: 'expired', detail: null };
    expect(norm(p)).toMatchObject({ status_class: 'failed', error_code: 'expired' });
    for (const status of ['generating', 'receiving']) {
      p['status'] = status;
      expect(norm(p).status_class).toBe('open');
    }
    const s = bolt11Send();
    for (const status of ['sending', 'approved']) {
      s['status'] = status;
      expect(norm(s).status_class).toBe('open');
    }
  });

  it('usdbatch: the principal is the sum of the ACH transfers in cents', () => {
    const p = bolt11Send();
    p['type'] = 'usdbatch';
    p['currency'] = 'usd';
    p.data = {
      idempotency_key: 'k',
      direction: 'DEBIT',
      payments: [
        { amount: 12_500, identification_number: '1', loc_id: 'l', bill_id: 'b', status: 'completed' },
        { amount: '7500', identification_number: '2', loc_id: 'l', bill_id: 'b', status: 'completed' },
      ],
      receipts: [{ type: 'Ach', data: { idempotency_key: 'k', transfers: [] } }],
    };
    expect(norm(p)).toMatchObject({ kind: 'usdbatch', principal_base: 20_000n, network_fee_base: 0n, processing_fee_base: 0n, total_base: 20_000n });
  });

  it('marks frozen funds', () => {
    const p = bolt11Receive();
    p['frozen'] = [{ type: 'credit_reversal', data: { amount: btc(1), reason: 'x' } }];
    expect(norm(p).flags).toContain('frozen_funds');
  });
});
