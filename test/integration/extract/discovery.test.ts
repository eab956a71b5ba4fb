/**
 * Discovery against the simulator: the API has no environment list, so environments come from the
 * wallets — inactive wallets included (their history is still in the books) — whether one
 * organization-wide token or one key per environment is configured — and each wallet's
 * processing-fee policy, the current-rate evidence of the fee-rate history.
 */
import pLimit from 'p-limit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiClient } from '../../../src/api/client.js';
import { discover } from '../../../src/extract/wallets.js';
import { bindNormalizers } from '../../../src/jobs/normalizers.js';
import type { SimHandle } from '../../../src/sim/index.js';
import { startSimulator } from '../../../src/sim/start-simulator.js';
import { silentLogger } from '../../../src/util/log.js';
import { SecretScrubber } from '../../../src/util/secret-scrubber.js';

let sim: SimHandle;
const clients: ApiClient[] = [];

beforeAll(async () => {
  sim = await startSimulator({ seed: 5, scale: 200, wallets: 10, environments: ['production', 'staging'] });
});
afterAll(async () => {
  await Promise.all(clients.map((c) => c.close()));
  await sim.close();
});

function client(auth: ConstructorParameters<typeof ApiClient>[0]['auth']): ApiClient {
  const api = new ApiClient({ baseUrl: sim.baseUrl, auth, limiter: pLimit(4), log: silentLogger(), scrubber: new SecretScrubber() });
  clients.push(api);
  return api;
}

const base = () => ({ organizationId: sim.organizationId, environmentIds: [], walletIds: [], shard: undefined, normalize: bindNormalizers(sim.organizationId) });

describe('discovery', () => {
  it('finds every environment from the wallets, inactive wallets included (organization-wide token)', async () => {
    const found = await discover({ ...base(), readers: [{ environmentId: undefined, api: client({ kind: 'bearer', token: sim.bearerToken }) }] });
    expect(found.environments).toEqual(sim.environments.map((e) => e.id).sort());
    expect(found.wallets.map((w) => w.wallet_id)).toEqual(sim.wallets.map((w) => w.id).sort());
    const inactive = sim.wallets.filter((w) => !w.active).map((w) => w.id);
    expect(inactive.length).toBeGreaterThan(0);
    for (const id of inactive) expect(found.wallets.map((w) => w.wallet_id)).toContain(id);
    expect(found.assets.length).toBeGreaterThan(0);
  });

  it('gives the same wallets with one key per environment', async () => {
    const readers = sim.environments.map((e) => ({ environmentId: e.id, api: client({ kind: 'apiKey', apiKey: e.apiKey }) }));
    const found = await discover({ ...base(), readers });
    expect(found.wallets.map((w) => w.wallet_id)).toEqual(sim.wallets.map((w) => w.id).sort());
    expect(found.environments).toEqual(sim.environments.map((e) => e.id).sort());
  });

  it('refuses an unknown --wallet before any pull (exit 64)', async () => {
    const error = await discover({ ...base(), walletIds: ['00000000-0000-4000-8000-000000000000'], readers: [{ environmentId: undefined, api: client({ kind: 'bearer', token: sim.bearerToken }) }] }).then(
      () => null,
      (e: unknown) => e,
    );
    expect(error).toMatchObject({ exitCode: 64, type: 'unknown_wallet' });
  });

  it("reads each wallet's processing-fee policy: the simulator's rates, none for a fee-free wallet or one without policies (404)", async () => {
    const api = client({ kind: 'bearer', token: sim.bearerToken });
    const found = await discover({ ...base(), readers: [{ environmentId: undefined, api }] });
    const truth = new Map(sim.dataset.wallets.map((w) => [w.id, w]));
    const kinds = new Set<string>();
    for (const wallet of found.wallets) {
      const w = truth.get(wallet.wallet_id);
      const expected = w?.hasPolicies && w.processingFee ? { send_bps: w.processingFee.sendBps, receive_bps: w.processingFee.receiveBps } : null;
      expect({ wallet: wallet.wallet_id, policy: wallet.fee_policy === null || wallet.fee_policy === undefined ? null : { send_bps: wallet.fee_policy.send_bps, receive_bps: wallet.fee_policy.receive_bps } }).toEqual({ wallet: wallet.wallet_id, policy: expected });
      if (expected !== null) expect(wallet.fee_policy?.updated_at).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/);
      kinds.add(expected !== null ? 'policy' : w?.hasPolicies ? 'fee-free' : 'no policies');
      expect(wallet.flags).toEqual([]);
    }
    expect(kinds).toEqual(new Set(['policy', 'fee-free', 'no policies']));
  });
});
