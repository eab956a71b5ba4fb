/**
 * Files of a report folder: created exclusively with mode 0640 (financial data: owner and group
 * only, docs/reliability.md#secrets), flushed to disk before close (`flush: true` = fsync), and hashed
 * (sha256) and counted as the bytes go out, so the manifest describes exactly what was written.
 */
import { createHash, type Hash } from 'node:crypto';
import { createWriteStream, type WriteStream } from 'node:fs';
import { basename } from 'node:path';
import { Transform, type TransformCallback, type TransformOptions } from 'node:stream';
import { AppError } from '../util/errors.js';
import { diskFullTarget } from '../util/fault-points.js';

export const FILE_MODE = 0o640;
export const DIR_MODE = 0o750;

/** A write stream for a new file in the report's temp folder (fails if it exists). */
export function createOutputStream(path: string, highWaterMark?: number): WriteStream {
  // the fault suite's disk-full case: a real ENOSPC from the kernel on the first write (fault-points.ts)
  const full = diskFullTarget('report:open', { file: basename(path) });
  return createWriteStream(full ?? path, { flags: full === null ? 'wx' : 'w', mode: FILE_MODE, flush: true, ...(highWaterMark === undefined ? {} : { highWaterMark }) });
}

/**
 * Passes bytes through while hashing and counting them. With `batchBytes`, chunks are held and
 * passed on in runs of at least that many bytes (the rest at the end): the workbook's zip writes
 * 4–16 KB at a time, and each write of a file stream is a request to libuv's pool, each a wake-up
 * of a pool thread: most of an export's file writes were the workbook's.
 */
export class HashTap extends Transform {
  private readonly hash: Hash = createHash('sha256');
  private readonly batchBytes: number;
  private held: Buffer[] = [];
  private heldBytes = 0;
  bytes = 0;

  constructor(options: TransformOptions & { batchBytes?: number } = {}) {
    const { batchBytes = 0, ...transform } = options;
    super(transform);
    this.batchBytes = batchBytes;
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback): void {
    this.hash.update(chunk);
    this.bytes += chunk.length;
    if (this.batchBytes === 0) return callback(null, chunk);
    this.held.push(chunk);
    this.heldBytes += chunk.length;
    if (this.heldBytes >= this.batchBytes) this.release();
    callback();
  }

  override _flush(callback: TransformCallback): void {
    if (this.heldBytes > 0) this.release();
    callback();
  }

  /** The hex digest; call once, after the stream has finished. */
  digest(): string {
    return this.hash.digest('hex');
  }

  private release(): void {
    const run = this.held.length === 1 ? (this.held[0] as Buffer) : Buffer.concat(this.held, this.heldBytes);
    this.held = [];
    this.heldBytes = 0;
    this.push(run);
  }
}

const DISK_FULL = new Set(['ENOSPC', 'EDQUOT', 'EFBIG']);
const NOT_WRITABLE = new Set(['EACCES', 'EPERM', 'EROFS', 'ENOTDIR', 'EISDIR', 'EEXIST', 'ENOENT', 'ENAMETOOLONG', 'ELOOP']);

/**
 * An I/O error met while writing outputs, as the AppError of exit code 74 (docs/contracts.md#exit-codes). Errors
 * without an errno code are not I/O errors (a bug, an AppError) and pass through unchanged.
 */
export function outputError(error: unknown, path: string): unknown {
  if (error instanceof AppError) return error;
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  if (typeof code !== 'string' || !/^E[A-Z0-9]+$/.test(code)) return error;
  if (DISK_FULL.has(code)) {
    return new AppError('cantCreate', 'disk_full', `cannot write ${path}: no space left on the device (${code})`, { cause: error, details: { path, code } });
  }
  const type = NOT_WRITABLE.has(code) ? 'output_not_writable' : 'output_write_failed';
  return new AppError('cantCreate', type, `cannot write ${path}: ${code}`, { cause: error, details: { path, code } });
}
