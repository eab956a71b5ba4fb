/**
 * The scope a report folder covers, as its manifest names it (docs/reports.md#one-scope-per-output-root):
 * the organization, and which of its environments and wallets the run was asked for. An output
 * root holds the books of one scope. A narrower run (`--environment`, `--wallet`) writes a
 * different set of files — its `month-end/2026-10` is not the organization's October — so it is
 * another scope, never a part of this one; the environments a run found (`environments_covered`)
 * are recorded for the reader but do not decide the scope: an organization that opens a new
 * environment keeps its root.
 */
import { configError, type AppError } from '../util/errors.js';

export interface OutputScope {
  /** the organization's UUID, lower case */
  organization: string;
  /** the environments asked for (`--environment`, the config's list), sorted; `all` when none was named */
  environments: 'all' | string[];
  /** the wallets asked for (`--wallet`), sorted; `all` when none was named */
  wallets: 'all' | string[];
}

/** What manifest.json records: the scope, and the environments the folder's wallets are in. */
export interface ManifestScope extends OutputScope {
  environments_covered: string[];
}

/** A scope from the run's settings: ids in lower case, sorted, no repeats. */
export function outputScope(organization: string, environmentIds: readonly string[], walletIds: readonly string[]): OutputScope {
  return { organization: organization.toLowerCase(), environments: idList(environmentIds), wallets: idList(walletIds) };
}

function idList(ids: readonly string[]): 'all' | string[] {
  return ids.length === 0 ? 'all' : [...new Set(ids.map((id) => id.toLowerCase()))].sort();
}

export function sameScope(a: OutputScope, b: OutputScope): boolean {
  return a.organization === b.organization && JSON.stringify(a.environments) === JSON.stringify(b.environments) && JSON.stringify(a.wallets) === JSON.stringify(b.wallets);
}

/** `organization 4b1e… (every environment, every wallet)`: the scope in one phrase of an error line. */
export function scopeWords(scope: OutputScope): string {
  return `organization ${scope.organization} (${listWords(scope.environments, 'environment')}, ${listWords(scope.wallets, 'wallet')})`;
}

function listWords(ids: 'all' | readonly string[], noun: string): string {
  if (ids === 'all') return `every ${noun}`;
  if (ids.length <= 2) return `${noun} ${ids.join(', ')} only`;
  return `${ids.length} ${noun}s only`;
}

/**
 * The scope a manifest (parsed JSON) names. `recorded`: it has a `scope` of its own. A manifest
 * written before manifests named their scope (`recorded: false`) still names the organization,
 * environments and wallets among its parameters: that is its scope as far as it can be told.
 * null: neither (not a payexport manifest, or one of an unknown shape).
 */
export function scopeOfManifest(manifest: unknown): { scope: OutputScope; recorded: boolean } | null {
  if (manifest === null || typeof manifest !== 'object') return null;
  const { scope, parameters } = manifest as { scope?: unknown; parameters?: unknown };
  const own = readScope(scope);
  if (own !== null) return { scope: own, recorded: true };
  const legacy = readScope(parameters);
  return legacy === null ? null : { scope: legacy, recorded: false };
}

function readScope(value: unknown): OutputScope | null {
  if (value === null || typeof value !== 'object') return null;
  const { organization, environments, wallets } = value as Record<string, unknown>;
  const e = readIds(environments);
  const w = readIds(wallets);
  if (typeof organization !== 'string' || organization === '' || e === null || w === null) return null;
  return outputScope(organization, e, w);
}

function readIds(value: unknown): string[] | null {
  if (value === 'all') return [];
  if (!Array.isArray(value) || value.length === 0 || !value.every((v): v is string => typeof v === 'string' && v !== '')) return null;
  return value;
}

/**
 * Exit 78, one line: what `where` holds against what this run covers, and the fix. Another
 * organization's books are never adopted; a different selection of the same organization's is
 * only on request (`--adopt-out`, when `adoptable`).
 */
export function scopeRefusal(where: string, theirs: OutputScope | null, ours: OutputScope, adoptable: boolean): AppError {
  const held = theirs === null ? 'books of an organization it does not name' : `the books of ${scopeWords(theirs)}`;
  const fix =
    theirs !== null && theirs.organization === ours.organization
      ? `a different selection is a different set of books: give this run another --out${adoptable ? ', or rerun with --adopt-out to make this selection the root\'s from now on' : ''}`
      : 'give this run another --out, or set output.perOrganization in the config for one folder per organization under the root';
  return configError('output_scope_mismatch', `${where} holds ${held}; this run covers ${scopeWords(ours)}: ${fix}`, { where });
}
