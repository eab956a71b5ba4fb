/**
 * A file tree at the far end — an SFTP server's disk or a mounted share — reduced to the few
 * operations an atomic folder delivery needs. Paths are POSIX (`/`), absolute or relative to the
 * login directory for SFTP, native for a folder.
 */
export interface RemoteEntry {
  name: string;
  dir: boolean;
}

export interface RemoteTree {
  /** how messages name the far end: `sftp://user@host:22`, a path; never a credential */
  readonly label: string;
  /** which transport, for the delivery's fault points (src/util/fault-points.ts) */
  readonly kind: 'sftp' | 'folder';
  /**
   * What a remote file holds: its sha256 (hex), read back in full over the protocol; null when there
   * is no such file. Given `expectedBytes`, a file of another size is not read: the answer is then
   * `bytes <n>`, which is no digest and matches none.
   */
  digest(path: string, expectedBytes?: number): Promise<string | null>;
  /** a small remote file's bytes (a manifest), or null */
  read(path: string): Promise<Buffer | null>;
  /** the entries of a folder; none when it does not exist */
  list(dir: string): Promise<RemoteEntry[]>;
  exists(path: string): Promise<boolean>;
  mkdirp(path: string): Promise<void>;
  /** writes a new file at `remotePath`; nothing may exist there (a link would be written through) */
  upload(localPath: string, remotePath: string): Promise<void>;
  /** a second name for an existing file (a hard link), no byte sent; false when the far end cannot make one */
  link(existing: string, path: string): Promise<boolean>;
  removeFile(path: string): Promise<void>;
  /** `from` → `to`; `to` must not exist */
  rename(from: string, to: string): Promise<void>;
  removeTree(path: string): Promise<void>;
  join(...parts: string[]): string;
  close(): Promise<void>;
}

/** What `digest` answers for a file whose size already says it is not the one expected. */
export function sizeDiffers(bytes: number): string {
  return `bytes ${bytes}`;
}
