/** A mounted share (or any local folder) as a RemoteTree: plain fs calls, same semantics as SFTP. */
import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { copyFile, mkdir, readFile, rename, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import type { RemoteTree } from './remote-tree.js';

export function localTree(label: string): RemoteTree {
  return {
    label,
    async hashOf(path) {
      const hash = createHash('sha256');
      try {
        await pipeline(createReadStream(path), hash);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
        throw error;
      }
      return hash.digest('hex');
    },
    async read(path) {
      try {
        return await readFile(path);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
        throw error;
      }
    },
    async exists(path) {
      return stat(path).then(
        () => true,
        () => false,
      );
    },
    async mkdirp(path) {
      await mkdir(path, { recursive: true });
    },
    async upload(localPath, remotePath) {
      await copyFile(localPath, remotePath);
    },
    async rename(from, to) {
      await rename(from, to);
    },
    async removeTree(path) {
      await rm(path, { recursive: true, force: true });
    },
    join: (...parts) => join(...parts),
    async close() {},
  };
}
