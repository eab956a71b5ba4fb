import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../../src/config/load.js';
import { recordDeliveries } from '../../../src/delivery/record-deliveries.js';
import { deliveryDestinationsCheck } from '../../../src/setup/doctor/checks/delivery-destinations.js';
import { createMemoryLogger } from '../../../src/util/log.js';
import { SecretScrubber } from '../../../src/util/secret-scrubber.js';
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
