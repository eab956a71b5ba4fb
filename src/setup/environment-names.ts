/**
 * Environments as a person knows them. The service gives an environment no name and has no list of
 * them (payexport discovers them from the wallets, docs/service-facts.md), so `init` shows each
 * with a kind and a name it proposes, and writes both into the config (`environments[].kind`,
 * `.name`):
 *
 * - kind: the service's (production or staging, from its host); for another base URL, what the
 *   wallets' networks say (mainnet: production; testnet, signet, mutinynet, regtest: staging);
 *   unknown when they say neither.
 * - name: the kind, numbered when several environments share it ("production", "production 2"),
 *   in the order of their ids — at a terminal the person is asked, with that as the default.
 */
import type { EnvironmentKind } from '../api/environment-guard.js';
import type { WalletRow } from '../model/rows.js';
import { usageError } from '../util/errors.js';

export interface NamedEnvironment {
  id: string;
  name: string;
  kind: EnvironmentKind | null;
  wallets: WalletRow[];
}

const TEST_NETWORKS = new Set(['testnet', 'signet', 'mutinynet', 'regtest']);

function kindOf(wallets: readonly WalletRow[], serviceKind: EnvironmentKind | null): EnvironmentKind | null {
  if (serviceKind !== null) return serviceKind;
  const networks = new Set(wallets.map((w) => w.network).filter((n) => n !== '' && n !== 'none'));
  if (networks.size === 0) return null;
  if ([...networks].every((n) => n === 'mainnet')) return 'production';
  if ([...networks].every((n) => TEST_NETWORKS.has(n))) return 'staging';
  return null;
}

/** The environments in `ids` order, each with its wallets, kind and proposed name. */
export function proposeEnvironments(ids: readonly string[], wallets: readonly WalletRow[], serviceKind: EnvironmentKind | null): NamedEnvironment[] {
  const used = new Map<string, number>();
  return ids.map((id) => {
    const own = wallets.filter((w) => w.environment_id === id);
    const kind = kindOf(own, serviceKind);
    const base = kind ?? 'environment';
    const n = (used.get(base) ?? 0) + 1;
    used.set(base, n);
    return { id, name: n === 1 ? base : `${base} ${n}`, kind, wallets: own };
  });
}

/** A name typed for an environment: one line of text a person can read back in the config. */
export function checkEnvironmentName(answer: string): string {
  const name = answer.trim();
  if (name === '' || name.length > 60 || /[\p{Cc}]/u.test(name)) throw usageError('bad_option', `the name '${name.slice(0, 60)}' is not usable: give 1 to 60 printable characters`);
  return name;
}

/** The wallets' names, shortened to a line: what makes an environment recognisable. */
export function walletNamesLine(environment: NamedEnvironment, max = 3): string {
  const names = environment.wallets.map((w) => w.name);
  return `${environment.wallets.length} wallet(s)${names.length === 0 ? '' : `: ${names.slice(0, max).join(', ')}${names.length > max ? ', …' : ''}`}`;
}

/** One heading per environment (name, kind, networks, id), one line per wallet under it. */
export function describeEnvironments(environments: readonly NamedEnvironment[]): string[] {
  if (environments.every((e) => e.wallets.length === 0)) return ['  the key sees no wallet in this organization'];
  const lines: string[] = [];
  for (const environment of environments) {
    const { wallets } = environment;
    const inactive = wallets.filter((w) => !w.active).length;
    const networks = [...new Set(wallets.map((w) => w.network).filter((n) => n !== ''))].sort().join(', ');
    const kind = environment.kind === environment.name ? [] : [environment.kind ?? 'kind unknown'];
    const about = [...kind, networks === '' ? '' : `${networks} wallets`].filter((s) => s !== '').join(', ');
    lines.push(`  ${environment.name}${about === '' ? '' : ` (${about})`} — environment ${environment.id}: ${wallets.length} wallet(s)${inactive > 0 ? `, ${inactive} inactive` : ''}`);
    const width = Math.max(0, ...wallets.map((w) => w.name.length));
    for (const w of wallets) {
      const currencies = [...new Set(w.balances.map((b) => b.currency))].join(', ') || 'no balance';
      lines.push(`    ${w.name.padEnd(width)}  ${w.wallet_id}  ${currencies}${w.active ? '' : '  (inactive)'}`);
    }
  }
  return lines;
}
