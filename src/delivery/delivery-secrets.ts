/**
 * The credentials a delivery destination needs — an SFTP private key (and its passphrase) or
 * password, an S3 access key pair — read from the variable or mode-600 file its config names and
 * registered with the run's scrubber at once, so no log line, error or snapshot row can carry
 * them. A missing secret does not stop the run: that destination's delivery fails, with the reason.
 * S3 without a reference uses the standard AWS chain (env, shared profile, instance role).
 */
import { resolve } from 'node:path';
import type { DeliveryDestination } from '../config/delivery-schema.js';
import { readSecretFile, secretFromEnv } from '../config/secrets.js';
import type { Env } from '../util/env.js';
import type { SecretScrubber } from '../util/secret-scrubber.js';
import type { S3Credentials } from './s3-delivery.js';
import type { SftpCredentials } from './sftp-tree.js';

export type DeliveryCredentials = { kind: 'folder' } | { kind: 'sftp'; sftp: SftpCredentials } | { kind: 's3'; s3: S3Credentials | undefined };

/** One secret by reference; a private key file is a key, not a one-line secret, so it keeps its newlines. */
function read(env: Env, cwd: string, envName: string | undefined, file: string | undefined, what: string): string {
  if (envName !== undefined) {
    const value = secretFromEnv(env, envName);
    if (value === undefined) throw new Error(`the ${what} variable ${envName} is not set`);
    return value;
  }
  if (file !== undefined) return readSecretFile(resolve(cwd, file), what);
  throw new Error(`no ${what} configured`);
}

export function resolveCredentials(d: DeliveryDestination, env: Env, cwd: string, scrubber: SecretScrubber): DeliveryCredentials {
  switch (d.kind) {
    case 'folder':
      return { kind: 'folder' };
    case 'sftp': {
      const sftp: SftpCredentials = {};
      if (d.privateKeyFile !== undefined || d.privateKeyEnv !== undefined) {
        sftp.privateKey = read(env, cwd, d.privateKeyEnv, d.privateKeyFile, 'SFTP private key');
        // a key pasted into a variable may carry literal \n
        if (d.privateKeyEnv !== undefined) sftp.privateKey = sftp.privateKey.replace(/\\n/g, '\n');
        if (d.passphraseEnv !== undefined) sftp.passphrase = read(env, cwd, d.passphraseEnv, undefined, 'SFTP key passphrase');
      } else {
        sftp.password = read(env, cwd, d.passwordEnv, d.passwordFile, 'SFTP password');
      }
      for (const line of (sftp.privateKey ?? '').split('\n')) if (!line.startsWith('-----')) scrubber.add(line);
      scrubber.add(sftp.privateKey).add(sftp.passphrase).add(sftp.password);
      return { kind: 'sftp', sftp };
    }
    case 's3': {
      if (d.accessKeyIdEnv === undefined) return { kind: 's3', s3: undefined };
      const s3 = {
        accessKeyId: read(env, cwd, d.accessKeyIdEnv, undefined, 'S3 access key id'),
        secretAccessKey: read(env, cwd, d.secretAccessKeyEnv, d.secretAccessKeyFile, 'S3 secret access key'),
      };
      scrubber.add(s3.secretAccessKey);
      return { kind: 's3', s3 };
    }
  }
}
