/**
 * One report folder into an S3-compatible bucket, whole or not at all as a reader sees it: S3 has
 * no rename, so the data files go first and `manifest.json` last — a reader that waits for the
 * manifest gets a whole folder. Before replacing a folder with other contents, its old manifest is
 * deleted first, so no reader ever sees an old manifest beside new files.
 *
 * Each object carries its sha256 as metadata (`x-amz-meta-sha256`) and is read back in full after
 * upload and hashed against the manifest. A re-run finds the same manifest and every object's
 * sha256 and size in place (HEAD) and sends nothing; a resumed one sends only what is missing.
 * Large workbooks go up as multipart uploads (@aws-sdk/lib-storage).
 */
import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { DeleteObjectCommand, GetObjectCommand, HeadObjectCommand, PutObjectCommand, S3Client, type PutObjectCommandInput } from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import type { S3Destination } from '../config/delivery-schema.js';
import { DeliveryError } from '../notify/delivery-error.js';
import { closedPeriod } from './closed-manifest.js';
import type { FileToDeliver, ReportToDeliver } from './report-to-deliver.js';
import { s3Failure } from './s3-failure.js';
import { objectKey, s3Label } from './s3-names.js';
import { noTransfer, type TransferStats } from './transfer-stats.js';

export interface S3Credentials {
  accessKeyId: string;
  secretAccessKey: string;
}

const PART_SIZE = 8 * 1024 * 1024;

export function s3Client(d: S3Destination, credentials: S3Credentials | undefined, timeoutMs: number): S3Client {
  // the SDK warns on stderr about Node versions it will drop; stderr is the one-line error channel (contracts.md)
  process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';
  return new S3Client({
    region: d.region,
    ...(d.endpoint ? { endpoint: d.endpoint } : {}),
    forcePathStyle: d.forcePathStyle,
    ...(credentials ? { credentials } : {}),
    // one attempt per call: the delivery's retry loop decides (style.md rule 4)
    maxAttempts: 1,
    // the SDK's default CRC32 trailers are refused by several S3-compatible stores; our check is sha256 read back
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
    requestHandler: { requestTimeout: timeoutMs, connectionTimeout: Math.min(timeoutMs, 10_000) },
  });
}

export async function deliverToS3(client: S3Client, d: S3Destination, report: ReportToDeliver): Promise<TransferStats> {
  const label = s3Label(d);
  const stats = noTransfer();
  const key = (path: string): string => objectKey(d, report.job, report.folder, path);
  const call = async <T>(doing: string, op: () => Promise<T>): Promise<T> => {
    try {
      return await op();
    } catch (error) {
      throw s3Failure(error, label, doing);
    }
  };
  const manifestKey = key('manifest.json');
  const delivered = await call(`read ${manifestKey}`, () => getBytes(client, d.bucket, manifestKey));
  const heads = new Map<string, { sha256: string | undefined; size: number | undefined } | null>();
  for (const file of report.files) heads.set(file.path, await call(`look for ${key(file.path)}`, () => head(client, d.bucket, key(file.path))));
  const inPlace = (file: FileToDeliver): boolean => {
    const h = heads.get(file.path);
    return h !== null && h !== undefined && h.sha256 === file.sha256 && h.size === file.bytes;
  };
  if (delivered !== null && delivered.equals(report.manifestBytes) && report.files.every(inPlace)) {
    stats.unchanged = true;
    return stats;
  }
  if (delivered !== null && !delivered.equals(report.manifestBytes)) {
    if (closedPeriod(delivered)) {
      throw new DeliveryError(`${label}: ${report.job}/${report.folder} is a closed period already delivered with other contents; it is not overwritten (an amendment is delivered as its own .amended-N folder)`, false);
    }
    // the old manifest goes first: a reader waiting for it must not see it beside new files
    await call(`delete ${manifestKey}`, () => client.send(new DeleteObjectCommand({ Bucket: d.bucket, Key: manifestKey })));
  }
  for (const file of report.files) {
    // a resumed delivery keeps an object an earlier attempt put there, once it reads back right
    if (inPlace(file) && (await call(`read back ${key(file.path)}`, () => hashObject(client, d.bucket, key(file.path)))) === file.sha256) continue;
    await call(`upload ${key(file.path)}`, () => upload(client, d, key(file.path), file));
    stats.filesSent++;
    stats.bytesSent += file.bytes;
    await check(client, d, key(file.path), file, call);
  }
  await call(`upload ${manifestKey}`, () => client.send(new PutObjectCommand({ ...putParams(d, manifestKey, report.manifest), Body: report.manifestBytes, ContentType: 'application/json' })));
  stats.filesSent++;
  stats.bytesSent += report.manifest.bytes;
  await check(client, d, manifestKey, report.manifest, call);
  return stats;
}

