/**
 * What an S3 bucket holds under a key, read with the fewest bytes that tell it: a HEAD for the
 * sha256 an object carries as metadata (`x-amz-meta-sha256`, written in the same PUT as its bytes)
 * and its size; a GET hashed as it streams for a full read-back; a GET into memory for a manifest.
 * A missing key is null, never an error.
 */
import { createHash } from 'node:crypto';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { GetObjectCommand, HeadObjectCommand, type S3Client } from '@aws-sdk/client-s3';

export interface ObjectHead {
  sha256: string | undefined;
  size: number | undefined;
}

export async function headObject(client: S3Client, bucket: string, key: string): Promise<ObjectHead | null> {
  try {
    const h = await client.send(new HeadObjectCommand({ Bucket: bucket, Key: key }));
    return { sha256: h.Metadata?.sha256, size: h.ContentLength };
  } catch (error) {
    if (isMissing(error)) return null;
    throw error;
  }
}

export async function objectBytes(client: S3Client, bucket: string, key: string): Promise<Buffer | null> {
  try {
    const got = await client.send(new GetObjectCommand({ Bucket: bucket, Key: key }));
    return Buffer.from(await got.Body!.transformToByteArray());
  } catch (error) {
    if (isMissing(error)) return null;
    throw error;
  }
}

/** sha256 of an object's bytes, read back in full as they stream (memory stays flat). */
export async function hashObject(client: S3Client, bucket: string, key: string): Promise<string | null> {
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
  return e.name === 'NoSuchKey' || e.name === 'NotFound' || (e.$metadata?.httpStatusCode === 404 && e.name !== 'NoSuchBucket');
}
