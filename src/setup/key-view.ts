/**
 * What one credential sees of an organization: its wallets (inactive ones included — their history
 * is still in the books), their environments, names and currencies. `init` shows it after each
 * answer and `doctor` checks it, with the same requests and errors a job's discovery makes
 * (src/extract/wallets.ts), so a wrong key, a key of another environment or an unknown
 * organization reads exactly as it does in a nightly run.
 */
import pLimit from 'p-limit';
import { ApiClient } from '../api/client.js';
import { listWallets } from '../api/endpoints.js';
import type { Credential } from '../config/load.js';
import type { WalletRow } from '../model/rows.js';
import { normalizeWallet } from '../normalize/wallet.js';
import { silentLogger } from '../util/log.js';
import type { SecretScrubber } from '../util/secret-scrubber.js';

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
  input.scrubber.add(input.credential.value);
  const client = new ApiClient({
    baseUrl: input.baseUrl,
    auth: input.credential.scheme === 'api_key' ? { kind: 'apiKey', apiKey: input.credential.value } : { kind: 'bearer', token: input.credential.value },
    limiter: pLimit(1),
    // a setup question waits for its answer: a couple of attempts, not a night's retry budget
    retry: { maxAttempts: 2, maxDelayMs: 1_000 },
    timeoutMs: input.timeoutMs ?? 15_000,
    // the caller shows the outcome; a setup check has no run log
    log: silentLogger(),
    scrubber: input.scrubber,
  });
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

/** The view as lines for a person: one heading per environment, one line per wallet. */
export function describeKeyView(view: KeyView): string[] {
  if (view.wallets.length === 0) return ['  the key sees no wallet in this organization'];
  const lines: string[] = [];
  for (const environment of view.environments) {
    const wallets = view.wallets.filter((w) => w.environment_id === environment);
    const inactive = wallets.filter((w) => !w.active).length;
    lines.push(`  environment ${environment}: ${wallets.length} wallet(s)${inactive > 0 ? `, ${inactive} inactive` : ''}`);
    const width = Math.max(...wallets.map((w) => w.name.length));
    for (const w of wallets) {
      const currencies = [...new Set(w.balances.map((b) => b.currency))].join(', ') || 'no balance';
      lines.push(`    ${w.name.padEnd(width)}  ${w.wallet_id}  ${currencies}${w.active ? '' : '  (inactive)'}`);
    }
  }
  return lines;
}
