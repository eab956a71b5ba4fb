/**
 * One report folder into an S3-compatible bucket, whole or not at all as a reader sees it: S3 has
 * no rename, so the data files go first and `manifest.json` last — a reader that waits for the
 * manifest gets a whole folder. Before replacing a folder with other contents, its old manifest is
 * deleted first, so no reader ever sees an old manifest beside new files.
 *
 * The rule is the one every destination follows (docs/delivery.md): the bucket receives exactly
 * the files whose sha256 differs from what it holds. What an object holds is the sha256 it carries
 * as metadata, written in the same PUT as its bytes and checked then by reading the object back in
 * full: an S3 object never changes in place — new bytes are a new object, whose metadata is
 * whatever its writer gave, and an object without our sha256 is sent again. So a HEAD per file
 * (sha256 and size) tells what the bucket holds; only what was just uploaded is read back.
 * Before the manifest goes up, what earlier attempts left under the folder is removed
 * (s3-leftovers.ts).
 */
import { DeleteObjectCommand, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import type { S3Destination } from '../config/delivery-schema.js';
import { DeliveryError } from '../util/delivery-error.js';
import { FAULTS_ARMED, faultPoint } from '../util/fault-points.js';
import { closedPeriod } from './closed-manifest.js';
import { inTurns } from './in-turns.js';
import type { FileToDeliver, ReportToDeliver } from './report-to-deliver.js';
import { s3Failure } from './s3-failure.js';
import { abortLeftoverUploads, deleteStrangers, type FolderPlace } from './s3-leftovers.js';
import { objectKey, s3Label } from './s3-names.js';
import { hashObject, headObject, objectBytes, type ObjectHead } from './s3-objects.js';
import { putParams, uploadFile } from './s3-upload.js';
import { noTransfer, type TransferStats } from './transfer-stats.js';

export interface S3Credentials {
  accessKeyId: string;
  secretAccessKey: string;
}

/** Files sent (or HEADed) at once, each with its own parts in flight (bench/delivery). */
export const S3_FILES_IN_FLIGHT = 4;

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

type Call = <T>(doing: string, op: () => Promise<T>) => Promise<T>;

export async function deliverToS3(client: S3Client, d: S3Destination, report: ReportToDeliver): Promise<TransferStats> {
  const label = s3Label(d);
  const stats = noTransfer();
  const key = (path: string): string => objectKey(d, report.job, report.folder, path);
  const place: FolderPlace = { bucket: d.bucket, prefix: `${objectKey(d, report.job, report.folder)}/` };
  const call: Call = async (doing, op) => {
    try {
      return await op();
    } catch (error) {
      throw s3Failure(error, label, doing);
    }
  };
  const manifestKey = key('manifest.json');
  const delivered = await call(`read ${manifestKey}`, () => objectBytes(client, d.bucket, manifestKey));
  const heads = new Map<string, ObjectHead | null>();
  await inTurns(report.files, S3_FILES_IN_FLIGHT * 2, async (file) => {
    heads.set(file.path, await call(`look for ${key(file.path)}`, () => headObject(client, d.bucket, key(file.path))));
  });
  const held = (file: FileToDeliver): boolean => {
    const h = heads.get(file.path);
    return h !== null && h !== undefined && h.sha256 === file.sha256 && h.size === file.bytes;
  };
  const sameManifest = delivered !== null && delivered.equals(report.manifestBytes);
  if (sameManifest && report.files.every(held)) {
    stats.unchanged = true;
    stats.warnings.push(...(await call(`tidy ${place.prefix}`, () => abortLeftoverUploads(client, place))));
    return stats;
  }
  if (delivered !== null && !sameManifest) {
    if (closedPeriod(delivered)) {
      throw new DeliveryError(`${label}: ${report.job}/${report.folder} is a closed period already delivered with other contents; it is not overwritten (an amendment is delivered as its own .amended-N folder)`, false);
    }
    // the old manifest goes first: a reader waiting for it must not see it beside new files
    await call(`delete ${manifestKey}`, () => client.send(new DeleteObjectCommand({ Bucket: d.bucket, Key: manifestKey })));
  }
  await inTurns(
    report.files.filter((file) => !held(file)),
    S3_FILES_IN_FLIGHT,
    async (file) => {
      await call(`upload ${key(file.path)}`, () => uploadFile(client, d, key(file.path), file));
      stats.filesSent++;
      stats.bytesSent += file.bytes;
      await check(client, d, key(file.path), file, call);
      if (FAULTS_ARMED) faultPoint('deliver:uploaded', { to: 's3', files: stats.filesSent });
    },
  );
  // before the manifest publishes the folder: nothing of an earlier attempt stays under it
  stats.warnings.push(...(await call(`tidy ${place.prefix}`, () => abortLeftoverUploads(client, place))));
  if (!sameManifest) await call(`tidy ${place.prefix}`, () => deleteStrangers(client, place, new Set([...report.files.map((f) => key(f.path)), manifestKey])));
  await call(`upload ${manifestKey}`, () => client.send(new PutObjectCommand({ ...putParams(d, manifestKey, report.manifest), Body: report.manifestBytes, ContentType: 'application/json' })));
  stats.filesSent++;
  stats.bytesSent += report.manifest.bytes;
  await check(client, d, manifestKey, report.manifest, call);
  return stats;
}

/** The object read back in full and hashed; one that does not match is deleted (it must not pass for held next time). */
async function check(client: S3Client, d: S3Destination, key: string, file: FileToDeliver, call: Call): Promise<void> {
  const got = await call(`read back ${key}`, () => hashObject(client, d.bucket, key));
  if (got !== file.sha256) {
    await call(`delete ${key}`, () => client.send(new DeleteObjectCommand({ Bucket: d.bucket, Key: key })));
    throw new DeliveryError(`s3://${d.bucket}/${key} arrived with sha256 ${got ?? '(missing)'}, the manifest says ${file.sha256}`, true);
  }
}
