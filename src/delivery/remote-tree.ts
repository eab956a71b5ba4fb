/**
 * A file tree at the far end — an SFTP server's disk or a mounted share — reduced to the few
 * operations an atomic folder delivery needs. Paths are POSIX (`/`), absolute or relative to the
 * login directory for SFTP, native for a folder.
 */
export interface RemoteTree {
  /** how messages name the far end: `sftp://user@host:22`, a path; never a credential */
  readonly label: string;
  /** sha256 (hex) of a remote file read back in full, or null when there is no such file */
  hashOf(path: string): Promise<string | null>;
  /** a small remote file's bytes (a manifest), or null */
  read(path: string): Promise<Buffer | null>;
  exists(path: string): Promise<boolean>;
  mkdirp(path: string): Promise<void>;
  upload(localPath: string, remotePath: string): Promise<void>;
  /** `from` → `to`; `to` must not exist */
  rename(from: string, to: string): Promise<void>;
  removeTree(path: string): Promise<void>;
  join(...parts: string[]): string;
  close(): Promise<void>;
}
