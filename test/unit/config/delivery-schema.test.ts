import { describe, expect, it } from 'vitest';
import { configSchema } from '../../../src/config/schema.js';
import { deliversJob, deliveryDestinationSchema } from '../../../src/config/delivery-schema.js';
import { findSecretKeys } from '../../../src/config/secrets.js';

/**
 * The `delivery` section: strict like every other key, secrets only by reference, a host key
 * fingerprint in ssh-keygen's form, S3 credentials both or neither, destinations chosen per job.
 */

const FP = 'SHA256:yr0GQeHui2ck8y2fEBONCF00xzStmKIxH6KtFcjWGrI';
const sftp = { kind: 'sftp', name: 'accountant', host: 'sftp.example.com', user: 'books', hostKey: FP, privateKeyFile: 'secrets/sftp_key' };

describe('delivery config', () => {
  it('defaults to no destinations', () => {
    expect(configSchema.parse({}).delivery).toEqual({ timeoutMs: 300_000, attempts: 3, destinations: [] });
  });

  it('accepts an SFTP, an S3 and a folder destination, with defaults filled in', () => {
    const parsed = configSchema.parse({
      delivery: { destinations: [sftp, { kind: 's3', name: 'archive', bucket: 'acme-books' }, { kind: 'folder', name: 'share', path: '/mnt/finance', when: { 'month-end': 'always' } }] },
    }).delivery.destinations;
    expect(parsed[0]).toMatchObject({ port: 22, remoteDir: '', when: 'always' });
    expect(parsed[1]).toMatchObject({ region: 'us-east-1', forcePathStyle: false, prefix: '' });
    expect(deliversJob(parsed[2]!, 'month-end')).toBe(true);
    expect(deliversJob(parsed[2]!, 'nightly')).toBe(false);
    expect(deliversJob(parsed[0]!, 'export')).toBe(true);
  });

  const refused: Array<[string, unknown, RegExp]> = [
    ['an unknown key', { ...sftp, password: 'x' }, /Unrecognized key/],
    ['no credential reference', { ...sftp, privateKeyFile: undefined }, /exactly one of privateKeyFile/],
    ['two credential references', { ...sftp, passwordEnv: 'SFTP_PASSWORD' }, /exactly one of privateKeyFile/],
    ['a host key that is not a SHA256 fingerprint', { ...sftp, hostKey: 'ssh-ed25519 AAAA' }, /SHA256/],
    ['a remote path with ..', { ...sftp, remoteDir: 'in/../../etc' }, /\.\./],
    ['an S3 key id without its secret', { kind: 's3', name: 'a', bucket: 'acme-books', accessKeyIdEnv: 'AWS_KEY' }, /or neither/],
    ['a KMS key without aws:kms', { kind: 's3', name: 'a', bucket: 'acme-books', kmsKeyId: 'k' }, /aws:kms/],
    ['a bad bucket name', { kind: 's3', name: 'a', bucket: 'Acme_Books' }, /bucket/],
  ];
  for (const [label, destination, message] of refused) {
    it(`refuses ${label}`, () => {
      const result = deliveryDestinationSchema.safeParse(destination);
      expect(result.success).toBe(false);
      expect(JSON.stringify(result.error?.issues)).toMatch(message);
    });
  }

  it('refuses a destination name used twice', () => {
    expect(configSchema.safeParse({ delivery: { destinations: [sftp, sftp] } }).success).toBe(false);
  });

  it('has no key the secret-key guard would take for a secret written in the file', () => {
    const all = { delivery: { destinations: [{ ...sftp, privateKeyEnv: 'K', passphraseEnv: 'P', passwordEnv: 'W', passwordFile: 'f' }, { kind: 's3', accessKeyIdEnv: 'A', secretAccessKeyEnv: 'S', secretAccessKeyFile: 'f', kmsKeyId: 'k' }] } };
    expect(findSecretKeys(all)).toEqual([]);
  });
});
