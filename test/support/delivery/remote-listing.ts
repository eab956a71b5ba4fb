/**
 * What a destination holds, listed by software that is not ours: OpenSSH's own `sftp` client
 * (`ls -la`, hidden entries included) for an SFTP server, boto3 (`list_objects_v2`,
 * `list_multipart_uploads`) for an S3 bucket. The "nothing left behind" tests compare these
 * listings with the published folders, so a leftover our own code would not see is still caught.
 */
import { execFileSync, spawnSync } from 'node:child_process';

export interface SftpLogin {
  host: string;
  port: number;
  user: string;
  keyFile: string;
}

/** Every entry under `dir`, recursively, as paths relative to it; folders end in `/`. Hidden entries included. */
export function sftpTree(login: SftpLogin, dir: string): string[] {
  const out: string[] = [];
  const walk = (rel: string): void => {
    const here = rel === '' ? dir : `${dir}/${rel}`;
    for (const entry of sftpLs(login, here)) {
      const path = rel === '' ? entry.name : `${rel}/${entry.name}`;
      out.push(entry.dir ? `${path}/` : path);
      if (entry.dir) walk(path);
    }
  };
  walk('');
  return out.sort();
}

/** One `ls -la` by OpenSSH's sftp client in batch mode; `.` and `..` left out. A missing folder lists nothing. */
export function sftpLs(login: SftpLogin, dir: string): Array<{ name: string; dir: boolean }> {
  const args = ['-q', '-b', '-', '-i', login.keyFile, '-P', String(login.port), '-o', 'StrictHostKeyChecking=no', '-o', 'UserKnownHostsFile=/dev/null', '-o', 'LogLevel=ERROR', `${login.user}@${login.host}`];
  // a leading '-' lets the batch go on when ls fails (a folder that does not exist)
  const result = spawnSync('sftp', args, { input: `-ls -la ${dir}\n`, encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`sftp ls -la ${dir}: exit ${result.status}: ${result.stderr}`);
  const entries: Array<{ name: string; dir: boolean }> = [];
  for (const line of result.stdout.split('\n')) {
    const at = line.indexOf(`${dir}/`);
    if (line.startsWith('sftp>') || at < 0) continue;
    const name = line.slice(at + dir.length + 1);
    if (name === '.' || name === '..') continue;
    entries.push({ name, dir: line.startsWith('d') });
  }
  return entries;
}

const LIST_BUCKET = `
import json, sys, boto3
endpoint, bucket, prefix = sys.argv[1:4]
s3 = boto3.client('s3', endpoint_url=endpoint, region_name='us-east-1', aws_access_key_id='S3RVER', aws_secret_access_key='S3RVER')
objects, uploads = [], []
for page in s3.get_paginator('list_objects_v2').paginate(Bucket=bucket, Prefix=prefix):
    objects += [o['Key'] for o in page.get('Contents', [])]
for page in s3.get_paginator('list_multipart_uploads').paginate(Bucket=bucket, Prefix=prefix):
    uploads += [u['Key'] for u in page.get('Uploads', [])]
print(json.dumps({'objects': sorted(objects), 'uploads': sorted(uploads)}))
`;

/** Why boto3 cannot list here, or null when it can. */
export function boto3Unavailable(): string | null {
  return spawnSync('python3', ['-c', 'import boto3'], { stdio: 'ignore' }).status === 0 ? null : 'python3 cannot import boto3 (it comes with moto: pip install "moto[server]")';
}

/** The objects and the incomplete multipart uploads under `prefix`, as boto3 lists them. */
export function s3Listing(endpoint: string, bucket: string, prefix: string): { objects: string[]; uploads: string[] } {
  return JSON.parse(execFileSync('python3', ['-c', LIST_BUCKET, endpoint, bucket, prefix], { encoding: 'utf8' })) as { objects: string[]; uploads: string[] };
}
