import { parseJsonLossless } from '../../../src/sim/core/json.js';
import type { SimHandle } from '../../../src/sim/start-simulator.js';

/** A minimal HTTP client for simulator tests: raw status/headers/text plus a lossless JSON parse. */

export type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- wire objects in tests

export interface TestReply {
  status: number;
  headers: Headers;
  text: string;
  /** the body parsed losslessly (bigints beyond 2^53), or undefined when not JSON */
  json: any; // eslint-disable-line @typescript-eslint/no-explicit-any -- wire objects in tests
}

export interface CallOptions {
  method?: string;
  body?: unknown;
  /** raw body text (overrides `body`) */
  rawBody?: string;
  headers?: Record<string, string>;
  /** the API key; `null` sends no credentials; default: the first environment's full key */
  key?: string | null;
  query?: Record<string, string | number | boolean | readonly string[]> | URLSearchParams;
}

export function queryString(query: CallOptions['query']): string {
  if (!query) return '';
  if (query instanceof URLSearchParams) return query.toString() === '' ? '' : `?${query}`;
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries(query)) {
    if (Array.isArray(v)) for (const item of v) params.append(k, String(item));
    else params.append(k, String(v));
  }
  const s = params.toString();
  return s === '' ? '' : `?${s}`;
}

export async function call(sim: SimHandle, path: string, options: CallOptions = {}): Promise<TestReply> {
  const key = options.key === undefined ? sim.environments[0]?.apiKey : options.key;
  const headers: Record<string, string> = { ...(key ? { 'x-api-key': key } : {}), ...options.headers };
  let body: string | undefined = options.rawBody;
  if (body === undefined && options.body !== undefined) {
    body = JSON.stringify(options.body, (_k, v: unknown) => (typeof v === 'bigint' ? Number(v) : v));
    headers['content-type'] ??= 'application/json';
  }
  const res = await fetch(`${sim.baseUrl}${path}${queryString(options.query)}`, { method: options.method ?? (body === undefined ? 'GET' : 'POST'), headers, ...(body !== undefined ? { body } : {}) });
  const text = await res.text();
  let json: unknown;
  try {
    json = text === '' ? undefined : parseJsonLossless(text);
  } catch {
    json = undefined;
  }
  return { status: res.status, headers: res.headers, text, json };
}

export function orgPath(sim: SimHandle): string {
  return `/organizations/${sim.organizationId}`;
}

export function envPath(sim: SimHandle, environment = 0): string {
  return `${orgPath(sim)}/environments/${sim.environments[environment]?.id ?? ''}`;
}

/** Every payment of an environment through cursor pagination, with the requests made. */
export async function walkCursor(sim: SimHandle, query: Record<string, string | number | readonly string[]>, environment = 0, key?: string): Promise<{ items: Json[]; pages: number }> {
  const items: Json[] = [];
  let cursor: string | null = null;
  let pages = 0;
  for (;;) {
    const q = cursor === null ? { ...query, pagination: 'cursor' } : { ...query, cursor };
    const r = await call(sim, `${envPath(sim, environment)}/payments`, { query: q, ...(key !== undefined ? { key } : { key: sim.environments[environment]?.apiKey ?? null }) });
    if (r.status !== 200) throw new Error(`page ${pages + 1}: ${r.status} ${r.text}`);
    pages++;
    items.push(...(r.json['items'] as Json[]));
    if (!r.json['has_more']) return { items, pages };
    cursor = r.json['next_cursor'] as string;
  }
}
