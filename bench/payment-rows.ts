import type { PaymentRow } from '../src/model/rows.js';
import { makePaymentRow } from '../test/support/rows/builders.js';

/** Benchmark payments: shaped like the service's (≈1.3 KB of raw JSON), normalized, deterministic. */
export const ORG = '7c1f0e2a-3b4d-4e5f-8a9b-0c1d2e3f4a5b';
const WALLETS = Array.from({ length: 20 }, (_, index) => `5d2e${index.toString(16).padStart(4, '0')}-1111-4222-8333-444455556666`);

function uuid(index: number, salt: number): string {
  const hex = (index * 2654435761 + salt).toString(16).padStart(12, '0').slice(-12);
  return `${salt.toString(16).padStart(8, '0')}-aaaa-4bbb-8ccc-${hex}`;
}

/** A payment shaped like the service's (≈1.3 KB of raw JSON), normalized. */
export function payment(index: number, status = 'completed'): PaymentRow {
  const id = uuid(index, 0x1);
  const created = new Date(Date.UTC(2026, 9, 1) + index * 26_000).toISOString().slice(0, 19) + `.${String(index % 1_000_000).padStart(6, '0')}Z`;
  const amount = 1_000_000n + BigInt(index) * 997n;
  const invoice = 'lnbc' + randomLike(index, 280);
  return makePaymentRow({
    payment_id: id,
    organization_id: ORG,
    environment_id: '9e8d7c6b-5a4f-4e3d-8c2b-1a0f9e8d7c6b',
    wallet_id: WALLETS[index % WALLETS.length] ?? '',
    direction: index % 3 === 0 ? 'receive' : 'send',
    kind: index % 5 === 0 ? 'onchain' : 'bolt11',
    route: index % 3 === 0 ? null : 'direct',
    status,
    status_class: status === 'completed' ? 'completed' : 'open',
    created_at: created,
    updated_at: created,
    principal_base: amount,
    network_fee_base: 2_000n,
    processing_fee_base: amount / 500n,
    processing_fee_bps: 20,
    processing_fee_terms_base: amount / 500n,
    processing_fee_settled_base: amount / 500n,
    processing_fee_diff_base: 0n,
    total_base: amount + 2_000n + amount / 500n,
    max_fee_base: 10_000n,
    reported_fees_base: 2_000n + amount / 500n,
    ledger_ids: [uuid(index, 0x2)],
    tx_ids: index % 5 === 0 ? [randomLike(index, 64)] : [],
    payment_hashes: [randomLike(index + 7, 64)],
    description: `Invoice ${index} for services`,
    metadata: { order_id: `ORD-${index}`, customer: `cust_${index % 977}` },
    raw: {
      id,
      wallet_id: WALLETS[index % WALLETS.length],
      organization_id: ORG,
      environment_id: '9e8d7c6b-5a4f-4e3d-8c2b-1a0f9e8d7c6b',
      created_at: created,
      updated_at: created,
      currency: 'btc',
      type: 'bolt11',
      direction: 'send',
      status,
      data: {
        amount_msats: Number(amount),
        max_fee_msats: 10_000,
        payment_request: invoice,
        memo: `Invoice ${index} for services`,
        fees: { currency: 'btc', amount: Number(2_000n + amount / 500n), unit: 'msats' },
        receipts: [{ ledger_id: uuid(index, 0x2), amount: { currency: 'btc', amount: Number(amount), unit: 'msats' }, payment_hash: randomLike(index + 7, 64) }],
      },
      metadata: { order_id: `ORD-${index}`, customer: `cust_${index % 977}` },
    },
  });
}

function randomLike(seed: number, length: number): string {
  let text = '';
  let state = seed * 7919 + 17;
  while (text.length < length) {
    state = (state * 1103515245 + 12345) % 2147483648;
    text += state.toString(36);
  }
  return text.slice(0, length);
}

