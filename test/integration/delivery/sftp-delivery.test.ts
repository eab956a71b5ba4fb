import { readFileSync, readdirSync, existsSync, chmodSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deliveryDestinationSchema, type SftpDestination } from '../../../src/config/delivery-schema.js';
import { sshFingerprint } from '../../../src/delivery/host-key.js';
import { probeDestination } from '../../../src/delivery/probe-destination.js';
import { deliverTo } from '../../support/delivery/deliver.js';
import { noise, sha256, writeReportFolder } from '../../support/delivery/report-folder.js';
import { mountTinyDisk, sshdUnavailable, startSftpServer, type SftpServer } from '../../support/delivery/sftp-server.js';

/**
 * Delivery to a real OpenSSH server (Debian's sshd and sftp-server on a loopback port, its own
 * host key and sshd_config): files land whole under `<remoteDir>/<job>/<folder>/`, byte for byte;
 * a changed host key, a refused key and a full disk each fail with words naming the cause; a
 * connection cut mid-upload leaves no visible folder, and the next delivery resumes it.
 */

const unavailable = sshdUnavailable();
let server: SftpServer;
const out = mkdtempSync(join(tmpdir(), 'payexport-deliver-src-'));

beforeAll(async () => {
  if (unavailable === null) server = await startSftpServer({ passwordUser: true });
}, 30_000);
afterAll(async () => {
  await server?.stop();
});

function destination(over: Partial<Record<string, unknown>> = {}): SftpDestination {
  return deliveryDestinationSchema.parse({ kind: 'sftp', name: 'accountant', host: server.host, port: server.port, user: server.user, hostKey: server.fingerprint, privateKeyFile: server.keyFile, remoteDir: server.root, ...over }) as SftpDestination;
}

function remoteFiles(dir: string): string[] {
  return existsSync(dir) ? readdirSync(dir).sort() : [];
}

