/**
 * An SFTP server as a RemoteTree (ssh2-sftp-client over ssh2): the host key checked against the
 * pinned fingerprint before any credential is offered, then plain SFTP operations. Every failure
 * leaves here as a DeliveryError in words an operator can act on (sftp-failure.ts), with no
 * credential in it.
 */
import { createHash } from 'node:crypto';
import { posix } from 'node:path';
import { pipeline } from 'node:stream/promises';
import type SftpClient from 'ssh2-sftp-client';
import type { SftpDestination } from '../config/delivery-schema.js';
import { pinnedHostKey } from './host-key.js';
import type { RemoteTree } from './remote-tree.js';
import { sftpFailure } from './sftp-failure.js';

export interface SftpCredentials {
  privateKey?: string;
  passphrase?: string;
  password?: string;
}

export function sftpLabel(d: SftpDestination): string {
  return `sftp://${d.user}@${d.host}:${d.port}`;
}

export async function openSftpTree(d: SftpDestination, credentials: SftpCredentials, timeoutMs: number): Promise<RemoteTree> {
  const label = sftpLabel(d);
  const pin = pinnedHostKey(d.hostKey);
  // ssh2 is loaded by the runs that deliver over SFTP, not by every run: a job that never delivers
  // should not carry a library it does not use in its memory
  const { default: Client } = await import('ssh2-sftp-client');
  const client: SftpClient = new Client('payexport');
  const fail = (error: unknown, doing: string): never => {
    throw sftpFailure(error, { label, doing, pinned: d.hostKey, seen: pin.seen(), user: d.user });
  };
  try {
    await client.connect({
      host: d.host,
      port: d.port,
      username: d.user,
      ...credentials,
      hostVerifier: pin.verify,
      readyTimeout: Math.min(timeoutMs, 30_000),
      // no retries of its own: the delivery's retry loop decides (style.md rule 4)
      retries: 0,
    } as Parameters<SftpClient['connect']>[0]);
  } catch (error) {
    await client.end().catch(() => undefined);
    fail(error, 'connect');
  }
  const wrap = async <T>(doing: string, op: () => Promise<T>): Promise<T> => {
    try {
      return await op();
    } catch (error) {
      return fail(error, doing);
    }
  };
  return {
    label,
    async hashOf(path) {
      return wrap(`read back ${path}`, async () => {
        if ((await client.exists(path)) !== '-') return null;
        const hash = createHash('sha256');
        await pipeline(client.createReadStream(path), hash);
        return hash.digest('hex');
      });
    },
    async read(path) {
      return wrap(`read ${path}`, async () => ((await client.exists(path)) === '-' ? ((await client.get(path)) as Buffer) : null));
    },
    async exists(path) {
      return wrap(`look for ${path}`, async () => (await client.exists(path)) !== false);
    },
    async mkdirp(path) {
      await wrap(`create ${path}`, async () => {
        if ((await client.exists(path)) !== 'd') await client.mkdir(path, true);
      });
    },
    async upload(localPath, remotePath) {
      await wrap(`write ${remotePath}`, () => client.fastPut(localPath, remotePath));
    },
    async rename(from, to) {
      await wrap(`rename ${from} to ${to}`, () => client.rename(from, to));
    },
    async removeTree(path) {
      await wrap(`remove ${path}`, async () => {
        if ((await client.exists(path)) === 'd') await client.rmdir(path, true);
      });
    },
    join: (...parts) => posix.join(...parts),
    async close() {
      await client.end().catch(() => undefined);
    },
  };
}
