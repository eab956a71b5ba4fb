import { describe, expect, it } from 'vitest';
import { configSchema } from '../../../src/config/schema.js';
import { parseIdentifications } from '../../../src/lots/identification-file.js';
import { parseOpeningLots } from '../../../src/lots/opening-lots-file.js';

const W = '6c5deed7-2187-4380-8b17-c8b8547bf9e3';

describe('the opening-lots file', () => {
  it('reads lots and deposit bases exactly, in minor units', () => {
    const text = `wallet_id,currency,acquired_at,units_base,cost,ref\n${W.toUpperCase()},btc,2024-03-15,100000000000,65000.00,\n${W},btc,2026-09-04T00:00:49Z,31000000000,unknown,deposited:ab92\n`;
    expect(parseOpeningLots(text, 'o.csv', 2)).toEqual([
      { walletId: W, currency: 'btc', acquiredAt: '2024-03-15T00:00:00.000000Z', units: 100_000_000_000n, cost: 6_500_000n, ref: null },
      { walletId: W, currency: 'btc', acquiredAt: '2026-09-04T00:00:49.000000Z', units: 31_000_000_000n, cost: null, ref: 'deposited:ab92' },
    ]);
  });

  it.each([
    ['a cost with more decimals than the books', `${W},btc,2024-03-15,1,1.001`, /line 2: cost/],
    ['a negative cost', `${W},btc,2024-03-15,1,-1.00`, /line 2: cost is negative/],
    ['units that are not a positive integer', `${W},btc,2024-03-15,0,1.00`, /line 2: units_base/],
    ['a bad date', `${W},btc,15/03/2024,1,1.00`, /line 2: acquired_at/],
  ])('refuses %s, naming the line (exit 78)', (_, line, message) => {
    expect(() => parseOpeningLots(`wallet_id,currency,acquired_at,units_base,cost\n${line}\n`, 'o.csv', 2)).toThrow(message);
    try {
      parseOpeningLots(`wallet_id,currency,acquired_at,units_base,cost\n${line}\n`, 'o.csv', 2);
    } catch (error) {
      expect((error as { exitCode?: number }).exitCode).toBe(78);
    }
  });

  it('refuses a file without its header', () => {
    expect(() => parseOpeningLots(`${W},btc,2024-03-15,1,1.00\n`, 'o.csv', 2)).toThrow(/line 1: expected the header/);
  });
});

describe('the identification file', () => {
  it('reads standing orders and identifications', () => {
    const ids = parseIdentifications(JSON.stringify({ standingOrders: [{ wallet: W, from: '2025-01-01', order: 'hifo' }], identifications: [{ wallet: W, disposal: 'captured:x1', recordedAt: '2026-10-01T09:00:00Z', lots: ['LOT-ABCDEFGHIJKL'] }] }), 'i.json');
    expect(ids).toEqual({
      standingOrders: [{ walletId: W, from: '2025-01-01T00:00:00.000000Z', order: 'hifo' }],
      identifications: [{ walletId: W, disposalRef: 'captured:x1', recordedAt: '2026-10-01T09:00:00.000000Z', lotIds: ['LOT-ABCDEFGHIJKL'] }],
    });
  });

  it('refuses unknown keys and bad lot ids', () => {
    expect(() => parseIdentifications(JSON.stringify({ standing: [] }), 'i.json')).toThrow(/identification file 'i.json'/);
    expect(() => parseIdentifications(JSON.stringify({ identifications: [{ wallet: W, disposal: 'captured:x', recordedAt: '2026-10-01', lots: ['L1'] }] }), 'i.json')).toThrow(/lot id/);
  });
});

describe('the lots config section', () => {
  it('accepts methods by effective date and refuses unknown keys and methods', () => {
    const base = { organization: '00000000-0000-0000-0000-000000000000' };
    const ok = configSchema.safeParse({ ...base, lots: { wallets: { [W]: { methods: [{ method: 'fifo', from: '2025-01-01' }, { method: 'specific', from: '2026-10-15T00:00:00Z' }] } }, openingLots: 'o.csv' } });
    expect(ok.success).toBe(true);
    expect(configSchema.safeParse({ ...base, lots: { wallets: { [W]: { methods: [{ method: 'lofi', from: '2025-01-01' }] } } } }).success).toBe(false);
    expect(configSchema.safeParse({ ...base, lots: { method: 'fifo' } }).success).toBe(false);
  });
});
