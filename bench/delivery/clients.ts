/**
 * The two sides of every delivery ratio, run the same way: the reference clients (OpenSSH's own
 * `sftp` in batch mode, `put -r` and `get -r`; the AWS CLI's `aws s3 cp --recursive`, or boto3's
 * `upload_file` per file when the CLI is missing) and ours — `payexport deliver` (the built CLI, the
 * launcher's environment), measured from outside by /usr/bin/time: wall and peak RSS of the process.
 */
import { spawn, spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { launcherEnv } from '../e2e/launcher-env.js';
import { ROOT } from '../e2e/sim-child.js';

export interface SftpEndpoint {
  host: string;
  port: number;
  user: string;
  keyFile: string;
}

export interface S3Endpoint {
  endpoint: string;
  accessKeyId: string;
  secretAccessKey: string;
}

export interface DeliverRun {
  wallSeconds: number;
  peakRssMb: number;
  outcome: string;
  filesSent: number;
  /** the delivery's own duration from its record (the rest of the wall is starting node and loading the config) */
  deliverySeconds: number;
  load: string;
}

const load = (): string => readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');

function exec(command: string, args: string[], options: { env?: NodeJS.ProcessEnv; cwd?: string; input?: string } = {}): Promise<{ code: number; stdout: string; stderr: string; seconds: number }> {
  return new Promise((resolve, reject) => {
    const began = process.hrtime.bigint();
    const child = spawn(command, args, { env: options.env ?? process.env, cwd: options.cwd, stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    child.once('error', reject);
    child.once('close', (code) => resolve({ code: code ?? 1, stdout, stderr, seconds: Number(process.hrtime.bigint() - began) / 1e9 }));
    child.stdin.end(options.input ?? '');
  });
}

/** One OpenSSH `sftp -b -` session running `command`; its wall seconds. */
export async function opensshSftp(server: SftpEndpoint, command: string): Promise<number> {
  const args = ['-q', '-b', '-', '-i', server.keyFile, '-P', String(server.port), '-o', 'StrictHostKeyChecking=no', '-o', 'UserKnownHostsFile=/dev/null', '-o', 'LogLevel=ERROR', `${server.user}@${server.host}`];
  const run = await exec('sftp', args, { input: `${command}\n` });
  if (run.code !== 0) throw new Error(`sftp ${command}: exit ${run.code}: ${run.stderr.slice(-500)}`);
  return run.seconds;
}

/** Which S3 upload floor this machine has: the AWS CLI, else boto3, else none (then the floor is stated as missing). */
export function s3FloorTool(): 'aws s3 cp --recursive' | 'boto3 upload_file' | null {
  if (spawnSync('aws', ['--version'], { stdio: 'ignore' }).status === 0) return 'aws s3 cp --recursive';
  if (spawnSync('python3', ['-c', 'import boto3'], { stdio: 'ignore' }).status === 0) return 'boto3 upload_file';
  return null;
}

const BOTO3_UPLOAD = `
import os, sys, boto3
endpoint, bucket, root = sys.argv[1:4]
s3 = boto3.client('s3', endpoint_url=endpoint, region_name='us-east-1')
for dirpath, _, names in os.walk(root):
    for name in names:
        full = os.path.join(dirpath, name)
        s3.upload_file(full, bucket, os.path.relpath(full, root))
`;

/** The reference upload of `dir` into `bucket`; its wall seconds. */
export async function s3Floor(tool: NonNullable<ReturnType<typeof s3FloorTool>>, server: S3Endpoint, dir: string, bucket: string): Promise<number> {
  const env = { ...process.env, AWS_ACCESS_KEY_ID: server.accessKeyId, AWS_SECRET_ACCESS_KEY: server.secretAccessKey, AWS_DEFAULT_REGION: 'us-east-1', AWS_EC2_METADATA_DISABLED: 'true' };
  const run = tool === 'aws s3 cp --recursive' ? await exec('aws', ['--endpoint-url', server.endpoint, 's3', 'cp', '--recursive', '--only-show-errors', dir, `s3://${bucket}/`], { env }) : await exec('python3', ['-c', BOTO3_UPLOAD, server.endpoint, bucket, dir], { env });
  if (run.code !== 0) throw new Error(`${tool}: exit ${run.code}: ${run.stderr.slice(-500)}`);
  return run.seconds;
}

/** The config the bench's `payexport deliver` runs read: one SFTP and one S3 destination. */
export function writeDeliveryConfig(file: string, sftp: SftpEndpoint & { fingerprint: string; root: string }, s3: S3Endpoint, bucket: string): void {
  const config = {
    delivery: {
      timeoutMs: 1_800_000,
      attempts: 1,
      destinations: [
        { kind: 'sftp', name: 'bench-sftp', host: sftp.host, port: sftp.port, user: sftp.user, hostKey: sftp.fingerprint, privateKeyFile: sftp.keyFile, remoteDir: sftp.root },
        { kind: 's3', name: 'bench-s3', bucket, endpoint: s3.endpoint, forcePathStyle: true, accessKeyIdEnv: 'BENCH_S3_KEY_ID', secretAccessKeyEnv: 'BENCH_S3_SECRET' },
      ],
    },
  };
  writeFileSync(file, `${JSON.stringify(config, null, 2)}\n`);
}

/** `payexport deliver <dir> --to <name>`, as a user runs it; what its record says. */
export async function payexportDeliver(cwd: string, configFile: string, dir: string, to: string, s3: S3Endpoint): Promise<DeliverRun> {
  const env = { ...launcherEnv(process.env), BENCH_S3_KEY_ID: s3.accessKeyId, BENCH_S3_SECRET: s3.secretAccessKey, NO_COLOR: '1', PAYEXPORT_LOG_FORMAT: 'json' };
  const before = load();
  const run = await exec('/usr/bin/time', ['-f', 'TIME %e %M', process.execPath, path.join(ROOT, 'dist/cli/main.js'), 'deliver', dir, '--to', to, '--config', configFile, '--no-db'], { env, cwd });
  const time = run.stderr.split('\n').reverse().find((l) => l.startsWith('TIME '));
  if (run.code !== 0 || time === undefined) throw new Error(`payexport deliver --to ${to}: exit ${run.code}: ${run.stdout.slice(-500)} ${run.stderr.slice(-800)}`);
  const [, wall, rssKb] = time.split(' ');
  const rows = readFileSync(path.join(cwd, 'reports', '.state', 'deliveries.jsonl'), 'utf8').trim().split('\n');
  const record = JSON.parse(rows.at(-1)!) as { outcome: string; files_sent: number; duration_ms: number };
  return { wallSeconds: Number(wall), peakRssMb: Math.round(Number(rssKb) / 1024), outcome: record.outcome, filesSent: record.files_sent, deliverySeconds: record.duration_ms / 1000, load: before };
}
