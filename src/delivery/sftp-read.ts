/**
 * Reading a file on an SFTP server with many read requests in flight — what OpenSSH's own
 * `sftp get` does (64 requests of 32 KiB). ssh2's read stream asks for one block and waits for it
 * before asking for the next: a round trip per block, so a read-back took as many round trips as
 * blocks. Here the next blocks are asked for while the first are on their
 * way, and handed over in order as they arrive, so memory stays at `depth × chunk` whatever the
 * file's size.
 *
 * A file whose size differs from the one expected has another digest by definition: it is not
 * read. A read that stops short of the size the file's stat promised, or a file longer than its
 * stat said (one more read past the end must find nothing), is a file that changed under us: it
 * hashes as what was read, never as the expected file.
 */
import { createHash } from 'node:crypto';
import type { SFTPWrapper, Stats } from 'ssh2';
import { sizeDiffers } from './remote-tree.js';

/**
 * 16 requests of 128 KiB in flight: 2 MiB, as OpenSSH's `sftp` keeps (64 × 32 KiB), in a quarter
 * of the requests — a quarter of the packets to encrypt and the socket writes, which cost this
 * client more than they cost OpenSSH's (docs/delivery.md#measured).
 */
export const READ_CHUNK_BYTES = 128 * 1024;
export const READ_DEPTH = 16;

/** SSH_FX_NO_SUCH_FILE: the one status that means "nothing there" rather than a failure. */
const NO_SUCH_FILE = 2;

export function isNoSuchFile(error: unknown): boolean {
  return (error as { code?: unknown } | null)?.code === NO_SUCH_FILE;
}

/** sha256 of a remote file read in full; null when there is none; `bytes <n>` when its size is not `expectedBytes`. */
export async function digestRemoteFile(sftp: SFTPWrapper, path: string, expectedBytes?: number): Promise<string | null> {
  return withOpenFile(sftp, path, async (handle, size) => {
    if (expectedBytes !== undefined && size !== expectedBytes) return sizeDiffers(size);
    const hash = createHash('sha256');
    await readBlocks(sftp, handle, size, (data) => hash.update(data));
    return hash.digest('hex');
  });
}

/** A small remote file's bytes (a manifest), or null when there is none; one larger than `maxBytes` is refused. */
export async function readRemoteFile(sftp: SFTPWrapper, path: string, maxBytes: number): Promise<Buffer | null> {
  return withOpenFile(sftp, path, async (handle, size) => {
    if (size > maxBytes) throw new Error(`${path} is ${size} bytes, more than a manifest ever is (${maxBytes})`);
    const parts: Buffer[] = [];
    // the buffers are lent: kept bytes are copied
    await readBlocks(sftp, handle, size, (data) => parts.push(Buffer.from(data)));
    return Buffer.concat(parts);
  });
}

async function withOpenFile<T>(sftp: SFTPWrapper, path: string, use: (handle: Buffer, size: number) => Promise<T>): Promise<T | null> {
  let handle: Buffer;
  try {
    handle = await call<Buffer>((cb) => sftp.open(path, 'r', cb));
  } catch (error) {
    if (isNoSuchFile(error)) return null;
    throw error;
  }
  try {
    const stats = await call<Stats>((cb) => sftp.fstat(handle, cb));
    if (!stats.isFile()) return null;
    return await use(handle, stats.size);
  } finally {
    await call<void>((cb) => sftp.close(handle, cb)).catch(() => undefined);
  }
}

interface Block {
  position: number;
  length: number;
  buffer: Buffer;
  data: Promise<Buffer>;
}

/**
 * Every byte of an open file, in order, `READ_DEPTH` requests in flight; then reads past the end,
 * which must find nothing. `onData`'s buffer is lent for the call only: it is read into again
 * (allocating a new one per block made the collector the largest cost of a read-back).
 */
async function readBlocks(sftp: SFTPWrapper, handle: Buffer, size: number, onData: (data: Buffer) => void): Promise<void> {
  const inFlight: Block[] = [];
  const free: Buffer[] = [];
  let next = 0;
  const ask = (position: number, length: number): Block => {
    const buffer = free.pop() ?? Buffer.allocUnsafeSlow(READ_CHUNK_BYTES);
    const data = readBlock(sftp, handle, buffer, position, length);
    // a block still in flight when an earlier one fails must not become an unhandled rejection
    data.catch(() => undefined);
    return { position, length, buffer, data };
  };
  for (;;) {
    while (inFlight.length < READ_DEPTH && next < size) {
      const length = Math.min(READ_CHUNK_BYTES, size - next);
      inFlight.push(ask(next, length));
      next += length;
    }
    const block = inFlight.shift();
    if (block === undefined) break;
    const data = await block.data;
    // the file shrank under us: what was read is what it holds
    if (data.length === 0) return;
    onData(data);
    // a server may answer with fewer bytes than asked: the rest of that block is asked for at once, in its place
    if (data.length < block.length) inFlight.unshift(ask(block.position + data.length, block.length - data.length));
    free.push(block.buffer);
  }
  // a file that grew since its stat: what lies past the promised end is part of what it holds
  const spare = free.pop() ?? Buffer.allocUnsafeSlow(READ_CHUNK_BYTES);
  for (let position = size; ; ) {
    const beyond = await readBlock(sftp, handle, spare, position, READ_CHUNK_BYTES);
    if (beyond.length === 0) return;
    onData(beyond);
    position += beyond.length;
  }
}

function readBlock(sftp: SFTPWrapper, handle: Buffer, buffer: Buffer, position: number, length: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    sftp.read(handle, buffer, 0, length, position, (error, bytesRead) => {
      if (error) reject(error);
      else resolve(buffer.subarray(0, bytesRead));
    });
  });
}

/** An ssh2 callback as a promise. */
export function call<T>(op: (cb: (error: Error | undefined | null, value: T) => void) => void): Promise<T> {
  return new Promise((resolve, reject) => op((error, value) => (error ? reject(error) : resolve(value))));
}
