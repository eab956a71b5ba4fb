import { mkdtempSync, readFileSync, rmSync, unlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DeleteObjectCommand } from '@aws-sdk/client-s3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deliveryDestinationSchema, type DeliveryDestination } from '../../../src/config/delivery-schema.js';
import { readReportToDeliver } from '../../../src/delivery/report-to-deliver.js';
import { deliverTo } from '../../support/delivery/deliver.js';
import { s3Get, sftpGet, sftpRemove } from '../../support/delivery/read-back.js';
import { boto3Unavailable } from '../../support/delivery/remote-listing.js';
import { sha256, writeReportFolder } from '../../support/delivery/report-folder.js';
import { startS3Server, type S3Server } from '../../support/delivery/s3-server.js';
import { opensslKey, opensslVerifies, signFolder, type OpensslKey } from '../../support/delivery/signed-folder.js';
import { sshdUnavailable, startSftpServer, type SftpServer } from '../../support/delivery/sftp-server.js';

/**
 * A signed report folder (docs/audit.md#signed-manifests; signed here by OpenSSL) delivered to a
 * real OpenSSH server, a real S3-compatible server process and a folder, then fetched back over
 * each one's own protocol by another client (OpenSSH's sftp, boto3): the signature arrived beside
 * the manifest, OpenSSL verifies it against the public key, and the pull's evidence arrived with
 * the sha256 the signed manifest gives it. A signature lost at the far end is sent again; a folder
 * whose manifest names a signature that is not there is refused before anything is sent.
 */

const unavailable = sshdUnavailable() ?? boto3Unavailable();
const work = mkdtempSync(join(tmpdir(), 'payexport-signed-delivery-'));
const NAMES = ['manifest.json', 'manifest.json.sig', 'evidence.jsonl'] as const;
const ENV = { PAYEXPORT_TEST_S3_KEY_ID: 'S3RVER', PAYEXPORT_TEST_S3_SECRET: 'S3RVER' };
let sftp: SftpServer;
let s3: S3Server;
let key: OpensslKey;
let folder: string;

beforeAll(async () => {
  if (unavailable !== null) return;
  sftp = await startSftpServer();
  s3 = await startS3Server();
  await s3.createBucket('books');
  key = opensslKey(work);
  folder = writeReportFolder(join(work, 'out'), {
    job: 'month-end',
    folder: '2026-10',
    closed: true,
    files: {
      'payments.csv': 'payment_id\r\np1\r\n',
      'evidence.jsonl': '{"t":"run","run_id":"r1"}\n{"t":"request","path":"/v1/payments","status":200,"sha256":"00"}\n{"t":"end","requests":1}\n',
    },
  });
  signFolder(folder, key);
}, 60_000);

afterAll(async () => {
  await sftp?.stop();
  await s3?.stop();
  rmSync(work, { recursive: true, force: true });
});

function destinations(): Record<'sftp' | 's3' | 'folder', DeliveryDestination> {
  return {
    sftp: deliveryDestinationSchema.parse({ kind: 'sftp', name: 'accountant', host: sftp.host, port: sftp.port, user: sftp.user, hostKey: sftp.fingerprint, privateKeyFile: sftp.keyFile, remoteDir: sftp.root }),
    s3: deliveryDestinationSchema.parse({ kind: 's3', name: 'archive', bucket: 'books', prefix: 'acme', endpoint: s3.endpoint, forcePathStyle: true, accessKeyIdEnv: 'PAYEXPORT_TEST_S3_KEY_ID', secretAccessKeyEnv: 'PAYEXPORT_TEST_S3_SECRET' }),
    folder: deliveryDestinationSchema.parse({ kind: 'folder', name: 'share', path: join(work, 'share') }),
  };
}

/** The three files as the destination holds them, fetched by a client that is not ours, into a fresh local folder. */
function readBack(kind: 'sftp' | 's3' | 'folder', label: string): string {
  const into = join(work, `back-${kind}-${label}`);
  if (kind === 'sftp') sftpGet({ host: sftp.host, port: sftp.port, user: sftp.user, keyFile: sftp.keyFile }, `${sftp.root}/month-end/2026-10`, NAMES, into);
  else if (kind === 's3') s3Get(s3.endpoint, 'books', 'acme/month-end/2026-10/', NAMES, into);
  else return join(work, 'share', 'month-end', '2026-10');
  return into;
}

function expectSignedAndWhole(dir: string): void {
  expect(readFileSync(join(dir, 'manifest.json')).equals(readFileSync(join(folder, 'manifest.json')))).toBe(true);
  expect(opensslVerifies(key.publicKey, join(dir, 'manifest.json'), join(dir, 'manifest.json.sig')), `openssl verifies ${dir}`).toBe(true);
  const manifest = JSON.parse(readFileSync(join(dir, 'manifest.json'), 'utf8')) as { files: Array<{ path: string; sha256: string }>; signature: { key_id: string } };
  expect(manifest.signature.key_id).toBe(key.keyId);
  expect(sha256(readFileSync(join(dir, 'evidence.jsonl')))).toBe(manifest.files.find((f) => f.path === 'evidence.jsonl')?.sha256);
}

describe.skipIf(unavailable !== null)(`a signed folder delivered${unavailable === null ? '' : ` — skipped: ${unavailable}`}`, () => {
  it.each(['sftp', 's3', 'folder'] as const)('%s: the signature and the evidence arrive beside the manifest, and OpenSSL verifies what is read back', async (kind) => {
    const record = await deliverTo(destinations()[kind], folder, { env: ENV });
    // payments.csv, evidence.jsonl, manifest.json.sig, manifest.json
    expect(record, record.detail).toMatchObject({ outcome: 'delivered', files_sent: 4 });
    expectSignedAndWhole(readBack(kind, 'first'));
    expect(await deliverTo(destinations()[kind], folder, { env: ENV })).toMatchObject({ outcome: 'unchanged', files_sent: 0 });
  });

  it.each(['sftp', 's3', 'folder'] as const)('%s: a signature lost at the far end is sent again (the folder is no longer whole)', async (kind) => {
    if (kind === 'sftp') sftpRemove({ host: sftp.host, port: sftp.port, user: sftp.user, keyFile: sftp.keyFile }, `${sftp.root}/month-end/2026-10/manifest.json.sig`);
    else if (kind === 'folder') unlinkSync(join(work, 'share', 'month-end', '2026-10', 'manifest.json.sig'));
    else {
      const client = s3.client();
      await client.send(new DeleteObjectCommand({ Bucket: 'books', Key: 'acme/month-end/2026-10/manifest.json.sig' })).finally(() => client.destroy());
    }
    const record = await deliverTo(destinations()[kind], folder, { env: ENV });
    expect(record.outcome, record.detail).toBe('delivered');
    expectSignedAndWhole(readBack(kind, 'healed'));
  });

  it('a manifest that names a signature which is not in the folder: refused before anything is sent', async () => {
    const unsigned = writeReportFolder(join(work, 'out-missing'), { folder: '2026-09', closed: true, files: { 'payments.csv': 'payment_id\r\n' } });
    signFolder(unsigned, key);
    unlinkSync(join(unsigned, 'manifest.json.sig'));
    await expect(readReportToDeliver(unsigned)).rejects.toThrow(/manifest\.json says key ed25519:[0-9a-f]{16} signed it, but manifest\.json\.sig is missing: check the folder with payexport verify /);
  });
});
