/** The spool's file primitives: atomic replacement, stream file names, the hash a resume checks a file against. */
import { closeSync, existsSync, fsyncSync, openSync, readFileSync, readSync, renameSync, statSync, writeSync } from 'node:fs';
import { createHash, type Hash } from 'node:crypto';
import { clearTemporary, CREATE_NEW } from '../../util/no-follow.js';

/** The sha256 state over the file's first `length` bytes, or null when the file is shorter. */
export function hashOfFile(path: string, length: number): Hash | null {
  const hash = createHash('sha256');
  if (length === 0) return hash;
  if (!existsSync(path) || statSync(path).size < length) return null;
  return hash.update(readFileSync(path).subarray(0, length));
}

/**
 * A stream file whose first line is a row alone (`{`): the line format before hints and pages,
 * which no reader reads any more. A resumed run pulls such a stream again from its start.
 */
export function inEarlierFormat(path: string): boolean {
  if (!existsSync(path) || statSync(path).size === 0) return false;
  const fd = openSync(path, 'r');
  try {
    const first = Buffer.alloc(1);
    readSync(fd, first, 0, 1, 0);
    return first[0] === 0x7b;
  } finally {
    closeSync(fd);
  }
}

export function writeAtomically(path: string, text: string): void {
  const temp = `${path}.tmp`;
  clearTemporary(temp);
  const fd = openSync(temp, CREATE_NEW, 0o640);
  try {
    writeSync(fd, text);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  renameSync(temp, path);
}

/** Stream names hold colons and UUIDs; file names get a safe form plus a short hash against collisions. */
export function fileNameFor(stream: string): string {
  const safe = stream.replace(/[^A-Za-z0-9._-]/g, '-').slice(0, 120);
  const hash = createHash('sha256').update(stream).digest('hex').slice(0, 8);
  return `${safe}.${hash}.jsonl`;
}

