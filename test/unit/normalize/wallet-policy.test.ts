import { describe, expect, it } from 'vitest';
import { Flags } from '../../../src/normalize/flags.js';
import { normalizeFeePolicy } from '../../../src/normalize/wallet-policy.js';

const body = (policies: unknown[]): Record<string, unknown> => ({ id: '3f0c0000-0000-4000-8000-000000000001', policies, updated_at: '2026-09-10T08:00:00Z' });
const feePolicy = (rates: unknown): Record<string, unknown> => ({
  type: 'processing_fee',
  data: { id: '3f0c0000-0000-4000-8000-000000000006', rates, created_at: '2026-01-01T00:00:00Z', updated_at: '2026-09-10T08:00:00.5Z' },
});

describe('normalizeFeePolicy', () => {
  it('reads the processing-fee rates and when the policy last changed, among other policies', () => {
    const flags = new Flags();
    const policy = normalizeFeePolicy(body([{ type: 'ofac_compliant', data: { id: 'x', created_at: '2026-01-01T00:00:00Z' } }, feePolicy({ send_basis_points: 250, receive_basis_points: 0 })]), flags);
    expect(policy).toEqual({ send_bps: 250, receive_bps: 0, updated_at: '2026-09-10T08:00:00.500000Z' });
    expect(flags.toArray()).toEqual([]);
  });

  it('is null for a wallet without policies or without a processing-fee policy', () => {
    expect(normalizeFeePolicy(null)).toBeNull();
    expect(normalizeFeePolicy(body([{ type: 'max_payment_size', data: { id: 'x', max_size_sats: 1 } }]))).toBeNull();
  });

  it('flags rates it cannot read (out of range, not integers) and keeps no policy', () => {
    const flags = new Flags();
    expect(normalizeFeePolicy(body([feePolicy({ send_basis_points: 10_001, receive_basis_points: '1.5' })]), flags)).toBeNull();
    expect(flags.toArray()).toEqual(['malformed_value:policies[0].data.rates.send_basis_points', 'malformed_value:policies[0].data.rates.receive_basis_points']);
  });
});
