/**
 * Is a delivery destination reachable, without sending a report? For `doctor`: connects, checks
 * the SFTP host key against the pin, logs in, and proves it can write by creating and removing a
 * hidden probe file under the destination's root (an S3 bucket: a list under the prefix, then a
 * probe object put and deleted, and whether the key may list incomplete multipart uploads). Never
 * throws; the answer names what to fix.
 */
import { randomBytes } from 'node:crypto';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import type { DeliveryDestination } from '../config/delivery-schema.js';
import { DeliveryError } from '../util/delivery-error.js';
import type { Env } from '../util/env.js';
import { SecretScrubber } from '../util/secret-scrubber.js';
import { resolveCredentials } from './delivery-secrets.js';
import { objectKey, s3Label } from './s3-names.js';
import { BUCKET_LOOKUP, s3Failure } from './s3-failure.js';
import { openSftpTree } from './sftp-tree.js';

export type ProbeResult = { ok: true; detail: string } | { ok: false; detail: string; fix: string };

export interface ProbeOptions {
  env: Env;
  cwd: string;
  scrubber?: SecretScrubber;
  timeoutMs?: number;
}

export async function probeDestination(d: DeliveryDestination, options: ProbeOptions): Promise<ProbeResult> {
  const scrubber = options.scrubber ?? new SecretScrubber();
  const timeoutMs = options.timeoutMs ?? 15_000;
  const token = `.payexport-probe-${randomBytes(6).toString('hex')}`;
  try {
    const creds = resolveCredentials(d, options.env, options.cwd, scrubber);
    if (d.kind === 'folder') {
      const root = resolve(options.cwd, d.path);
      await mkdir(root, { recursive: true });
      await writeFile(join(root, token), 'probe\n');
      await rm(join(root, token), { force: true });
      return { ok: true, detail: `${root} is writable` };
    }
    if (d.kind === 'sftp' && creds.kind === 'sftp') {
      const tree = await openSftpTree(d, creds.sftp, timeoutMs);
      try {
        const root = d.remoteDir === '' ? '.' : d.remoteDir;
        await tree.mkdirp(root);
        const probe = tree.join(root, token);
        await tree.mkdirp(probe);
        await tree.removeTree(probe);
        return { ok: true, detail: `${tree.label}: host key matches, login ok, ${root} writable` };
      } finally {
        await tree.close();
      }
    }
    if (d.kind === 's3' && creds.kind === 's3') {
      // loaded only where an S3 destination is probed (s3-names.ts says why)
      const [{ DeleteObjectCommand, ListMultipartUploadsCommand, ListObjectsV2Command, PutObjectCommand }, { s3Client }] = await Promise.all([import('@aws-sdk/client-s3'), import('./s3-delivery.js')]);
      const client = s3Client(d, creds.s3, timeoutMs);
      const label = s3Label(d);
      try {
        const key = objectKey(d, token);
        const prefix = d.prefix === '' ? undefined : `${objectKey(d)}/`;
        // a list, not a HEAD: its error has a body that names it (NoSuchBucket, InvalidAccessKeyId,
        // SignatureDoesNotMatch, AccessDenied); of the probe's own key, which lists nothing
        await client.send(new ListObjectsV2Command({ Bucket: d.bucket, Prefix: key, MaxKeys: 1 })).catch((e: unknown) => Promise.reject(s3Failure(e, label, BUCKET_LOOKUP)));
        await client.send(new PutObjectCommand({ Bucket: d.bucket, Key: key, Body: 'probe\n', ...(d.serverSideEncryption ? { ServerSideEncryption: d.serverSideEncryption } : {}), ...(d.kmsKeyId ? { SSEKMSKeyId: d.kmsKeyId } : {}) })).catch((e: unknown) => Promise.reject(s3Failure(e, label, `write ${key}`)));
        await client.send(new DeleteObjectCommand({ Bucket: d.bucket, Key: key })).catch((e: unknown) => Promise.reject(s3Failure(e, label, `delete ${key}`)));
        // what a delivery needs to tidy after a killed one (s3-leftovers.ts); without it the folder still arrives
        const tidy = await client.send(new ListMultipartUploadsCommand({ Bucket: d.bucket, Prefix: prefix, MaxUploads: 1 })).then(
          () => '',
          (e: unknown) => `; this key may not list incomplete multipart uploads (${s3Failure(e, label, 'list uploads').message.replace(`${label}: list uploads: `, '')}): a killed delivery's parts stay stored until the bucket's AbortIncompleteMultipartUpload lifecycle rule removes them (docs/delivery.md)`,
        );
        return { ok: true, detail: `${label}: bucket reachable, writable${tidy}` };
      } finally {
        client.destroy();
      }
    }
    return { ok: false, detail: `${d.name}: unknown destination kind`, fix: 'check the delivery section of the config' };
  } catch (error) {
    const detail = scrubber.scrub(error instanceof Error ? error.message : String(error));
    return { ok: false, detail: `${d.name}: ${detail}`, fix: fixFor(d, error, detail) };
  }
}

function fixFor(d: DeliveryDestination, error: unknown, detail: string): string {
  if (/host key refused/.test(detail)) return 'confirm the server\'s new key with its owner (ssh-keyscan -p PORT HOST | ssh-keygen -lf -), then set hostKey';
  if (/refused .*credentials/.test(detail)) return 'check the private key or password the config points to, and the server\'s authorized_keys';
  if (/variable .* is not set|file .* cannot be read|readable by others/.test(detail)) return 'set the variable or fix the secret file (mode 600) the config names';
  if (/NoSuchBucket/.test(detail)) return 'check bucket, endpoint, region and forcePathStyle';
  if (/AccessDenied|Forbidden|InvalidAccessKeyId|SignatureDoesNotMatch|no AWS credentials/.test(detail)) return 'check the access key the config points to (or the AWS profile/role) and its permissions on the bucket';
  if (error instanceof DeliveryError && error.retryable) return `check that ${d.kind === 'folder' ? 'the share is mounted' : 'the server is up and reachable from this host (host, port, firewall)'}`;
  if (d.kind === 'folder') return `mount the share or create ${d.path}, writable by this user`;
  return 'check the destination\'s settings in the delivery section of the config';
}
