import { randomBytes } from 'node:crypto';
import { ApiError } from './api-error.js';

/**
 * Credentials: one full-access and one read-only API key per environment (`vltg_` + random,
 * scoped to that ONE environment), and one organization-wide bearer token. Either scheme works
 * on every endpoint: `x-api-key: <key>` or `Authorization: Bearer <key or token>`.
 */

export type Permission = 'read' | 'write';

export interface Principal {
  /** null = every environment of the organization (bearer token) */
  environmentIndex: number | null;
  permissions: ReadonlySet<Permission>;
}

export interface IssuedKeys {
  apiKeys: string[];
  readOnlyApiKeys: string[];
  bearerToken: string;
}

export function newApiKey(): string {
  return `vltg_${randomBytes(24).toString('base64url')}`;
}

function newBearerToken(): string {
  const part = (o: object): string => Buffer.from(JSON.stringify(o)).toString('base64url');
  return `${part({ alg: 'HS256', typ: 'JWT' })}.${part({ sub: 'simulator-user', scope: 'organization' })}.${randomBytes(32).toString('base64url')}`;
}

export class Credentials {
  private readonly principals = new Map<string, Principal>();
  readonly issued: IssuedKeys;

  constructor(environments: number, given?: { apiKeys?: readonly string[]; bearerToken?: string }) {
    const apiKeys = Array.from({ length: environments }, (_, e) => given?.apiKeys?.[e] ?? newApiKey());
    const readOnlyApiKeys = Array.from({ length: environments }, () => newApiKey());
    const bearerToken = given?.bearerToken ?? newBearerToken();
    const all = new Set<Permission>(['read', 'write']);
    apiKeys.forEach((key, e) => this.principals.set(key, { environmentIndex: e, permissions: all }));
    readOnlyApiKeys.forEach((key, e) => this.principals.set(key, { environmentIndex: e, permissions: new Set<Permission>(['read']) }));
    this.principals.set(bearerToken, { environmentIndex: null, permissions: all });
    this.issued = { apiKeys, readOnlyApiKeys, bearerToken };
  }

  /** docs/service-facts.md#authentication: absent → 400 missing_credentials, unknown → 401 wrong_credentials. */
  authenticate(headers: { 'x-api-key'?: string | string[] | undefined; authorization?: string | undefined }): Principal {
    const rawKey = headers['x-api-key'];
    const key = Array.isArray(rawKey) ? rawKey[0] : rawKey;
    const auth = headers.authorization;
    let presented: string | undefined;
    if (key !== undefined && key !== '') presented = key;
    else if (auth !== undefined && auth !== '') {
      const m = /^Bearer\s+(\S+)\s*$/i.exec(auth);
      if (!m) throw new ApiError(401, 'wrong_credentials', 'Authentication failed');
      presented = m[1];
    }
    if (presented === undefined) throw new ApiError(400, 'missing_credentials', 'No credentials were provided');
    const principal = this.principals.get(presented);
    if (!principal) throw new ApiError(401, 'wrong_credentials', 'Authentication failed');
    return principal;
  }
}
