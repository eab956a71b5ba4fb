import { beforeAll, describe, expect, it } from 'vitest';
import { Dataset } from '../../../../src/sim/dataset/dataset.js';
import { HOSTILE_VALUES } from '../../../../src/sim/dataset/hostile-text.js';

/**
 * The `business` profile (what `payexport demo` and `payexport sim` serve): treasury transfers are
 * pairs between the organization's own wallets, balances are a treasury's size and never negative,
 * payments a customer's size, no hostile text and nothing above 2^53; the `stress` profile keeps
 * the extremes the rest of the suite is written against. Checked from the wire objects.
 */

type J = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- wire objects in a test

const MSATS_PER_BTC = 100_000_000_000n;
const DAY_MS = 86_400_000;
const HALF_DAY_MS = DAY_MS / 2;
let ds: Dataset;
let payments: J[];

const amount = (p: J): bigint => BigInt(p['data']['amount']['amount'] as string | number | bigint);
const fees = (p: J): bigint => (p['data']['fees'] === undefined || p['data']['fees'] === null ? 0n : BigInt(p['data']['fees']['amount'] as string | number | bigint));

function ledgerOf(walletIndex: number): J[] {
  const page = ds.listLedger({ walletIndex, offset: 0, limit: 1e9, sortKey: 'effective_time', sortOrder: 'ASC' });
  return page.refs.map((ref) => ds.renderLedgerEntry(walletIndex, ref) as J);
}

function entryAmount(e: J): bigint {
  return e['amount'] !== undefined ? BigInt(e['amount']['amount'] as string | number | bigint) : BigInt(e['amount_msats'] as string | number | bigint);
}

beforeAll(() => {
  ds = new Dataset({ seed: 7, scale: 5000, wallets: 12, profile: 'business' });
  payments = ds.paymentIds().map((id) => ds.getPayment(id) as J);
});

describe('business profile: treasury transfers', () => {
  it('pairs every completed treasury send with a receive of the same principal in another wallet of its currency', () => {
    const treasury = payments.filter((p) => p['payment_category'] === 'treasury');
    const byWallet = new Map(ds.wallets.map((w) => [w.id, w]));
    const sends = treasury.filter((p) => p['direction'] === 'send' && p['status'] === 'completed');
    const receives = treasury.filter((p) => p['direction'] === 'receive');
    expect(sends.length, 'the demo organization moves money between its wallets').toBeGreaterThan(10);
    expect(receives.length).toBe(sends.length);
    const unmatched = new Set(receives.map((p) => p['id'] as string));
    for (const send of sends) {
      const from = byWallet.get(send['wallet_id'])!;
      const receive = receives.find((r) => unmatched.has(r['id']) && r['created_at'] === send['created_at'] && amount(r) === amount(send) && byWallet.get(r['wallet_id'])!.currency === from.currency);
      expect(receive, `receiving leg of ${send['id']}`).toBeDefined();
      unmatched.delete(receive!['id']);
      expect(receive!['wallet_id']).not.toBe(send['wallet_id']);
      expect(receive!['status']).toBe('completed');
      // both legs settle in one 12-hour price window, at least a day from a month's end
      const sentMs = Date.parse(send['updated_at']);
      const receivedMs = Date.parse(receive!['updated_at']);
      expect(receivedMs).toBeGreaterThanOrEqual(sentMs);
      expect(Math.floor(sentMs / HALF_DAY_MS)).toBe(Math.floor(receivedMs / HALF_DAY_MS));
      const d = new Date(sentMs);
      const monthStarts = [Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1), Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 1)];
      for (const start of monthStarts) expect(Math.abs(sentMs - start)).toBeGreaterThan(DAY_MS - HALF_DAY_MS);
      // no rounding can split the legs: BTC on chain is whole BTC, BTC Lightning is fee-free (short-circuited)
      if (from.currencyKind === 'btc' && send['type'] === 'onchain') expect(amount(send) % MSATS_PER_BTC).toBe(0n);
      if (from.currencyKind === 'btc' && send['type'] === 'bolt11') expect(fees(send)).toBe(0n);
    }
    expect(unmatched.size).toBe(0);
  });

  it('debits the send principal + fee and credits the receive the principal in the two ledgers', () => {
    const sends = payments.filter((p) => p['payment_category'] === 'treasury' && p['direction'] === 'send' && p['status'] === 'completed');
    const ledgers = new Map(ds.wallets.map((w) => [w.id, ledgerOf(w.index)]));
    let withFee = 0;
    for (const send of sends) {
      const captured = ledgers.get(send['wallet_id'])!.filter((e) => e['payment_id'] === send['id'] && e['type'] === 'captured');
      expect(captured.map(entryAmount)).toEqual([amount(send) + fees(send)]);
      if (fees(send) > 0n) withFee++;
    }
    const receives = payments.filter((p) => p['payment_category'] === 'treasury' && p['direction'] === 'receive');
    for (const receive of receives) {
      const credited = ledgers.get(receive['wallet_id'])!.filter((e) => e['payment_id'] === receive['id'] && e['type'] === 'credited');
      expect(credited.map(entryAmount)).toEqual([amount(receive)]);
    }
    expect(withFee, 'some transfers pay a network fee').toBeGreaterThan(0);
  });
});

