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

/**
 * Every entry under `dir`, recursively, as paths relative to it; folders end in `/`. Hidden entries
 * included. One sftp session per level of folders, each listing all of that level's folders (a
 * session costs an SSH handshake, ~0.4 s here: one per folder made the listings most of a suite's time).
 */
export function sftpTree(login: SftpLogin, dir: string): string[] {
  const out: string[] = [];
  let level = [''];
  while (level.length > 0) {
    const listings = sftpLsMany(login, level.map((rel) => (rel === '' ? dir : `${dir}/${rel}`)));
    const next: string[] = [];
    level.forEach((rel, i) => {
      for (const entry of listings[i]!) {
        const path = rel === '' ? entry.name : `${rel}/${entry.name}`;
        out.push(entry.dir ? `${path}/` : path);
        if (entry.dir) next.push(path);
      }
    });
    level = next;
  }
  return out.sort();
}

/** One `ls -la` by OpenSSH's sftp client in batch mode; `.` and `..` left out. A missing folder lists nothing. */
export function sftpLs(login: SftpLogin, dir: string): Array<{ name: string; dir: boolean }> {
  return sftpLsMany(login, [dir])[0]!;
}

/** `ls -la` of each folder, in one batch of one session: each folder's entries, in the order asked. */
function sftpLsMany(login: SftpLogin, dirs: readonly string[]): Array<Array<{ name: string; dir: boolean }>> {
  const args = ['-q', '-b', '-', '-i', login.keyFile, '-P', String(login.port), '-o', 'StrictHostKeyChecking=no', '-o', 'UserKnownHostsFile=/dev/null', '-o', 'LogLevel=ERROR', `${login.user}@${login.host}`];
  // a leading '-' lets the batch go on when ls fails (a folder that does not exist)
  const result = spawnSync('sftp', args, { input: dirs.map((dir) => `-ls -la ${dir}\n`).join(''), encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`sftp ls -la ${dirs.join(' ')}: exit ${result.status}: ${result.stderr}`);
  // the batch echoes each command ("sftp> ls -la <dir>") before its listing: that line says whose the entries below it are
  const listings = dirs.map(() => [] as Array<{ name: string; dir: boolean }>);
  let current = -1;
  for (const line of result.stdout.split('\n')) {
    if (line.startsWith('sftp>')) {
      current = dirs.indexOf(line.replace(/^sftp> -?ls -la /, '').trimEnd());
      continue;
    }
    const dir = dirs[current];
    const at = dir === undefined ? -1 : line.indexOf(`${dir}/`);
    if (dir === undefined || at < 0) continue;
    const name = line.slice(at + dir.length + 1);
    if (name === '.' || name === '..') continue;
    listings[current]!.push({ name, dir: line.startsWith('d') });
  }
  return listings;
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
