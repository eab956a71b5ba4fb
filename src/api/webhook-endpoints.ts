/**
 * The two write endpoints payexport calls, both for its own webhook registration (OpenAPI
 * "Webhooks"): create (a client-generated id) and rotate the shared secret. Each is ONE POST,
 * never retried: a create that may have reached the service is not repeated blindly (a second
 * attempt would answer 409 and the first secret would be lost), so a failure says what to do.
 * The returned secret is handed to the caller and never logged.
 */
import { request } from 'undici';
import { AppError } from '../util/errors.js';
import type { SecretScrubber } from '../util/secret-scrubber.js';
import { uuidParam } from './endpoints.js';
import { apiErrorFromResponse } from './errors.js';

export interface WriteTarget {
  baseUrl: string;
  credential: { scheme: 'api_key' | 'bearer'; value: string };
  scrubber: SecretScrubber;
  timeoutMs?: number;
}

export interface WebhookEventSelector {
  send?: string;
  receive?: string;
  test?: string;
}

export interface PlainSecret {
  id: string;
  shared_secret: string;
}

async function post(target: WriteTarget, path: string, body: unknown): Promise<PlainSecret> {
  const headers: Record<string, string> = {
    accept: 'application/json',
    'user-agent': 'payexport',
    ...(target.credential.scheme === 'api_key' ? { 'x-api-key': target.credential.value } : { authorization: `Bearer ${target.credential.value}` }),
    ...(body === undefined ? {} : { 'content-type': 'application/json' }),
  };
  let response;
  try {
    response = await request(`${target.baseUrl.replace(/\/+$/, '')}${path}`, {
      method: 'POST',
      headers,
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      headersTimeout: target.timeoutMs ?? 30_000,
      bodyTimeout: target.timeoutMs ?? 30_000,
    });
  } catch (error) {
    throw new AppError('unavailable', 'api_unreachable', `POST ${path}: ${target.scrubber.scrub(error instanceof Error ? error.message : String(error))}; nothing was retried — check the registration with the service before trying again`);
  }
  const text = await response.body.text();
  if (response.statusCode < 200 || response.statusCode >= 300) {
    throw apiErrorFromResponse({ method: 'POST', path, status: response.statusCode, bodyText: text, retryAfterMs: undefined, attempts: 1 }, target.scrubber);
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    parsed = null;
  }
  const secret = (parsed as Partial<PlainSecret> | null)?.shared_secret;
  const id = (parsed as Partial<PlainSecret> | null)?.id;
  if (typeof secret !== 'string' || secret === '' || typeof id !== 'string') {
    throw new AppError('unavailable', 'api_malformed_response', `POST ${path}: the answer holds no shared_secret`);
  }
  target.scrubber.add(secret);
  return { id: id.toLowerCase(), shared_secret: secret };
}

const webhooksPath = (organizationId: string, environmentId: string): string =>
  `/organizations/${uuidParam('organization_id', organizationId)}/environments/${uuidParam('environment_id', environmentId)}/webhooks`;

export function createWebhook(
  target: WriteTarget,
  params: { organizationId: string; environmentId: string; id: string; url: string; name: string; events: readonly WebhookEventSelector[] },
): Promise<PlainSecret> {
  return post(target, webhooksPath(params.organizationId, params.environmentId), { id: uuidParam('webhook_id', params.id), url: params.url, name: params.name, events: params.events });
}

export function rotateWebhookSecret(target: WriteTarget, params: { organizationId: string; environmentId: string; webhookId: string }): Promise<PlainSecret> {
  return post(target, `${webhooksPath(params.organizationId, params.environmentId)}/${uuidParam('webhook_id', params.webhookId)}/keys`, undefined);
}
