import { beforeAll, describe, expect, it } from 'vitest';
import { Dataset } from '../../../../src/sim/dataset/dataset.js';
import { parseJsonLossless, stringifyJson } from '../../../../src/sim/core/json.js';

/**
 * The generated data is internally consistent, checked from the WIRE objects the way a
 * reconciler would (docs/service-facts.md#amounts-and-fees and #ledger-events):
 * sends are held then captured for principal + network + processing (or released), receives are
 * credited, receipts/outflows point at their ledger entries, balances are ledger sums and
 * summaries count what the list returns.
 */

type J = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- wire objects in a test

const big = (v: unknown): bigint => BigInt(v as number | bigint);
/** Round-trip through our serializer and the lossless parser: exactly what a client would see. */
const wire = (v: unknown): J => parseJsonLossless(stringifyJson(v)) as J;

let ds: Dataset;
let payments: J[];
let ledger: Map<string, J[]>;

beforeAll(() => {
  ds = new Dataset({ seed: 11, scale: 6000 });
  payments = [];
  for (const e of ds.environments) {
    for (const id of ds.iteratePaymentIds({ environmentId: e.id })) payments.push(wire(ds.getPayment(id)));
  }
  ledger = new Map();
  for (const w of ds.wallets) {
    const page = ds.listLedger({ walletIndex: w.index, offset: 0, limit: 1e9, sortKey: 'effective_time', sortOrder: 'ASC' });
    ledger.set(w.id, page.refs.map((ref) => wire(ds.renderLedgerEntry(w.index, ref))));
  }
});

function eventsOf(p: J): J[] {
  return (ledger.get(p['wallet_id']) ?? []).filter((e) => e['payment_id'] === p['id']);
}

function amountOfEvent(e: J): bigint {
  return e['amount'] !== undefined ? big(e['amount']['amount']) : big(e['amount_msats']);
}

describe('generated dataset: coverage of variants', () => {
  it('lists every payment once across environments', () => {
    expect(payments.length).toBe(6000);
    expect(new Set(payments.map((p) => p['id'])).size).toBe(6000);
  });

  it('has every kind in both directions and every status of each direction', () => {
    const seen = new Set(payments.map((p) => `${p['direction']}:${p['type']}`));
    for (const d of ['send', 'receive']) for (const k of ['bolt11', 'onchain', 'bip21', 'taprootasset', 'usdbatch']) expect(seen, `${d}:${k}`).toContain(`${d}:${k}`);
    const statuses = new Set(payments.map((p) => `${p['direction']}:${p['status']}`));
    for (const s of ['sending', 'approved', 'failed', 'completed']) expect(statuses).toContain(`send:${s}`);
    for (const s of ['generating', 'receiving', 'expired', 'failed', 'completed']) expect(statuses).toContain(`receive:${s}`);
  });

  it('has swaps, short circuits, treasury movements, cross-currency payments and legacy-only records', () => {
    const swaps = payments.filter((p) => p['route'] === 'swap' && p['status'] === 'completed');
    expect(swaps.length).toBeGreaterThan(0);
    for (const p of swaps) expect(p['data']['outflows'].every((o: J) => o['type'] === 'swap' && typeof o['data']['step'] === 'string')).toBe(true);
    expect(payments.some((p) => p['data']['outflows']?.some((o: J) => o['type'] === 'shortcircuit'))).toBe(true);
    const treasury = payments.filter((p) => p['payment_category'] === 'treasury');
    expect(treasury.length).toBeGreaterThan(0);
    expect(treasury.every((p) => p['processing_fee'] === undefined && p['payment_breakdown'] === undefined)).toBe(true);
    const fx = payments.filter((p) => p['exchanges']?.length > 0);
    expect(fx.length).toBeGreaterThan(0);
    for (const p of fx) expect(p['exchanges'][0]['quote']['detail']['rate']).toMatch(/^\d+e\d+$/);
    const legacy = payments.filter((p) => p['currency'] === 'BTC');
    expect(legacy.length).toBeGreaterThan(0);
    for (const p of legacy) {
      expect(p['data']['amount']).toBeUndefined();
      expect(p['data']['amount_msats'] ?? p['data']['amount_sats']).toBeDefined();
    }
  });

  it('has fee terms that differ from the settled fee, and fee-free payments without either', () => {
    const withBoth = payments.filter((p) => p['processing_fee'] && p['payment_breakdown']);
    expect(withBoth.some((p) => big(p['processing_fee']['amount']['amount']) !== big(p['payment_breakdown']['processing_fee']['amount']))).toBe(true);
    expect(payments.some((p) => p['currency'] !== 'BTC' && p['processing_fee'] === undefined && p['payment_breakdown'] === undefined && p['status'] === 'completed')).toBe(true);
  });

  it('writes amounts above 2^53 as exact JSON integers', () => {
    const huge = payments.filter((p) => typeof p['data']['amount']?.['amount'] === 'bigint');
    expect(huge.length).toBeGreaterThan(0);
    for (const p of huge) {
      const text = stringifyJson(ds.getPayment(p['id']));
      expect(text).toContain(`"amount":${(p['data']['amount']['amount'] as bigint).toString()},`);
      expect(big(p['data']['amount']['amount']) > 2n ** 53n).toBe(true);
    }
  });

  it('has hostile text in memos and metadata', () => {
    const texts = payments.flatMap((p) => [p['data']['memo'], p['data']['label'], ...Object.keys(p['metadata'] ?? {}), ...Object.values(p['metadata'] ?? {})]).filter((t): t is string => typeof t === 'string');
    expect(texts.some((t) => t.startsWith('='))).toBe(true);
    expect(texts.some((t) => t.includes('\u0000'))).toBe(true);
    expect(texts.some((t) => t.includes('DROP TABLE'))).toBe(true);
    expect(texts.some((t) => /^[\t\r\n]/.test(t))).toBe(true);
  });

  it('gives failed and expired payments an error with type and code', () => {
    for (const p of payments.filter((x) => x['status'] === 'failed' || x['status'] === 'expired')) {
      expect(typeof p['error']['type']).toBe('string');
      expect(typeof p['error']['code']).toBe('string');
    }
  });

  it('pays on-chain receipts in whole sats', () => {
    for (const p of payments.filter((x) => x['direction'] === 'receive' && x['status'] === 'completed')) {
      for (const r of p['data']['receipts'] ?? []) if (r['type'] === 'onchain') expect(typeof r['data']['amount_sats'] === 'number' || typeof r['data']['amount_sats'] === 'bigint').toBe(true);
    }
  });
});

