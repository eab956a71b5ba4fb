/**
 * The simulator, started in this process on port 0, with PLANTED credentials: fixed, distinctive
 * values the secret checks search every output for.
 */
import { startSimulator, type SimHandle, type SimulatorOptions } from '../../../src/sim/index.js';

export const PLANTED_KEYS = ['vltg_PLANTEDkeyZERO_3f9a1c7e5b2d4a6c8e0f1a3b', 'vltg_PLANTEDkeyONE_9c8b7a6f5e4d3c2b1a0f9e8d'] as const;
export const PLANTED_TOKEN = 'eyPLANTEDbearer.token-7d1e5a9c3b8f2e6a4d0c9b7e5a3f1d8c';
/** every secret a test run could see */
export const PLANTED_SECRETS: readonly string[] = [...PLANTED_KEYS, PLANTED_TOKEN];

export interface TestSim {
  sim: SimHandle;
  /** the child environment for one credential: the organization-wide token, or one environment's key */
  env(credential: 'token' | { keyOf: 0 | 1 }): Record<string, string>;
  close(): Promise<void>;
}

export async function startTestSim(options: SimulatorOptions = {}): Promise<TestSim> {
  const sim = await startSimulator({ seed: 3, scale: 300, ...options, apiKeys: PLANTED_KEYS, bearerToken: PLANTED_TOKEN, onError: (error) => console.error('simulator error', error) });
  return {
    sim,
    env(credential) {
      const base = { PAYEXPORT_BASE_URL: sim.baseUrl, PAYEXPORT_ORGANIZATION_ID: sim.organizationId };
      return credential === 'token' ? { ...base, PAYEXPORT_BEARER_TOKEN: PLANTED_TOKEN } : { ...base, PAYEXPORT_API_KEY: PLANTED_KEYS[credential.keyOf] };
    },
    close: () => sim.close(),
  };
}