describe.skipIf(unavailable !== null)('SFTP delivery to OpenSSH', () => {
  it('computes the host key fingerprint the way ssh-keygen -lf prints it', () => {
    const pub = readFileSync(`${server.keyFile}.pub`, 'utf8').split(' ')[1]!;
    expect(sshFingerprint(Buffer.from(pub, 'base64'))).toMatch(/^SHA256:[A-Za-z0-9+/]{43}$/);
    // the server's own host key, read by ssh-keygen in the helper, is what the delivery accepts below
    expect(server.fingerprint).toMatch(/^SHA256:/);
  });

  it('delivers every file byte for byte, manifest included, and a re-run sends nothing', async () => {
    const dir = writeReportFolder(out, { job: 'nightly', folder: '2026-11-21', files: { 'payments.csv': 'payment_id\r\np1\r\n', 'report.xlsx': noise(200_000), 'journal/entries.beancount': '2026-11-21 * "x"\n' } });
    const first = await deliverTo(destination(), dir);
    expect(first).toMatchObject({ outcome: 'delivered', files_sent: 4, attempts: 1 });
    const remote = join(server.root, 'nightly', '2026-11-21');
    for (const name of ['payments.csv', 'report.xlsx', 'manifest.json', 'journal/entries.beancount']) {
      expect(sha256(readFileSync(join(remote, name)))).toBe(sha256(readFileSync(join(dir, name))));
    }
    // no partial folder left beside the published one
    expect(remoteFiles(join(server.root, 'nightly'))).toEqual(['2026-11-21']);
    const again = await deliverTo(destination(), dir);
    expect(again).toMatchObject({ outcome: 'unchanged', files_sent: 0, bytes_sent: 0 });
  });

  it('delivers an amended period as its own folder and never replaces a closed one', async () => {
    const closed = writeReportFolder(join(out, 'a'), { folder: '2026-09', closed: true, files: { 'payments.csv': 'v1\r\n' } });
    expect((await deliverTo(destination(), closed)).outcome).toBe('delivered');
    const amended = writeReportFolder(join(out, 'a'), { folder: '2026-09.amended-1', closed: true, files: { 'payments.csv': 'v2\r\n' } });
    expect((await deliverTo(destination(), amended)).outcome).toBe('delivered');
    expect(readFileSync(join(server.root, 'month-end', '2026-09', 'payments.csv'), 'utf8')).toBe('v1\r\n');
    expect(readFileSync(join(server.root, 'month-end', '2026-09.amended-1', 'payments.csv'), 'utf8')).toBe('v2\r\n');
    // some other writer's version of the closed folder: refused, not overwritten
    const impostor = writeReportFolder(join(out, 'b'), { folder: '2026-09', closed: true, files: { 'payments.csv': 'other\r\n' } });
    const refused = await deliverTo(destination(), impostor);
    expect(refused.outcome).toBe('failed');
    expect(refused.detail).toMatch(/closed period already delivered with other contents/);
    expect(readFileSync(join(server.root, 'month-end', '2026-09', 'payments.csv'), 'utf8')).toBe('v1\r\n');
  });

  it('refuses a changed host key before offering a credential, naming both fingerprints', async () => {
    const dir = writeReportFolder(join(out, 'hk'), { job: 'export', folder: '2026-10-01_2026-10-31', files: { 'payments.csv': 'x\r\n' } });
    const pinned = server.fingerprint;
    const shown = await server.changeHostKey();
    try {
      const record = await deliverTo(destination({ hostKey: pinned }), dir, { attempts: 3 });
      expect(record.outcome).toBe('failed');
      expect(record.attempts).toBe(1); // never retried: the same key would be refused again
      expect(record.detail).toContain(shown);
      expect(record.detail).toContain(pinned);
      expect(remoteFiles(join(server.root, 'export'))).toEqual([]);
      const probe = await probeDestination(destination({ hostKey: pinned }), { env: {}, cwd: process.cwd() });
      expect(probe).toMatchObject({ ok: false });
      expect(probe.ok ? '' : probe.fix).toMatch(/ssh-keyscan/);
    } finally {
      server.fingerprint = shown;
    }
  });

  it('fails on a key the server does not accept, without retrying and without the key in the words', async () => {
    chmodSync(server.wrongKeyFile, 0o600);
    const dir = writeReportFolder(join(out, 'wk'), { job: 'export', folder: '2026-10-01_2026-10-31', files: { 'payments.csv': 'x\r\n' } });
    const record = await deliverTo(destination({ privateKeyFile: server.wrongKeyFile }), dir, { attempts: 3 });
    expect(record).toMatchObject({ outcome: 'failed', attempts: 1 });
    expect(record.detail).toMatch(/refused .*credentials/);
    const key = readFileSync(server.wrongKeyFile, 'utf8');
    for (const line of key.split('\n').filter((l) => l.length > 20 && !l.startsWith('-----'))) expect(record.detail).not.toContain(line);
    expect(await probeDestination(destination(), { env: {}, cwd: process.cwd() })).toMatchObject({ ok: true });
  });

  it('reads the key from a variable by reference; an unset variable fails that destination with its name', async () => {
    const dir = writeReportFolder(join(out, 'env'), { job: 'nightly', folder: '2026-11-22', files: { 'payments.csv': 'y\r\n' } });
    const d = destination({ privateKeyFile: undefined, privateKeyEnv: 'PAYEXPORT_TEST_SFTP_KEY' });
    expect(await deliverTo(d, dir, { env: {} })).toMatchObject({ outcome: 'failed', attempts: 0, detail: expect.stringContaining('PAYEXPORT_TEST_SFTP_KEY is not set') });
    expect(await deliverTo(d, dir, { env: { PAYEXPORT_TEST_SFTP_KEY: readFileSync(server.keyFile, 'utf8') } })).toMatchObject({ outcome: 'delivered' });
  });

  it('logs in with a password by reference; a wrong one is refused without retrying, and neither appears in its words', async (ctx) => {
    const login = server.password;
    if (!('user' in login)) {
      ctx.skip(`no password user: ${login.unavailable}`);
      return;
    }
    const dir = writeReportFolder(join(out, 'pw'), { job: 'nightly', folder: '2026-11-25', files: { 'payments.csv': 'p\r\n', 'report.xlsx': noise(300_000) } });
    const d = destination({ user: login.user, privateKeyFile: undefined, passwordEnv: 'PAYEXPORT_TEST_SFTP_PASSWORD', remoteDir: 'incoming' });
    const record = await deliverTo(d, dir, { env: { PAYEXPORT_TEST_SFTP_PASSWORD: login.password } });
    expect(record).toMatchObject({ outcome: 'delivered', files_sent: 3, remote: `sftp://${login.user}@127.0.0.1:${server.port}/incoming/nightly/2026-11-25` });
    // relative to the user's login directory, written as that user
    for (const name of ['payments.csv', 'report.xlsx', 'manifest.json']) expect(sha256(readFileSync(join(login.home, 'incoming/nightly/2026-11-25', name)))).toBe(sha256(readFileSync(join(dir, name))));
    expect(await deliverTo(d, dir, { env: { PAYEXPORT_TEST_SFTP_PASSWORD: login.password } })).toMatchObject({ outcome: 'unchanged' });
    const wrong = 'wrong-PLANTED-password-40';
    const refused = await deliverTo(d, dir, { env: { PAYEXPORT_TEST_SFTP_PASSWORD: wrong }, attempts: 3 });
    expect(refused).toMatchObject({ outcome: 'failed', attempts: 1, detail: expect.stringMatching(/refused .*credentials/) });
    expect(JSON.stringify(refused)).not.toContain(wrong);
    expect(await probeDestination(d, { env: { PAYEXPORT_TEST_SFTP_PASSWORD: login.password }, cwd: process.cwd() })).toMatchObject({ ok: true });
  });

  it('fails on a full disk with words saying so, and publishes nothing', async (ctx) => {
    const mount = join(server.root, 'tiny');
    const tiny = mountTinyDisk(mount, '256k');
    if ('reason' in tiny) {
      ctx.skip(`no full-disk case: ${tiny.reason}`);
      return;
    }
    try {
      const dir = writeReportFolder(join(out, 'full'), { job: 'nightly', folder: '2026-11-23', files: { 'report.xlsx': noise(600_000) } });
      const record = await deliverTo(destination({ remoteDir: mount }), dir, { attempts: 3 });
      expect(record.outcome).toBe('failed');
      expect(record.detail).toMatch(/disk is full|quota|could not write/);
      expect(existsSync(join(mount, 'nightly', '2026-11-23'))).toBe(false);
    } finally {
      tiny.unmount();
    }
  });

  it('leaves nothing visible when the connection is cut mid-upload, and the next delivery resumes', async () => {
    const dir = writeReportFolder(join(out, 'cut'), { job: 'nightly', folder: '2026-11-24', files: { 'payments.csv': noise(3_000_000), 'report.xlsx': noise(20_000_000) } });
    const jobDir = join(server.root, 'nightly');
    const cutting = (async () => {
      // wait until payments.csv is whole and the workbook partly written (files go up side by side),
      // then kill the connection's sshd processes
      const part = join(jobDir, '.2026-11-24.payexport-part');
      const payments = sha256(readFileSync(join(dir, 'payments.csv')));
      const xlsxBytes = statSync(join(dir, 'report.xlsx')).size;
      for (let i = 0; i < 800; i++) {
        const whole = existsSync(join(part, 'payments.csv')) && sha256(readFileSync(join(part, 'payments.csv'))) === payments;
        const partly = existsSync(join(part, 'report.xlsx')) && statSync(join(part, 'report.xlsx')).size < xlsxBytes;
        if (whole && partly) {
          for (const pid of server.connectionPids()) process.kill(pid, 'SIGKILL');
          return true;
        }
        await new Promise((r) => setTimeout(r, 10));
      }
      return false;
    })();
    // the attempt's deadline well inside the test's: a connection that goes quiet instead of closing
    // fails the attempt at its deadline (seen once in a CI-sized run), as it does in production
    const cut = await deliverTo(destination(), dir, { attempts: 1, timeoutMs: 20_000 });
    expect(await cutting).toBe(true);
    expect(cut.outcome).toBe('failed');
    expect(existsSync(join(jobDir, '2026-11-24'))).toBe(false);
    const resumed = await deliverTo(destination(), dir);
    expect(resumed.outcome).toBe('delivered');
    // payments.csv was already there whole: only the workbook and the manifest went again
    expect(resumed.files_sent).toBe(2);
    expect(sha256(readFileSync(join(jobDir, '2026-11-24', 'report.xlsx')))).toBe(sha256(readFileSync(join(dir, 'report.xlsx'))));
    expect(remoteFiles(jobDir).filter((n) => n.includes('2026-11-24'))).toEqual(['2026-11-24']);
  }, 120_000);

});

// the counterpart of the suite above: it runs only where that one cannot, to say why
const sshdHere = unavailable === null;
describe.skipIf(sshdHere)(`SFTP delivery without OpenSSH${sshdHere ? ' — skipped: OpenSSH is here, the suite above ran' : ''}`, () => {
  it('says why it cannot run', () => {
    expect(unavailable).toMatch(/sshd|root/);
  });
});
