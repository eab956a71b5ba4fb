import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../../src/config/load.js';
import { recordDeliveries } from '../../../src/delivery/record-deliveries.js';
import { deliveryDestinationsCheck } from '../../../src/setup/doctor/checks/delivery-destinations.js';
import { createMemoryLogger } from '../../../src/util/log.js';
import { SecretScrubber } from '../../../src/util/secret-scrubber.js';
import { deliveryDestinationSchema } from '../../../src/config/delivery-schema.js';
import { deliverTo } from '../../support/delivery/deliver.js';
import { writeReportFolder } from '../../support/delivery/report-folder.js';
import { availableS3Kinds, startS3Server, type S3Server } from '../../support/delivery/s3-server.js';
import { sshdUnavailable, startSftpServer, type SftpServer } from '../../support/delivery/sftp-server.js';

/**
 * `payexport doctor`'s delivery line: each destination probed without sending a report (a real
 * OpenSSH server with the right and a wrong pinned host key, a share), and a report folder whose
 * latest delivery failed named with the `payexport deliver` command that retries it.
 */

const unavailable = sshdUnavailable();
let server: SftpServer;
beforeAll(async () => {
  if (unavailable === null) server = await startSftpServer();
}, 30_000);
afterAll(async () => {
  await server?.stop();
});

describe.skipIf(unavailable !== null)('doctor: delivery destinations', () => {
  it('✓ for a reachable destination, ✗ with the fix for a wrong host key and for a delivery left failed', async () => {
    const cwd = mkdtempSync(join(tmpdir(), 'payexport-doctor-delivery-'));
    const other = 'SHA256:' + 'A'.repeat(43);
    writeFileSync(
      join(cwd, 'payexport.json'),
      JSON.stringify({
        delivery: {
          destinations: [
            { kind: 'sftp', name: 'accountant', host: server.host, port: server.port, user: server.user, hostKey: server.fingerprint, privateKeyFile: server.keyFile, remoteDir: server.root },
            { kind: 'sftp', name: 'impostor', host: server.host, port: server.port, user: server.user, hostKey: other, privateKeyFile: server.keyFile },
            { kind: 'folder', name: 'share', path: 'share' },
          ],
        },
      }),
    );
    mkdirSync(join(cwd, 'reports'));
    const loaded = loadConfig({ flags: { config: 'payexport.json', db: false }, env: {}, cwd });
    await recordDeliveries(loaded, cwd, 'run-1', [{ destination: 'accountant', kind: 'sftp', report: 'month-end/2026-10', remote: 'sftp://x', outcome: 'failed', files_sent: 0, bytes_sent: 0, attempts: 3, detail: 'connection cut', duration_ms: 1 }], createMemoryLogger().log);
    const lines = await deliveryDestinationsCheck.run({ loaded, env: {}, cwd, scrubber: new SecretScrubber(), now: () => new Date() });
    const byTitle = new Map(lines.map((l) => [l.title, l]));
    expect(byTitle.get('deliver accountant (sftp)')).toMatchObject({ status: 'pass', detail: expect.stringContaining('host key matches, login ok') });
    expect(byTitle.get('deliver share (folder)')).toMatchObject({ status: 'pass' });
    const impostor = byTitle.get('deliver impostor (sftp)');
    expect(impostor).toMatchObject({ status: 'fail', detail: expect.stringContaining(`the server shows ${server.fingerprint}, the config pins ${other}`) });
    expect(impostor?.status === 'fail' ? impostor.fix : '').toMatch(/ssh-keyscan/);
    const left = byTitle.get('delivery of month-end/2026-10 to accountant');
    expect(left).toMatchObject({ status: 'fail', detail: 'connection cut' });
    expect(left?.status === 'fail' ? left.fix : '').toBe(`payexport deliver ${join(cwd, 'reports', 'month-end', '2026-10')} --to accountant`);
  }, 60_000);
});

