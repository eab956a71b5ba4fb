/**
 * What earlier attempts left in a report folder's place in the bucket, removed before its manifest
 * is written: incomplete multipart uploads of the folder's keys (a delivery killed mid-upload leaves
 * its parts stored, and billed, until someone aborts them), and objects a manifest of an earlier
 * delivery of the same folder listed but this one does not (the folder must hold exactly its files,
 * as on SFTP, where the folder is replaced whole). Everything under `<prefix>/<job>/<folder>/` is
 * the delivery's own: no other writer has a reason to put anything there.
 *
 * A key that may not list or abort uploads (s3:ListBucketMultipartUploads, s3:AbortMultipartUpload)
 * costs a warning in the delivery's record, not the delivery: the folder did arrive. The lifecycle
 * rule in docs/delivery.md (AbortIncompleteMultipartUpload) is the safety net for such buckets.
 */
import { AbortMultipartUploadCommand, DeleteObjectCommand, ListMultipartUploadsCommand, ListObjectsV2Command, type S3Client } from '@aws-sdk/client-s3';

export interface FolderPlace {
  bucket: string;
  /** `<prefix>/<job>/<folder>/`, with its trailing slash (`2026-10/` is not `2026-10.amended-1/`) */
  prefix: string;
}

/** A store that does not implement the listing (s3rver answers 501 NotImplemented): nothing to abort that it could name. */
const unlisted = (error: unknown): boolean => {
  const e = error as { name?: string; $metadata?: { httpStatusCode?: number } };
  return e.name === 'NotImplemented' || e.$metadata?.httpStatusCode === 501;
};

const denied = (error: unknown): boolean => {
  const e = error as { name?: string; $metadata?: { httpStatusCode?: number } };
  return e.name === 'AccessDenied' || e.$metadata?.httpStatusCode === 403;
};

/** Aborts every incomplete multipart upload under the folder; answers the warnings. */
export async function abortLeftoverUploads(client: S3Client, place: FolderPlace): Promise<string[]> {
  let keyMarker: string | undefined;
  let uploadIdMarker: string | undefined;
  for (;;) {
    let page;
    try {
      page = await client.send(new ListMultipartUploadsCommand({ Bucket: place.bucket, Prefix: place.prefix, KeyMarker: keyMarker, UploadIdMarker: uploadIdMarker }));
    } catch (error) {
      if (unlisted(error)) return [`s3://${place.bucket} does not list incomplete multipart uploads (NotImplemented): a killed delivery's parts stay until the store's own expiry`];
      if (denied(error)) return [`could not list incomplete multipart uploads under s3://${place.bucket}/${place.prefix} (AccessDenied: allow s3:ListBucketMultipartUploads and s3:AbortMultipartUpload, or set the bucket's AbortIncompleteMultipartUpload lifecycle rule)`];
      throw error;
    }
    for (const upload of page.Uploads ?? []) {
      try {
        await client.send(new AbortMultipartUploadCommand({ Bucket: place.bucket, Key: upload.Key, UploadId: upload.UploadId }));
      } catch (error) {
        const e = error as { name?: string };
        if (e.name === 'NoSuchUpload') continue;
        if (denied(error)) return [`could not abort the incomplete multipart upload of s3://${place.bucket}/${upload.Key ?? ''} (AccessDenied: allow s3:AbortMultipartUpload)`];
        throw error;
      }
    }
    if (page.IsTruncated !== true) return [];
    keyMarker = page.NextKeyMarker;
    uploadIdMarker = page.NextUploadIdMarker;
  }
}

/** Deletes the objects under the folder that `keep` does not name. */
export async function deleteStrangers(client: S3Client, place: FolderPlace, keep: ReadonlySet<string>): Promise<void> {
  let token: string | undefined;
  do {
    const page = await client.send(new ListObjectsV2Command({ Bucket: place.bucket, Prefix: place.prefix, ContinuationToken: token }));
    for (const object of page.Contents ?? []) {
      if (object.Key !== undefined && !keep.has(object.Key)) await client.send(new DeleteObjectCommand({ Bucket: place.bucket, Key: object.Key }));
    }
    token = page.IsTruncated === true ? page.NextContinuationToken : undefined;
  } while (token !== undefined);
}
