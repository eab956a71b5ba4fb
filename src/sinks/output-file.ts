/**
 * Files of a report folder: created exclusively with mode 0640 (financial data: owner and group
 * only, docs/reliability.md#secrets), flushed to disk before close (`flush: true` = fsync), and hashed
 * (sha256) and counted as the bytes go out, so the manifest describes exactly what was written.
 */
import { createHash, type Hash } from 'node:crypto';
import { createWriteStream, type WriteStream } from 'node:fs';
import { basename } from 'node:path';
import { Transform, type TransformCallback } from 'node:stream';
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

/** Passes bytes through while hashing and counting them. */
export class HashTap extends Transform {
  private readonly hash: Hash = createHash('sha256');
  bytes = 0;

  override _transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback): void {
    this.hash.update(chunk);
    this.bytes += chunk.length;
    callback(null, chunk);
  }

  /** The hex digest; call once, after the stream has finished. */
  digest(): string {
    return this.hash.digest('hex');
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