describe('generated dataset: ledger ↔ payments', () => {
  it('holds then captures a completed send for principal + network fee + processing fee', () => {
    let checked = 0;
    for (const p of payments.filter((x) => x['direction'] === 'send' && x['status'] === 'completed' && x['type'] !== 'usdbatch')) {
      const events = eventsOf(p);
      expect(events.map((e) => e['type'])).toEqual(['held', 'captured']);
      const [held, captured] = events as [J, J];
      expect(held['hold_id']).toBe(captured['hold_id']);
      const legacy = p['currency'] === 'BTC';
      const principal = legacy ? big(p['data']['amount_msats'] ?? big(p['data']['amount_sats']) * 1000n) : big(p['data']['amount']['amount']);
      const fees = legacy ? big(p['data']['fee_msats'] ?? big(p['data']['fee_sats']) * 1000n) : p['data']['fees'] ? big(p['data']['fees']['amount']) : 0n;
      expect(amountOfEvent(captured)).toBe(principal + fees);
      if (p['payment_breakdown']) {
        const b = p['payment_breakdown'];
        expect(amountOfEvent(captured)).toBe(big(b['principal']['amount']) + big(b['network_fee']['amount']) + big(b['processing_fee']['amount']));
      }
      const ledgerIds = [...(p['data']['outflows'] ?? []).map((o: J) => o['data']['ledger_id'] ?? o['data']['receipt']?.['data']?.['ledger_id']), ...(p['exchanges'] ?? []).map((x: J) => x['ledger_id'])].filter(Boolean);
      expect(ledgerIds.length).toBeGreaterThan(0);
      for (const id of ledgerIds) expect(id).toBe(held['hold_id']);
      checked++;
    }
    expect(checked).toBeGreaterThan(1000);
  });

  it('states the fees of every completed send (data.fees, a breakdown or the legacy fee field): an unknown fee is never implied to be 0', () => {
    const silent = payments.filter(
      (p) => p['direction'] === 'send' && p['status'] === 'completed' && p['type'] !== 'usdbatch' && !p['payment_breakdown'] && p['data']['fees'] == null && p['data']['fee_msats'] == null && p['data']['fee_sats'] == null,
    );
    expect(silent.map((p) => `${p['type']}:${p['id']}`)).toEqual([]);
    const assetSends = payments.filter((p) => p['direction'] === 'send' && p['status'] === 'completed' && p['type'] === 'taprootasset');
    expect(assetSends.length).toBeGreaterThan(0);
    for (const p of assetSends) expect(p['data']['fees']).toMatchObject({ currency: p['currency'], unit: 'base units' });
  });

  it('releases failed sends, keeps open sends held, and moves no money for checks and rejections', () => {
    for (const p of payments.filter((x) => x['direction'] === 'send')) {
      const types = eventsOf(p).map((e) => e['type']);
      if (p['status'] === 'sending') expect(types).toEqual(['held']);
      if (p['status'] === 'approved') expect(types).toEqual([]);
      if (p['status'] === 'failed') expect([[], ['held', 'released']]).toContainEqual(types);
    }
  });

  it('credits a completed receive with its settled principal; nothing for open, expired or failed ones', () => {
    for (const p of payments.filter((x) => x['direction'] === 'receive')) {
      const events = eventsOf(p);
      if (p['status'] !== 'completed') {
        expect(events).toEqual([]);
        continue;
      }
      expect(events.map((e) => e['type'])).toEqual(['credited']);
      const credited = events[0] as J;
      const legacy = p['currency'] === 'BTC';
      const principal = p['payment_breakdown']
        ? big(p['payment_breakdown']['principal']['amount'])
        : p['type'] === 'usdbatch'
          ? p['data']['payments'].reduce((s: bigint, t: J) => s + big(t['amount']), 0n)
          : legacy
            ? big(p['data']['amount_msats'] ?? big(p['data']['amount_sats']) * 1000n)
            : big(p['data']['amount']['amount']);
      expect(amountOfEvent(credited)).toBe(principal);
      for (const r of p['data']['receipts'] ?? []) if (r['data']['ledger_id'] !== undefined) expect(r['data']['ledger_id']).toBe(credited['credit_id']);
      const onchain = (p['data']['receipts'] ?? []).find((r: J) => r['type'] === 'onchain');
      if (onchain && p['currency'] === 'btc') {
        // the payer paid the processing fee on top: gross receipt = net credit + fee
        const fee = p['payment_breakdown'] ? big(p['payment_breakdown']['processing_fee']['amount']) : p['processing_fee'] ? big(p['processing_fee']['amount']['amount']) : 0n;
        expect(big(onchain['data']['amount_sats']) * 1000n).toBe(amountOfEvent(credited) + fee);
      }
    }
  });

  it('settles a cross-currency receive in its own currency: what arrived over the rail is worth principal + fee at the quote', () => {
    // rate `<coefficient>e<scale>`: coefficient / 10^scale cents per BTC (10^11 msats)
    const cents = (msats: bigint, rate: string): bigint => {
      const [coefficient, scale] = rate.split('e') as [string, string];
      return (msats * BigInt(coefficient)) / (100_000_000_000n * 10n ** BigInt(scale));
    };
    let overpaid = 0;
    let checked = 0;
    for (const p of payments.filter((x) => x['direction'] === 'receive' && x['status'] === 'completed' && x['data']['market_quote'] && x['payment_breakdown'])) {
      const rate = p['data']['market_quote']['rate'] as string;
      const principal = big(p['payment_breakdown']['principal']['amount']);
      const fee = big(p['payment_breakdown']['processing_fee']['amount']);
      const stated = big(p['data']['amount']['amount']);
      if (principal !== stated) overpaid++;
      // An overpayment is a few thousand sats at most: worth a few dollars, never thousands.
      expect(principal - stated, p['id']).toBeGreaterThanOrEqual(0n);
      expect(principal - stated, p['id']).toBeLessThanOrEqual(cents(5_000_000n, rate) + 1n);
      // The deprecated sat/msat field is data.amount's twin; the receipt and the exchange are what arrived.
      const twin = p['data']['amount_sats'] !== undefined ? big(p['data']['amount_sats']) * 1000n : big(p['data']['amount_msats']);
      expect(cents(twin, rate) - stated, p['id']).toBeLessThanOrEqual(0n);
      expect(cents(twin, rate) - stated, p['id']).toBeGreaterThanOrEqual(-1n);
      const onchain = (p['data']['receipts'] ?? []).find((r: J) => r['type'] === 'onchain');
      const arrived = onchain ? big(onchain['data']['amount_sats']) * 1000n : big(p['exchanges'][0]['from_amount']['amount']);
      // whole sats and floor conversions lose less than a cent each way
      expect(principal + fee - cents(arrived, rate), p['id']).toBeGreaterThanOrEqual(0n);
      expect(principal + fee - cents(arrived, rate), p['id']).toBeLessThanOrEqual(2n);
      expect(big(p['exchanges'][0]['to_amount']['amount'])).toBe(principal + fee);
      expect(big(p['exchanges'][0]['from_amount']['amount'])).toBe(arrived);
      checked++;
    }
    expect(checked).toBeGreaterThan(20);
    expect(overpaid).toBeGreaterThan(0);
  });

  it('reports wallet balances equal to the ledger sums', () => {
    for (const w of ds.wallets) {
      const wallet = wire(ds.renderWallet(w.index));
      let total = 0n;
      let heldOpen = 0n;
      const events = ledger.get(w.id) ?? [];
      const closedHolds = new Set(events.filter((e) => e['type'] === 'captured' || e['type'] === 'released').map((e) => e['hold_id']));
      for (const e of events) {
        if (e['type'] === 'credited' || e['type'] === 'deposited') total += amountOfEvent(e);
        if (e['type'] === 'captured' || e['type'] === 'withdrawn') total -= amountOfEvent(e);
        if (e['type'] === 'held' && !closedHolds.has(e['hold_id'])) heldOpen += amountOfEvent(e);
      }
      const signed = (a: J): bigint => (a['negative'] ? -big(a['amount']) : big(a['amount']));
      expect(signed(wallet['balances'][0]['total'])).toBe(total);
      expect(signed(wallet['balances'][0]['available'])).toBe(total - heldOpen);
      expect(wallet['holds'].length).toBe(events.filter((e) => e['type'] === 'held' && !closedHolds.has(e['hold_id'])).length);
    }
  });

  it('keeps ledger pages in effective_time order', () => {
    const w = ds.wallets[0];
    if (!w) throw new Error('no wallet');
    const refs = ds.ledgers.refs(w.index, 'effective_time');
    for (let i = 1; i < refs.length; i++) expect(ds.ledgers.effectiveUs(w.index, refs[i - 1] as number)).toBeLessThanOrEqual(ds.ledgers.effectiveUs(w.index, refs[i] as number));
  });
});