describe('business profile: sizes of a mid-sized company', () => {
  it('keeps every wallet between zero and a treasury-sized balance at every ledger entry', () => {
    for (const w of ds.wallets) {
      let total = 0n;
      let peak = 0n;
      for (const e of ledgerOf(w.index)) {
        const sign = e['type'] === 'credited' || e['type'] === 'deposited' ? 1n : e['type'] === 'captured' || e['type'] === 'withdrawn' ? -1n : 0n;
        if (sign === 0n) continue; // held / released move the available balance only
        total += sign * entryAmount(e);
        expect(total, `${w.name} never goes negative`).toBeGreaterThanOrEqual(0n);
        if (total > peak) peak = total;
      }
      // BTC: under 50 BTC; USD: under $2M; USDT (6 decimals): under 1M
      const ceiling = w.currencyKind === 'btc' ? 50n * MSATS_PER_BTC : w.currencyKind === 'usd' ? 200_000_000n : 1_000_000_000_000n;
      expect(peak, `${w.name} peak balance`).toBeLessThan(ceiling);
      expect(peak, `${w.name} holds a treasury's worth, not pocket change`).toBeGreaterThan(ceiling / 1000n);
    }
  });

  it('has customer-sized payments, no hostile text and no amount above 2^53', () => {
    const byWallet = new Map(ds.wallets.map((w) => [w.id, w]));
    for (const p of payments) {
      const kind = byWallet.get(p['wallet_id'])!.currencyKind;
      const value = p['data']?.['amount'] === undefined ? BigInt(p['data']?.['amount_msats'] ?? 0) : amount(p);
      const limit = kind === 'btc' ? 3n * MSATS_PER_BTC : kind === 'usd' ? 7_500_000n : 5_000_000_000n;
      expect(value, `${p['id']} (${p['payment_category']})`).toBeLessThanOrEqual(limit);
      expect(HOSTILE_VALUES as readonly unknown[]).not.toContain(p['memo']);
      for (const v of Object.values((p['metadata'] ?? {}) as Record<string, unknown>)) expect(HOSTILE_VALUES as readonly unknown[]).not.toContain(v);
    }
  });
});

describe('stress profile (the default of the library, the suite and the benchmarks)', () => {
  it('still plants single-leg treasury movements and amounts above 2^53 msats', () => {
    const stress = new Dataset({ seed: 7, scale: 5000, wallets: 12 });
    const all = stress.paymentIds().map((id) => stress.getPayment(id) as J);
    expect(stress.options.profile).toBe('stress');
    const treasury = all.filter((p) => p['payment_category'] === 'treasury' && p['status'] === 'completed');
    const sends = treasury.filter((p) => p['direction'] === 'send');
    const lone = treasury.filter((p) => p['direction'] === 'receive' && !sends.some((s) => s['created_at'] === p['created_at'] && amount(s) === amount(p)));
    expect(lone.length).toBeGreaterThan(0);
    expect(all.some((p) => p['data']?.['amount'] !== undefined && amount(p) > BigInt(Number.MAX_SAFE_INTEGER))).toBe(true);
  });
});
