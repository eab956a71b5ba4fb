/**
 * Which answer a refused request points at: the key (400 missing_credentials, 401), the
 * organization (403 or 404 on the organization's own list), the environment (403 once an
 * environment is named), or the service itself (unreachable, 5xx) — so `init` asks again for the
 * right thing, and `doctor` names the right fix.
 */
import { ApiAuthError, ApiError } from '../api/errors.js';

export type AccessProblem = 'key' | 'organization' | 'environment' | 'service';

export function accessProblemOf(error: unknown, askedForEnvironment: boolean): AccessProblem {
  if (error instanceof ApiAuthError && (error.status === 401 || error.type === 'missing_credentials' || error.type === 'wrong_credentials')) return 'key';
  if (error instanceof ApiError && (error.status === 403 || error.status === 404)) {
    // access_rights: "scoped to another environment" or "no access to this organization"
    if (askedForEnvironment && /environment/i.test(error.detail)) return 'environment';
    return 'organization';
  }
  return 'service';
}