/**
 * doctor's S3 line names the service's own error (issue 40): a missing bucket is NoSuchBucket, a
 * key the store does not know is InvalidAccessKeyId — the probe lists (a list's error has a body
 * that names it; a HEAD's 403 has none) — and no line ends in the SDK's `UnknownError`. moto checks
 * credentials here as AWS does (INITIAL_NO_AUTH_ACTION_COUNT=0), so any key is unknown to it.
 */
const noMoto = availableS3Kinds().includes('moto') ? null : 'moto_server is not installed (pip install "moto[server]"; .ci/run tries)';

describe.skipIf(noMoto !== null)('doctor: S3 destinations', () => {
  let open: S3Server;
  let strict: S3Server;
  beforeAll(async () => {
    open = await startS3Server('moto');
    await open.createBucket('books');
    strict = await startS3Server('moto', { enforceAuth: true });
  }, 60_000);
  afterAll(async () => {
    await open?.stop();
    await strict?.stop();
  });

  it('names NoSuchBucket and InvalidAccessKeyId in one line each, with the fix, and no UnknownError', async () => {
    const cwd = mkdtempSync(join(tmpdir(), 'payexport-doctor-s3-'));
    const s3 = (name: string, endpoint: string, bucket: string): Record<string, unknown> => ({ kind: 's3', name, bucket, prefix: 'acme', endpoint, forcePathStyle: true, accessKeyIdEnv: 'PAYEXPORT_TEST_S3_KEY_ID', secretAccessKeyEnv: 'PAYEXPORT_TEST_S3_SECRET' });
    writeFileSync(join(cwd, 'payexport.json'), JSON.stringify({ delivery: { destinations: [s3('archive', open.endpoint, 'books'), s3('missing', open.endpoint, 'no-such-books'), s3('wrong-key', strict.endpoint, 'books')] } }));
    const env = { PAYEXPORT_TEST_S3_KEY_ID: 'AKIAPLANTEDUNKNOWN', PAYEXPORT_TEST_S3_SECRET: 'wrong-PLANTED-secret-0042' };
    const loaded = loadConfig({ flags: { config: 'payexport.json', db: false }, env, cwd });
    const lines = await deliveryDestinationsCheck.run({ loaded, env, cwd, scrubber: new SecretScrubber(), now: () => new Date() });
    const byTitle = new Map(lines.map((l) => [l.title, l]));
    expect(byTitle.get('deliver archive (s3)')).toMatchObject({ status: 'pass', detail: expect.stringContaining('bucket reachable, writable') });
    const missing = byTitle.get('deliver missing (s3)');
    expect(missing).toMatchObject({ status: 'fail', detail: expect.stringContaining('look for the bucket: NoSuchBucket (HTTP 404)') });
    expect(missing?.status === 'fail' ? missing.fix : '').toMatch(/bucket/);
    const wrongKey = byTitle.get('deliver wrong-key (s3)');
    expect(wrongKey).toMatchObject({ status: 'fail', detail: expect.stringContaining('look for the bucket: InvalidAccessKeyId (HTTP 403)') });
    expect(wrongKey?.status === 'fail' ? wrongKey.fix : '').toMatch(/access key/);
    for (const line of lines) {
      const words = JSON.stringify(line);
      expect(words).not.toMatch(/Unknown/);
      expect(words).not.toContain(env.PAYEXPORT_TEST_S3_SECRET);
    }
    // deliver says the same
    const dir = writeReportFolder(join(cwd, 'reports'), { job: 'nightly', folder: '2026-11-20', files: { 'payments.csv': 'a\r\n' } });
    const record = await deliverTo(deliveryDestinationSchema.parse(s3('wrong-key', strict.endpoint, 'books')), dir, { env, attempts: 3 });
    expect(record).toMatchObject({ outcome: 'failed', attempts: 1, detail: expect.stringMatching(/InvalidAccessKeyId \(HTTP 403\)/) });
    expect(record.detail).not.toMatch(/Unknown/);
  }, 60_000);
});
