import { describe, expect, it } from 'vitest';
import { normalizeAsset } from '../../../src/normalize/asset.js';
import { normalizeSummary } from '../../../src/normalize/summary.js';
import { normalizeWallet } from '../../../src/normalize/wallet.js';
import { btc, ENV, namedAsset, ORG, WALLET } from '../../support/wire/examples.js';

const wallet = () => ({
  id: WALLET,
  active: true,
  created_at: '2025-01-01T00:00:00Z',
  updated_at: '2025-01-02T00:00:00.5Z',
  deleted_at: null,
  name: 'Main',
  organization_id: ORG,
  environment_id: ENV,
  limit: 100000000,
  line_of_credit_id: '7df75323-84f1-4699-97da-776380a0aa81',
  network: 'mainnet',
  metadata: { team: 'ops' },
  balances: [
    { id: 'b1', wallet_id: WALLET, effective_time: '2026-10-31T23:59:59Z', available: btc(900, false), total: btc(1000, false), network: 'mainnet', currency: 'btc' },
  ],
  holds: [],
  pending_settlements: [],
});

describe('normalizeWallet', () => {
  it('reads signed balances', () => {
    const w = wallet();
    w.balances.push({ id: 'b2', wallet_id: WALLET, effective_time: '2026-10-31T23:59:59Z', available: { amount: 5, currency: 'USD', unit: 'cents', negative: true }, total: { amount: 5, currency: 'usd', unit: 'cents', negative: true }, network: 'mainnet', currency: 'usd' } as never);
    const row = normalizeWallet(w, { organization_id: ORG });
    expect(row).toMatchObject({ wallet_id: WALLET, active: true, network: 'mainnet', limit_base: 100000000n, updated_at: '2025-01-02T00:00:00.500000Z', metadata: { team: 'ops' } });
    expect(row.balances).toEqual([
      { currency: 'btc', unit: 'msats', available_base: 900n, total_base: 1000n, effective_time: '2026-10-31T23:59:59.000000Z' },
      { currency: 'usd', unit: 'cents', available_base: -5n, total_base: -5n, effective_time: '2026-10-31T23:59:59.000000Z' },
    ]);
    expect(row.flags).toEqual(['uppercase_currency:balances[1].available.currency']);
  });

  it('drops an unreadable balance (never a zero) and flags it; keeps unknown network and fields', () => {
    const w = wallet() as Record<string, unknown>;
    (w['balances'] as Array<Record<string, unknown>>)[0]!['total'] = { amount: '1,000', currency: 'btc' };
    w['network'] = 'regtest';
    w['tier'] = 'gold';
    const row = normalizeWallet(w, { organization_id: ORG });
    expect(row.balances).toEqual([]);
    expect(row.flags).toEqual(expect.arrayContaining(['malformed_amount:balances[0].total.amount', 'unknown_network:regtest', 'unknown_field:tier']));
  });
});

describe('normalizeAsset', () => {
  it('gives the lowercase asset currency and its decimals', () => {
    const a = namedAsset();
    a['asset'] = String(a['asset']).toUpperCase();
    expect(normalizeAsset(a)).toEqual({
      currency: 'asset:037c01d8548a17561f9cb9e734f7c761437439815d43f8dd0e9a265c8024b2c725',
      asset_id: '037c01d8548a17561f9cb9e734f7c761437439815d43f8dd0e9a265c8024b2c725',
      name: 'Voltage Cash',
      network: 'mutinynet',
      decimal_display: 6,
      flags: [],
    });
  });
  it('flags a bad id or decimal_display', () => {
    expect(normalizeAsset({ asset: 'xyz', name: 'n', network: 'mainnet', decimal_display: 300 }).flags).toEqual(['malformed_value:asset', 'malformed_value:decimal_display']);
  });
});

describe('normalizeSummary', () => {
  const bucket = (direction: string, status: string, kind: string, n: number, currency = 'btc') => ({
    direction,
    status,
    currency,
    kind,
    total_count: n,
    oldest_created_at: '2026-10-01T00:00:00Z',
    newest_created_at: '2026-10-30T00:00:00Z',
  });

  it('wallet summary → a total row and bucket rows', () => {
    const rows = normalizeSummary(
      { wallet_id: WALLET, organization_id: ORG, environment_id: ENV, line_of_credit_id: null, total_count: 3, oldest_created_at: null, newest_created_at: null, buckets: [bucket('send', 'completed', 'bolt11', 2, 'BTC'), bucket('receive', 'settling_v2', 'onchain', 1)] },
      { scope: 'wallet', environment_id: ENV, wallet_id: WALLET },
    );
    expect(rows.map((r) => [r.scope, r.scope_id, r.direction, r.status, r.currency, r.kind, r.api_count])).toEqual([
      ['wallet', WALLET, null, null, null, null, 3n],
      ['wallet', WALLET, 'send', 'completed', 'btc', 'bolt11', 2n],
      ['wallet', WALLET, 'receive', 'settling_v2', 'btc', 'onchain', 1n],
    ]);
    expect(rows[2]?.flags).toContain('unknown_status:settling_v2');
  });

  it('environment summary → environment total, then each line of credit (sorted) with its buckets', () => {
    const rows = normalizeSummary(
      {
        organization_id: ORG,
        environment_id: ENV,
        total_count: 5,
        by_organization_id: {},
        by_environment_id: {},
        by_line_of_credit_id: {
          'loc-b': { organization_id: ORG, environment_id: ENV, total_count: 1, oldest_created_at: '2026-10-01T00:00:00Z', newest_created_at: '2026-10-01T00:00:00Z', buckets: [bucket('send', 'failed', 'onchain', 1, 'usd')] },
          'loc-a': { organization_id: ORG, environment_id: ENV, total_count: 2, oldest_created_at: '2026-10-01T00:00:00Z', newest_created_at: '2026-10-01T00:00:00Z', buckets: [] },
        },
      },
      { scope: 'environment', environment_id: ENV },
    );
    expect(rows.map((r) => [r.scope, r.scope_id, r.status, r.api_count])).toEqual([
      ['environment', ENV, null, 5n],
      ['line_of_credit', 'loc-a', null, 2n],
      ['line_of_credit', 'loc-b', null, 1n],
      ['line_of_credit', 'loc-b', 'failed', 1n],
    ]);
  });

  it('an unreadable count is 0 with a flag that says not to trust it', () => {
    const rows = normalizeSummary({ wallet_id: WALLET, total_count: '3.0', buckets: 'none' }, { scope: 'wallet', environment_id: ENV, wallet_id: WALLET });
    expect(rows).toHaveLength(1);
    expect(rows[0]?.api_count).toBe(0n);
    expect(rows[0]?.flags).toEqual(expect.arrayContaining(['malformed_value:total_count', 'malformed_value:buckets']));
  });
});
