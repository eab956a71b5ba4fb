/**
 * What one credential sees of an organization: its wallets (inactive ones included — their history
 * is still in the books), their environments, names and currencies. `init` shows it after each
 * answer and `doctor` checks it, with the same requests and errors a job's discovery makes
 * (src/extract/wallets.ts), so a wrong key, a key of another environment or an unknown
 * organization reads exactly as it does in a nightly run.
 */
import { listWallets } from '../api/endpoints.js';
import type { Credential } from '../config/load.js';
import type { WalletRow } from '../model/rows.js';
import { normalizeWallet } from '../normalize/wallet.js';
import type { SecretScrubber } from '../util/secret-scrubber.js';
import { setupClient } from './setup-client.js';

export interface KeyViewInput {
  baseUrl: string;
  credential: Credential;
  organizationId: string;
  /** ask for this environment's wallets (a key of another environment is refused: 403 access_rights) */
  environmentId?: string | undefined;
  scrubber: SecretScrubber;
  timeoutMs?: number;
}

export interface KeyView {
  /** sorted by environment, then name */
  wallets: WalletRow[];
  /** the environments holding those wallets, sorted */
  environments: string[];
}

export async function viewOfKey(input: KeyViewInput): Promise<KeyView> {
  const client = setupClient(input);
  try {
    const raw = await listWallets(client, {
      organizationId: input.organizationId,
      inactive: true,
      ...(input.environmentId === undefined ? {} : { environmentId: input.environmentId }),
    });
    const wallets = raw
      .map((w) => normalizeWallet(w, { organization_id: input.organizationId }))
      .sort((a, b) => (a.environment_id === b.environment_id ? (a.name < b.name ? -1 : a.name > b.name ? 1 : 0) : a.environment_id < b.environment_id ? -1 : 1));
    return { wallets, environments: [...new Set(wallets.map((w) => w.environment_id))].sort() };
  } finally {
    await client.close();
  }
}
