/**
 * Why an S3 request failed, as a DeliveryError: the service's own error name and status (a wrong
 * bucket, refused credentials, a bad signature are never retried; 5xx, 429 and a cut connection
 * are). The SDK's messages name the bucket and key at most, never the secret key.
 */
import { DeliveryError, networkFailure } from '../util/delivery-error.js';

const NOT_RETRIED = new Set(['NoSuchBucket', 'AccessDenied', 'Forbidden', 'InvalidAccessKeyId', 'SignatureDoesNotMatch', 'InvalidBucketName', 'PermanentRedirect', 'AuthorizationHeaderMalformed', 'CredentialsProviderError', 'InvalidArgument', 'KMS.NotFoundException']);

/** What `probeDestination` says it is doing when it looks for the bucket. */
export const BUCKET_LOOKUP = 'look for the bucket';

export function s3Failure(error: unknown, label: string, doing: string): DeliveryError {
  if (error instanceof DeliveryError) return error;
  const e = error as { name?: unknown; message?: unknown; $metadata?: { httpStatusCode?: number }; code?: unknown };
  const status = e.$metadata?.httpStatusCode;
  const name = errorName(e.name, status, doing);
  // the SDK's message for an answer without a body is "UnknownError": it says nothing the name does not
  const raw = (typeof e.message === 'string' ? e.message : String(error)).split('\n')[0]!.slice(0, 200);
  const text = raw === 'UnknownError' || raw === name || raw === String(status) ? '' : raw;
  if (name === 'CredentialsProviderError') {
    return new DeliveryError(`${label}: no AWS credentials found (set accessKeyIdEnv and secretAccessKeyEnv, or give the process an AWS profile or role)`, false);
  }
  if (status === undefined) {
    const net = networkFailure(error, label, false, 0);
    return new DeliveryError(`${doing}: ${net.message}`, net.retryable);
  }
  const retryable = !NOT_RETRIED.has(name) && (status >= 500 || status === 429 || status === 408);
  const hint = name === 'NoSuchBucket' ? ' (check bucket, endpoint and forcePathStyle)' : REFUSED.has(name) ? ' (check the access key the config points to, and its permissions on the bucket)' : '';
  return new DeliveryError(`${label}: ${doing}: ${name} (HTTP ${status})${text ? `: ${text}` : ''}${hint}`, retryable);
}

const REFUSED = new Set(['InvalidAccessKeyId', 'SignatureDoesNotMatch', 'AccessDenied', 'Forbidden']);

/**
 * The error's name. A HEAD's answer has no body to name it: the SDK calls a 404 `NotFound` (on the
 * bucket itself, a missing bucket) and a 403 `Forbidden` or `Unknown` — refused credentials or
 * permissions, which only a request with a body (probe-destination.ts lists the bucket) tells apart.
 */
function errorName(name: unknown, status: number | undefined, doing: string): string {
  if (typeof name !== 'string' || name === '') return 'Error';
  if (name === 'NotFound' && status === 404 && doing === BUCKET_LOOKUP) return 'NoSuchBucket';
  if (status === 403 && (name === 'Unknown' || name === 'UnknownError' || name === '403')) return 'Forbidden';
  return name;
}