describe('generated dataset: summaries', () => {
  it('counts exactly what the list returns, bucket by bucket (include_inactive)', () => {
    for (const e of ds.environments) {
      const filter = ds.toPaymentFilter({}, e.index);
      const summary = wire(ds.environmentSummary(filter));
      const listed = payments.filter((p) => p['environment_id'] === e.id);
      expect(big(summary['total_count'])).toBe(BigInt(listed.length));
      const expected = new Map<string, number>();
      for (const p of listed) {
        const key = `${p['wallet_id']}|${p['direction']}|${p['status']}|${String(p['currency']).toLowerCase()}|${p['type']}`;
        expected.set(key, (expected.get(key) ?? 0) + 1);
      }
      let fromWallets = 0n;
      for (const w of ds.wallets.filter((x) => x.environmentIndex === e.index)) {
        const ws = wire(ds.walletSummary({ ...filter, walletIndex: w.index }));
        fromWallets += big(ws['total_count']);
        for (const b of ws['buckets']) expect(big(b['total_count'])).toBe(BigInt(expected.get(`${w.id}|${b['direction']}|${b['status']}|${b['currency']}|${b['kind']}`) ?? -1));
      }
      expect(fromWallets).toBe(BigInt(listed.length));
    }
  });

  it('leaves inactive wallets out unless include_inactive', () => {
    const inactive = ds.wallets.find((w) => w.deactivatedUs !== null);
    if (!inactive) throw new Error('the default dataset has an inactive wallet');
    const filter = { ...ds.toPaymentFilter({}, inactive.environmentIndex), excludeInactiveWallets: true, walletIndex: inactive.index };
    expect(wire(ds.walletSummary(filter))['total_count']).toBe(0);
    expect(wire(ds.walletSummary({ ...filter, excludeInactiveWallets: false }))['total_count']).toBeGreaterThan(0);
  });
});
