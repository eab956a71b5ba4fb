/**
 * A delivered folder's files fetched back by software that is not ours, over the destination's own
 * protocol: OpenSSH's `sftp` client (`get`) from an SFTP server, boto3 (`get_object`) from an S3
 * bucket. A test then checks what arrived with other outside tools (openssl, sha256).
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import type { SftpLogin } from './remote-listing.js';

/** `get` of each of `names` from `remoteDir` into `localDir` (created), in one batch; a missing file fails the batch. */
export function sftpGet(login: SftpLogin, remoteDir: string, names: readonly string[], localDir: string): void {
  mkdirSync(localDir, { recursive: true });
  const args = ['-q', '-b', '-', '-i', login.keyFile, '-P', String(login.port), '-o', 'StrictHostKeyChecking=no', '-o', 'UserKnownHostsFile=/dev/null', '-o', 'LogLevel=ERROR', `${login.user}@${login.host}`];
  const batch = names.map((name) => `get ${remoteDir}/${name} ${localDir}/${name}\n`).join('');
  const result = spawnSync('sftp', args, { input: batch, encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`sftp get from ${remoteDir}: exit ${result.status}: ${result.stderr}`);
}

/** `rm` of one remote file, by the same client. */
export function sftpRemove(login: SftpLogin, path: string): void {
  const args = ['-q', '-b', '-', '-i', login.keyFile, '-P', String(login.port), '-o', 'StrictHostKeyChecking=no', '-o', 'UserKnownHostsFile=/dev/null', '-o', 'LogLevel=ERROR', `${login.user}@${login.host}`];
  const result = spawnSync('sftp', args, { input: `rm ${path}\n`, encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`sftp rm ${path}: exit ${result.status}: ${result.stderr}`);
}

const GET_OBJECTS = `
import os, sys, boto3
endpoint, bucket, prefix, into = sys.argv[1:5]
s3 = boto3.client('s3', endpoint_url=endpoint, region_name='us-east-1', aws_access_key_id='S3RVER', aws_secret_access_key='S3RVER')
for name in sys.argv[5:]:
    with open(os.path.join(into, name), 'wb') as f:
        f.write(s3.get_object(Bucket=bucket, Key=prefix + name)['Body'].read())
`;

/** boto3's `get_object` of `<prefix><name>` for each name, into `localDir` (created). */
export function s3Get(endpoint: string, bucket: string, prefix: string, names: readonly string[], localDir: string): void {
  mkdirSync(localDir, { recursive: true });
  execFileSync('python3', ['-c', GET_OBJECTS, endpoint, bucket, prefix, localDir, ...names], { stdio: ['ignore', 'pipe', 'pipe'] });
}
