/** A mounted share (or any local folder) as a RemoteTree: plain fs calls, same semantics as SFTP. */
import { createHash } from 'node:crypto';
import { constants, createReadStream } from 'node:fs';
import { copyFile, link, mkdir, readFile, readdir, rename, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { sizeDiffers, type RemoteTree } from './remote-tree.js';

/** What a share answers when it cannot hold a second name for a file (SMB/CIFS, some NAS exports): the file is copied instead. */
const NO_LINKS = new Set(['EXDEV', 'EPERM', 'ENOTSUP', 'EOPNOTSUPP', 'EMLINK', 'ENOSYS']);

const code = (error: unknown): string | undefined => (error as NodeJS.ErrnoException).code;

export function localTree(label: string): RemoteTree {
  return {
    label,
    kind: 'folder',
    async digest(path, expectedBytes) {
      try {
        const info = await stat(path);
        if (!info.isFile()) return null;
        if (expectedBytes !== undefined && info.size !== expectedBytes) return sizeDiffers(info.size);
        const hash = createHash('sha256');
        await pipeline(createReadStream(path), hash);
        return hash.digest('hex');
      } catch (error) {
        if (code(error) === 'ENOENT') return null;
        throw error;
      }
    },
    async read(path) {
      try {
        return await readFile(path);
      } catch (error) {
        if (code(error) === 'ENOENT') return null;
        throw error;
      }
    },
    async list(dir) {
      try {
        return (await readdir(dir, { withFileTypes: true })).map((e) => ({ name: e.name, dir: e.isDirectory() }));
      } catch (error) {
        if (code(error) === 'ENOENT' || code(error) === 'ENOTDIR') return [];
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
      // COPYFILE_EXCL: never written through an existing name (it may be a link to a published file)
      await copyFile(localPath, remotePath, constants.COPYFILE_EXCL);
    },
    async link(existing, path) {
      try {
        await link(existing, path);
        return true;
      } catch (error) {
        if (NO_LINKS.has(code(error) ?? '') || code(error) === 'ENOENT') return false;
        throw error;
      }
    },
    async removeFile(path) {
      await rm(path, { force: true });
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
