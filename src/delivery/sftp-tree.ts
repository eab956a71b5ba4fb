/**
 * An SFTP server as a RemoteTree (ssh2-sftp-client over ssh2): the host key checked against the
 * pinned fingerprint before any credential is offered, then plain SFTP operations. Every failure
 * leaves here as a DeliveryError in words an operator can act on (sftp-failure.ts), with no
 * credential in it.
 *
 * Speed (bench/delivery): the socket has TCP_NODELAY — SFTP is request and answer, and
 * Nagle's algorithm held each small request back until the previous answer was acknowledged —
 * files are written with many requests in flight (ssh2's fastPut) and read back the same way
 * (sftp-read.ts). A file whose bytes the server already holds under another name gets a hard link
 * (OpenSSH's hardlink@openssh.com), not a second upload.
 */
import { posix } from 'node:path';
import type { SFTPWrapper } from 'ssh2';
import type SftpClient from 'ssh2-sftp-client';
import type { SftpDestination } from '../config/delivery-schema.js';
import { pinnedHostKey } from './host-key.js';
import type { RemoteTree } from './remote-tree.js';
import { sftpFailure } from './sftp-failure.js';
import { call, digestRemoteFile, isNoSuchFile, readRemoteFile } from './sftp-read.js';

export interface SftpCredentials {
  privateKey?: string;
  passphrase?: string;
  password?: string;
}

/** Writes: 16 requests of 128 KiB in flight (2 MiB, one SSH channel window); 64 × 32 KiB and 8 × 255 KiB measured the same. */
export const WRITE_CHUNK_BYTES = 128 * 1024;
export const WRITE_DEPTH = 16;
/** A delivered manifest is a few kilobytes; a "manifest.json" this large is someone else's file. */
const MANIFEST_MAX_BYTES = 64 * 1024 * 1024;

export function sftpLabel(d: SftpDestination): string {
  return `sftp://${d.user}@${d.host}:${d.port}`;
}

/** The ssh2 objects under ssh2-sftp-client (its typings do not name them). */
interface Underneath {
  sftp: SFTPWrapper;
  client: { setNoDelay(noDelay: boolean): void };
}

export async function openSftpTree(d: SftpDestination, credentials: SftpCredentials, timeoutMs: number): Promise<RemoteTree> {
  const label = sftpLabel(d);
  const pin = pinnedHostKey(d.hostKey);
  // ssh2 is loaded by the runs that deliver over SFTP, not by every run: a job that never delivers
  // should not carry a library it does not use in its memory
  const { default: Client } = await import('ssh2-sftp-client');
  const connection = connectionWatch();
  const client: SftpClient = new Client('payexport', connection.callbacks);
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
  const under = client as unknown as Underneath;
  under.client.setNoDelay(true);
  const wrap = async <T>(doing: string, op: () => Promise<T>): Promise<T> => {
    try {
      return await Promise.race([op(), connection.lost]);
    } catch (error) {
      return fail(error, doing);
    }
  };
  return connectedTree(label, client, under.sftp, wrap, connection.lost);
}

/**
 * The connection's end, as a promise every operation races. When the server ends the connection
 * cleanly (no socket error), ssh2-sftp-client's own listeners for an operation under way ignore it —
 * its global listener saw the end first — and ssh2 never answers a request sent after the channel
 * closed, so an upload waiting between two writes would wait for the attempt's deadline (minutes).
 * ssh2-sftp-client calls these callbacks for an end, a close or an error it did not expect (never
 * for our own `end()`); they also keep its default callbacks from printing to the job's stdout.
 */
export function connectionWatch(): { lost: Promise<never>; callbacks: { error: (error: unknown) => void; end: () => void; close: () => void } } {
  let reject: (error: unknown) => void = () => undefined;
  const lost = new Promise<never>((_, rejectLost) => (reject = rejectLost));
  // nobody may be waiting when the server goes: the next operation meets the rejection
  lost.catch(() => undefined);
  const gone = (why: string) => () => reject(new Error(`the server ${why}`));
  return { lost, callbacks: { error: (error) => reject(error), end: gone('ended the connection'), close: gone('closed the connection') } };
}

/** The tree over a connected client: every operation's failure named by what it was doing. */
function connectedTree(label: string, client: SftpClient, sftp: SFTPWrapper, wrap: <T>(doing: string, op: () => Promise<T>) => Promise<T>, lost: Promise<never>): RemoteTree {
  return {
    label,
    kind: 'sftp',
    digest: (path, expectedBytes) => wrap(`read back ${path}`, () => digestRemoteFile(sftp, path, expectedBytes)),
    read: (path) => wrap(`read ${path}`, () => readRemoteFile(sftp, path, MANIFEST_MAX_BYTES)),
    async list(dir) {
      return wrap(`list ${dir}`, async () => {
        try {
          const entries = await call<Array<{ filename: string; attrs: { isDirectory(): boolean } }>>((cb) => sftp.readdir(dir, cb));
          return entries.filter((e) => e.filename !== '.' && e.filename !== '..').map((e) => ({ name: e.filename, dir: e.attrs.isDirectory() }));
        } catch (error) {
          if (isNoSuchFile(error)) return [];
          throw error;
        }
      });
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
      await wrap(`write ${remotePath}`, () => client.fastPut(localPath, remotePath, { concurrency: WRITE_DEPTH, chunkSize: WRITE_CHUNK_BYTES }));
    },
    async link(existing, path) {
      try {
        await Promise.race([call<void>((cb) => sftp.ext_openssh_hardlink(existing, path, cb)), lost]);
        return true;
      } catch {
        // a server without hardlink@openssh.com (it throws at once), or one that refuses this link: the file is uploaded instead
        return false;
      }
    },
    async removeFile(path) {
      await wrap(`remove ${path}`, async () => {
        try {
          await call<void>((cb) => sftp.unlink(path, cb));
        } catch (error) {
          if (!isNoSuchFile(error)) throw error;
        }
      });
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
