/**
 * Why an S3 request failed, as a DeliveryError: the service's own error name and status (a wrong
 * bucket, refused credentials, a bad signature are never retried; 5xx, 429 and a cut connection
 * are). The SDK's messages name the bucket and key at most, never the secret key.
 */
import { DeliveryError, networkFailure } from '../notify/delivery-error.js';

const NOT_RETRIED = new Set(['NoSuchBucket', 'AccessDenied', 'InvalidAccessKeyId', 'SignatureDoesNotMatch', 'InvalidBucketName', 'PermanentRedirect', 'AuthorizationHeaderMalformed', 'CredentialsProviderError', 'InvalidArgument', 'KMS.NotFoundException']);

/** What `probeDestination` says it is doing when it HEADs the bucket. */
export const BUCKET_LOOKUP = 'look for the bucket';

export function s3Failure(error: unknown, label: string, doing: string): DeliveryError {
  if (error instanceof DeliveryError) return error;
  const e = error as { name?: unknown; message?: unknown; $metadata?: { httpStatusCode?: number }; code?: unknown };
  const status = e.$metadata?.httpStatusCode;
  // a HEAD has no body to name the error: a 404 on the bucket itself is a missing bucket
  const name = typeof e.name === 'string' ? (e.name === 'NotFound' && status === 404 && doing === BUCKET_LOOKUP ? 'NoSuchBucket' : e.name) : 'Error';
  const text = (typeof e.message === 'string' ? e.message : String(error)).split('\n')[0]!.slice(0, 200);
  if (name === 'CredentialsProviderError') {
    return new DeliveryError(`${label}: no AWS credentials found (set accessKeyIdEnv and secretAccessKeyEnv, or give the process an AWS profile or role)`, false);
  }
  if (status === undefined) {
    const net = networkFailure(error, label, false, 0);
    return new DeliveryError(`${doing}: ${net.message}`, net.retryable);
  }
  const retryable = !NOT_RETRIED.has(name) && (status >= 500 || status === 429 || status === 408);
  const hint = name === 'NoSuchBucket' ? ' (check bucket, endpoint and forcePathStyle)' : name === 'InvalidAccessKeyId' || name === 'SignatureDoesNotMatch' || name === 'AccessDenied' ? ' (check the access key the config points to, and its permissions on the bucket)' : '';
  return new DeliveryError(`${label}: ${doing}: ${name} (HTTP ${status})${text && text !== name ? `: ${text}` : ''}${hint}`, retryable);
}
