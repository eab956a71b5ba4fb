import { describe, expect, it } from 'vitest';
import { barPixels, FeePicture, renderFeesHtml } from '../../../src/sinks/fees-picture.js';
import { feeRow, WALLET_BTC, WALLET_USD } from '../../support/sinks/rows.js';

const ctx = { assetDecimals: new Map<string, number>(), assetNames: new Map<string, string>(), asOf: '2026-11-01T00:00:00.000000Z' };

function picture(): FeePicture {
  const p = new FeePicture();
  p.add(feeRow({ network_fee_base: 2_000n, processing_fee_base: 750_000n }));
  p.add(feeRow({ direction: 'receive', network_fee_base: 0n, processing_fee_base: 248_000n }));
  p.add(feeRow({ kind: 'onchain', network_fee_base: 500_000n, processing_fee_base: 0n }));
  p.add(feeRow({ wallet_id: WALLET_USD, currency: 'usd', unit: 'cents', network_fee_base: 30n, processing_fee_base: 250n }));
  return p;
}

describe('fees picture', () => {
  it('sums fees.csv rows into wallet × rail bars per currency, in a stable order', () => {
    const groups = picture().groups();
    expect(groups.map((g) => g.currency)).toEqual(['btc', 'usd']);
    expect(groups[0]?.bars.map((b) => [b.wallet_id, b.rail, b.network_fee_base + b.processing_fee_base])).toEqual([
      [WALLET_BTC, 'bolt11', 1_000_000n],
      [WALLET_BTC, 'onchain', 500_000n],
    ]);
  });

  it('sizes bars exactly in bigint', () => {
    expect(barPixels(1_000_000n, 1_000_000n)).toBe(360);
    expect(barPixels(500_000n, 1_000_000n)).toBe(180);
    expect(barPixels(-5n, 10n)).toBe(0);
    expect(barPixels(5n, 0n)).toBe(0);
  });

  it('renders a self-contained page: one chart per currency, bars proportional, text escaped, no script', () => {
    const p = new FeePicture();
    p.add(feeRow({ wallet_id: '<script>alert(1)</script>', kind: '"><img src=x>', network_fee_base: 10n, processing_fee_base: 0n }));
    p.add(feeRow({ network_fee_base: 0n, processing_fee_base: 20n }));
    const html = renderFeesHtml(p, { title: 'Fees & more', subtitle: 'October' }, ctx);
    expect(html.startsWith('<!DOCTYPE html>')).toBe(true);
    expect(html).toContain('<title>Fees &amp; more</title>');
    expect(html).not.toMatch(/<script|<img|<link|<iframe|@import|url\(/i);
    expect(html).toContain('&lt;script&gt;');
    expect(html.match(/<svg /g)).toHaveLength(1);
    const widths = [...html.matchAll(/<rect x="\d+" y="\d+" width="(\d+)"/g)].map((m) => Number(m[1]));
    // bar 1: network 10 of max 20 → 180 px; bar 2: processing 20 → 360 px
    expect(widths.sort((a, b) => a - b)).toEqual([0, 0, 180, 360]);
  });

  it('says so when there are no fees', () => {
    expect(renderFeesHtml(new FeePicture(), { title: 't', subtitle: 's' }, ctx)).toContain('No completed payments with fees');
  });
});
