import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { stringifyJson } from '../../../../src/sim/core/json.js';
import { Dataset } from '../../../../src/sim/dataset/dataset.js';

/** Same seed and options → the same data, byte for byte; anything derived from (seed, i) alone. */
function fingerprint(ds: Dataset): string {
  const hash = createHash('sha256');
  for (const e of ds.environments) {
    for (const id of ds.iteratePaymentIds({ environmentId: e.id })) hash.update(stringifyJson(ds.getPayment(id)));
    hash.update(stringifyJson(ds.environmentSummary(ds.toPaymentFilter({}, e.index))));
  }
  for (const w of ds.wallets) {
    hash.update(stringifyJson(ds.renderWallet(w.index)));
    const page = ds.listLedger({ walletIndex: w.index, offset: 0, limit: 1e9, sortKey: 'message_time', sortOrder: 'DESC' });
    for (const ref of page.refs) hash.update(stringifyJson(ds.renderLedgerEntry(w.index, ref)));
  }
  return hash.digest('hex');
}

describe('dataset determinism', () => {
  it('produces identical bytes for the same seed and options', () => {
    const options = { seed: 42, scale: 1500, anomalies: 'all' as const, unknownFields: true };
    expect(fingerprint(new Dataset(options))).toBe(fingerprint(new Dataset(options)));
  });

  it('produces different data for another seed', () => {
    expect(fingerprint(new Dataset({ seed: 1, scale: 300 }))).not.toBe(fingerprint(new Dataset({ seed: 2, scale: 300 })));
  });

  it('derives payment i the same way whatever the order it is read in', () => {
    const ds = new Dataset({ seed: 3, scale: 500 });
    const forward = Array.from({ length: 500 }, (_, h) => stringifyJson(ds.renderPayment(h)));
    const backward = Array.from({ length: 500 }, (_, k) => stringifyJson(ds.renderPayment(499 - k))).reverse();
    expect(backward).toEqual(forward);
  });

  it('leaves every payment that carries no anomaly untouched when anomalies are planted', () => {
    const plain = new Dataset({ seed: 9, scale: 2000 });
    const planted = new Dataset({ seed: 9, scale: 2000, anomalies: 'all' });
    const touched = new Set(planted.anomalies.map((a) => a.paymentId));
    let compared = 0;
    for (const id of plain.iteratePaymentIds()) {
      if (touched.has(id)) continue;
      expect(stringifyJson(planted.getPayment(id))).toBe(stringifyJson(plain.getPayment(id)));
      compared++;
    }
    expect(compared).toBeGreaterThan(1900);
  });

  it('spreads payments over [from, to) with one exactly on each month boundary', () => {
    const ds = new Dataset({ seed: 5, scale: 3000 });
    const t = ds.ctx.timeline;
    expect(t.created[0]).toBeGreaterThanOrEqual(ds.world.fromUs);
    expect(t.created[t.count - 1]).toBeLessThan(ds.world.toUs);
    const october = Date.UTC(2026, 9, 1) * 1000;
    expect(Array.from(t.created)).toContain(october);
    expect(Array.from(t.created)).toContain(october - 1);
  });
});
