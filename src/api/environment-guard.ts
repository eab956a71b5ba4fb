/**
 * Staging vs production (docs/service-facts.md#authentication: keys are scoped to one environment; staging lives
 * at its own base URL). A configured environment kind that contradicts the base URL's host is a
 * configuration error (exit 78) raised BEFORE any request, so a staging key never reaches
 * production and the reverse (docs/reliability.md#user-input-input, INPUT-08). Hosts we do not know (a simulator on
 * 127.0.0.1, a proxy) pass: the kind cannot be checked there.
 */
import { configError } from '../util/errors.js';

export type EnvironmentKind = 'production' | 'staging';

export const PRODUCTION_HOST = 'voltageapi.com';
export const STAGING_HOST = 'staging.voltageapi.com';

/** The kind a base URL's host belongs to, or null for a host we do not know. */
export function environmentKindOfHost(baseUrl: string): EnvironmentKind | null {
  let host: string;
  try {
    host = new URL(baseUrl).hostname.toLowerCase().replace(/\.$/, '');
  } catch {
    throw configError('bad_base_url', 'the API base URL is not a valid URL');
  }
  if (host === STAGING_HOST) return 'staging';
  if (host === PRODUCTION_HOST || host === `www.${PRODUCTION_HOST}`) return 'production';
  return null;
}

/**
 * Throws AppError `config` when `kind` contradicts the host of `baseUrl`, or when a known service
 * host is addressed over plain http (the key would travel in clear text).
 */
export function assertEnvironmentMatchesBaseUrl(kind: EnvironmentKind | undefined, baseUrl: string): void {
  const hostKind = environmentKindOfHost(baseUrl);
  if (hostKind === null) return;
  if (new URL(baseUrl).protocol !== 'https:') {
    throw configError('insecure_base_url', `the ${hostKind} API must be reached over https`, { host_kind: hostKind });
  }
  if (kind !== undefined && kind !== hostKind) {
    throw configError('environment_mismatch', `the environment is configured as ${kind} but the base URL is the ${hostKind} API`, {
      configured_kind: kind,
      host_kind: hostKind,
    });
  }
}
