/**
 * The SFTP server's host key, pinned: `SHA256:` + unpadded base64 of the key blob's sha256, the
 * form `ssh-keygen -lf` prints, so an operator can compare what the config says with what
 * `ssh-keyscan -p PORT HOST | ssh-keygen -lf -` says. Anything else — an unknown server, a changed
 * key, a man in the middle — is refused before a password or key is ever offered.
 */
import { createHash } from 'node:crypto';

export function sshFingerprint(keyBlob: Buffer): string {
  return `SHA256:${createHash('sha256').update(keyBlob).digest('base64').replace(/=+$/, '')}`;
}

/** A verifier for ssh2 that accepts only `pinned`, remembering what it was shown. */
export function pinnedHostKey(pinned: string): { verify: (key: Buffer) => boolean; seen: () => string | null } {
  let seen: string | null = null;
  return {
    verify: (key) => {
      seen = sshFingerprint(key);
      return seen === pinned;
    },
    seen: () => seen,
  };
}
