/**
 * One file into an S3 object, streamed from disk: a single PUT below PART_SIZE, above it a
 * multipart upload whose parts are each a read stream over their own byte range — nothing is
 * buffered, so memory stays flat whatever the file's size (@aws-sdk/lib-storage holds every part in
 * flight in memory). The object carries its sha256 as metadata. A multipart upload that fails is
 * aborted at once; one that a kill cut short is aborted by the next delivery (s3-leftovers.ts).
 */
import { createReadStream } from 'node:fs';
import { AbortMultipartUploadCommand, CompleteMultipartUploadCommand, CreateMultipartUploadCommand, PutObjectCommand, UploadPartCommand, type CompletedPart, type PutObjectCommandInput, type S3Client } from '@aws-sdk/client-s3';
import type { S3Destination } from '../config/delivery-schema.js';
import { FAULTS_ARMED, faultPoint } from '../util/fault-points.js';
import { inTurns } from './in-turns.js';
import type { FileToDeliver } from './report-to-deliver.js';

export const PART_SIZE = 8 * 1024 * 1024;
/** Parts of one file sent at once (bench/delivery). */
export const PARTS_IN_FLIGHT = 4;

export function putParams(d: S3Destination, key: string, file: FileToDeliver): PutObjectCommandInput {
  return {
    Bucket: d.bucket,
    Key: key,
    Metadata: { sha256: file.sha256 },
    ...(d.serverSideEncryption ? { ServerSideEncryption: d.serverSideEncryption } : {}),
    ...(d.kmsKeyId ? { SSEKMSKeyId: d.kmsKeyId } : {}),
  };
}

function contentType(path: string): string {
  if (path.endsWith('.json')) return 'application/json';
  if (path.endsWith('.csv')) return 'text/csv';
  if (path.endsWith('.xlsx')) return 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';
  if (path.endsWith('.html')) return 'text/html';
  return 'application/octet-stream';
}

export async function uploadFile(client: S3Client, d: S3Destination, key: string, file: FileToDeliver): Promise<void> {
  const params = { ...putParams(d, key, file), ContentType: contentType(file.path) };
  if (file.bytes < PART_SIZE) {
    await client.send(new PutObjectCommand({ ...params, Body: createReadStream(file.local), ContentLength: file.bytes }));
    return;
  }
  const { UploadId } = await client.send(new CreateMultipartUploadCommand(params));
  try {
    const count = Math.ceil(file.bytes / PART_SIZE);
    const parts: CompletedPart[] = new Array<CompletedPart>(count);
    await inTurns(
      Array.from({ length: count }, (_, i) => i),
      PARTS_IN_FLIGHT,
      async (i) => {
        const start = i * PART_SIZE;
        const end = Math.min(file.bytes, start + PART_SIZE);
        const sent = await client.send(new UploadPartCommand({ Bucket: d.bucket, Key: key, UploadId, PartNumber: i + 1, Body: createReadStream(file.local, { start, end: end - 1 }), ContentLength: end - start }));
        parts[i] = { PartNumber: i + 1, ETag: sent.ETag };
        if (FAULTS_ARMED) faultPoint('deliver:part', { to: 's3', parts: parts.filter(Boolean).length });
      },
    );
    await client.send(new CompleteMultipartUploadCommand({ Bucket: d.bucket, Key: key, UploadId, MultipartUpload: { Parts: parts } }));
  } catch (error) {
    await client.send(new AbortMultipartUploadCommand({ Bucket: d.bucket, Key: key, UploadId })).catch(() => undefined);
    throw error;
  }
}
