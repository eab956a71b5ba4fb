/**
 * The service `init` sets up for: production or staging by name (each at its own base URL —
 * docs/service-facts.md#authentication: keys never cross between them), or the base URL of
 * another (a proxy, a simulator). Its kind is written to each environment of the config so the
 * jobs' guard (api/environment-guard.ts) refuses a staging key sent to production and the reverse.
 */
import { environmentKindOfHost, PRODUCTION_HOST, STAGING_HOST, type EnvironmentKind } from '../api/environment-guard.js';
import { usageError } from '../util/errors.js';

export const SERVICES: Readonly<Record<EnvironmentKind, string>> = {
  production: `https://${PRODUCTION_HOST}/v1`,
  staging: `https://${STAGING_HOST}/v1`,
};

export interface ServiceAnswer {
  baseUrl: string;
  /** production or staging when the host says so; null for a host payexport does not know */
  kind: EnvironmentKind | null;
}

export const SERVICE_QUESTION = `Service: production (${SERVICES.production}), staging (${SERVICES.staging}), or the base URL of another, with its /v1`;

/** `production`, `staging` or an http(s) URL; `given` names where the answer came from, for the error. */
export function parseService(answer: string, given: string): ServiceAnswer {
  const word = answer.trim().toLowerCase();
  if (word === 'production' || word === 'staging') return { baseUrl: SERVICES[word], kind: word };
  let url: URL;
  try {
    url = new URL(answer.trim());
  } catch {
    throw usageError('bad_option', `${given} '${answer.slice(0, 80)}' is neither production, staging nor a URL (such as ${SERVICES.production})`);
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw usageError('bad_option', `${given} '${answer.slice(0, 80)}': expected an http(s) URL`);
  const baseUrl = url.toString().replace(/\/+$/, '');
  const kind = environmentKindOfHost(baseUrl);
  // the real service over plain http would carry the key in clear text
  if (kind !== null && url.protocol !== 'https:') throw usageError('bad_option', `${given} '${baseUrl}': the ${kind} service is reached over https only`);
  return { baseUrl, kind };
}

/** How the service is named to a person: its kind, or its URL. */
export function describeService(service: ServiceAnswer): string {
  return service.kind === null ? service.baseUrl : `${service.kind} (${service.baseUrl})`;
}