async function check(client: S3Client, d: S3Destination, key: string, file: FileToDeliver, call: <T>(doing: string, op: () => Promise<T>) => Promise<T>): Promise<void> {
  const got = await call(`read back ${key}`, () => hashObject(client, d.bucket, key));
  if (got !== file.sha256) {
    // an object that does not match must not pass for a resumed one on the next attempt
    await call(`delete ${key}`, () => client.send(new DeleteObjectCommand({ Bucket: d.bucket, Key: key })));
    throw new DeliveryError(`s3://${d.bucket}/${key} arrived with sha256 ${got ?? '(missing)'}, the manifest says ${file.sha256}`, true);
  }
}

function putParams(d: S3Destination, key: string, file: FileToDeliver): PutObjectCommandInput {
  return {
    Bucket: d.bucket,
    Key: key,
    Metadata: { sha256: file.sha256 },
    ...(d.serverSideEncryption ? { ServerSideEncryption: d.serverSideEncryption } : {}),
    ...(d.kmsKeyId ? { SSEKMSKeyId: d.kmsKeyId } : {}),
  };
}

async function upload(client: S3Client, d: S3Destination, key: string, file: FileToDeliver): Promise<void> {
  const contentType = file.path.endsWith('.csv') ? 'text/csv' : file.path.endsWith('.xlsx') ? 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet' : 'application/octet-stream';
  if (file.bytes < PART_SIZE) {
    await client.send(new PutObjectCommand({ ...putParams(d, key, file), Body: createReadStream(file.local), ContentLength: file.bytes, ContentType: contentType }));
    return;
  }
  await new Upload({ client, params: { ...putParams(d, key, file), Body: createReadStream(file.local), ContentType: contentType }, partSize: PART_SIZE, queueSize: 2, leavePartsOnError: false }).done();
}

async function head(client: S3Client, bucket: string, key: string): Promise<{ sha256: string | undefined; size: number | undefined } | null> {
  try {
    const h = await client.send(new HeadObjectCommand({ Bucket: bucket, Key: key }));
    return { sha256: h.Metadata?.sha256, size: h.ContentLength };
  } catch (error) {
    if (isMissing(error)) return null;
    throw error;
  }
}

async function getBytes(client: S3Client, bucket: string, key: string): Promise<Buffer | null> {
  try {
    const got = await client.send(new GetObjectCommand({ Bucket: bucket, Key: key }));
    return Buffer.from(await got.Body!.transformToByteArray());
  } catch (error) {
    if (isMissing(error)) return null;
    throw error;
  }
}

async function hashObject(client: S3Client, bucket: string, key: string): Promise<string | null> {
  try {
    const got = await client.send(new GetObjectCommand({ Bucket: bucket, Key: key }));
    const hash = createHash('sha256');
    await pipeline(got.Body as Readable, hash);
    return hash.digest('hex');
  } catch (error) {
    if (isMissing(error)) return null;
    throw error;
  }
}

function isMissing(error: unknown): boolean {
  const e = error as { name?: string; $metadata?: { httpStatusCode?: number } };
  return e.name === 'NoSuchKey' || e.name === 'NotFound' || e.$metadata?.httpStatusCode === 404 && e.name !== 'NoSuchBucket';
}
