import { describe, expect, it } from 'vitest';
import { BUCKET_LOOKUP, s3Failure } from '../../../src/delivery/s3-failure.js';
import { sftpFailure } from '../../../src/delivery/sftp-failure.js';
import { deliverySummaryLines } from '../../../src/delivery/delivering-run.js';
import type { DeliveryRecord } from '../../../src/delivery/delivery-record.js';

/**
 * The words and the retry decision of a failed delivery step, from the errors ssh2 and the AWS
 * SDK actually raise (names, codes, statuses): what is retried (a cut connection, a 5xx) and what
 * is not (a changed host key, refused credentials, a full disk, a missing bucket).
 */

const ctx = { label: 'sftp://books@h:22', doing: 'write in/x.csv', pinned: 'SHA256:pinned', seen: 'SHA256:pinned', user: 'books' };

describe('sftpFailure', () => {
  const cases: Array<[string, unknown, Partial<typeof ctx>, RegExp, boolean]> = [
    ['a changed host key', new Error('Handshake failed: host verification failed'), { seen: 'SHA256:other' }, /server shows SHA256:other, the config pins SHA256:pinned/, false],
    ['refused credentials', new Error('connect: getConnection: All configured authentication methods failed'), {}, /refused books's credentials/, false],
    ['a full disk', new Error('_fastPut: Write stream error: Failure /in/x.csv'), {}, /full disk or quota/, false],
    ['permission denied', new Error('mkdir: Permission denied'), {}, /permission denied/, false],
    ['a refused connection', Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:22'), { code: 'ECONNREFUSED' }), {}, /connection refused/, true],
    ['a cut connection', new Error('fastPut: No SFTP connection available'), {}, /No SFTP connection/, true],
  ];
  for (const [label, error, over, words, retryable] of cases) {
    it(label, () => {
      const failure = sftpFailure(error, { ...ctx, ...over });
      expect(failure.message).toMatch(words);
      expect(failure.retryable).toBe(retryable);
    });
  }
});

describe('s3Failure', () => {
  const err = (name: string, status: number | undefined, message = name): unknown => Object.assign(new Error(message), { name, ...(status ? { $metadata: { httpStatusCode: status } } : {}) });
  const cases: Array<[string, unknown, RegExp, boolean]> = [
    ['a missing bucket', err('NoSuchBucket', 404, 'The specified bucket does not exist'), /NoSuchBucket \(HTTP 404\).*check bucket, endpoint and forcePathStyle/, false],
    ['a bad signature', err('SignatureDoesNotMatch', 403), /SignatureDoesNotMatch.*access key/, false],
    ['a 503', err('ServiceUnavailable', 503), /HTTP 503/, true],
    ['throttling', err('SlowDown', 429), /HTTP 429/, true],
    ['no credentials at all', err('CredentialsProviderError', undefined, 'Could not load credentials from any providers'), /no AWS credentials found/, false],
    ['a refused connection', Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' }), /connection refused/, true],
  ];
  for (const [label, error, words, retryable] of cases) {
    it(label, () => {
      const failure = s3Failure(error, 's3://books', 'upload k');
      expect(failure.message).toMatch(words);
      expect(failure.retryable).toBe(retryable);
    });
  }

  // a HEAD's answer has no body: the SDK names a 403 `Unknown` and says `UnknownError` (issue 40)
  it('a HEAD refused with 403 says Forbidden and what to check, never UnknownError', () => {
    const failure = s3Failure(err('Unknown', 403, 'UnknownError'), 's3://books', 'look for k');
    expect(failure.message).toBe('s3://books: look for k: Forbidden (HTTP 403) (check the access key the config points to, and its permissions on the bucket)');
    expect(failure.retryable).toBe(false);
  });

  it('a HEAD of a missing bucket says NoSuchBucket, with no stray UnknownError', () => {
    const failure = s3Failure(err('NotFound', 404, 'UnknownError'), 's3://books', BUCKET_LOOKUP);
    expect(failure.message).toBe('s3://books: look for the bucket: NoSuchBucket (HTTP 404) (check bucket, endpoint and forcePathStyle)');
  });
});

describe('deliverySummaryLines', () => {
  const base: DeliveryRecord = { destination: 'archive', kind: 's3', report: 'nightly/2026-11-20', remote: 's3://b/nightly/2026-11-20/', outcome: 'delivered', files_sent: 3, bytes_sent: 12345, attempts: 1, detail: 'delivered', duration_ms: 5 };
  it('one line per destination, and the retry command only when one failed', () => {
    expect(deliverySummaryLines([base], 'reports/nightly/2026-11-20')).toEqual(['delivery  archive (s3://b/nightly/2026-11-20/): delivered 3 file(s), 12,345 bytes, checked against the manifest']);
    const lines = deliverySummaryLines([{ ...base, outcome: 'failed', attempts: 3, detail: 'HTTP 503' }], 'reports/nightly/2026-11-20');
    expect(lines[0]).toBe('delivery  archive (s3://b/nightly/2026-11-20/): FAILED after 3 attempt(s): HTTP 503');
    expect(lines[1]).toMatch(/payexport deliver reports\/nightly\/2026-11-20$/);
    expect(deliverySummaryLines([], 'x')).toEqual([]);
  });
});
