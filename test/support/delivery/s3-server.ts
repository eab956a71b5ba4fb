/**
 * A real S3-compatible server process on loopback for the delivery tests: moto's server
 * (`moto_server`, what the issue names) when it is installed, and s3rver (npm) always, which
 * speaks SigV4 (it checks signatures, moto does not) and path-style addressing to the real AWS
 * SDK. PyPI is unreachable on the build machine (pip fails on DNS), so `.ci/run` can only try to
 * install moto; s3rver needs nothing. A child process, so a test can kill it mid-upload.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { CreateBucketCommand, S3Client } from '@aws-sdk/client-s3';

export interface S3Server {
  /** `moto` or `s3rver` */
  kind: string;
  endpoint: string;
  accessKeyId: string;
  secretAccessKey: string;
  client(): S3Client;
  createBucket(name: string): Promise<void>;
  /** SIGKILL, as a crash would */
  kill(): Promise<void>;
  /** start again on the same port and data (s3rver keeps its data folder; moto starts empty) */
  restart(): Promise<void>;
  stop(): Promise<void>;
}

const S3RVER_PROCESS = fileURLToPath(new URL('./s3rver-process.mjs', import.meta.url));

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}

function hasMoto(): boolean {
  return spawnSync('sh', ['-c', 'command -v moto_server'], { stdio: 'ignore' }).status === 0;
}

async function waitForPort(port: number, child: ChildProcess, what: string): Promise<void> {
  const deadline = Date.now() + 20_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`${what} exited with ${child.exitCode}`);
    const ok = await fetch(`http://127.0.0.1:${port}/`).then(
      () => true,
      () => false,
    );
    if (ok) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`${what} did not listen on ${port} within 20 s`);
}

/** The servers this machine can run: moto when installed, s3rver always (an npm dev dependency). */
export function availableS3Kinds(): Array<'moto' | 's3rver'> {
  return hasMoto() ? ['moto', 's3rver'] : ['s3rver'];
}

export interface S3ServerOptions {
  /**
   * moto only: check every request's credentials against its own IAM (INITIAL_NO_AUTH_ACTION_COUNT=0),
   * as AWS does — any key is then unknown to it (InvalidAccessKeyId, and a HEAD's bare 403)
   */
  enforceAuth?: boolean;
}

export async function startS3Server(kind: 'moto' | 's3rver' = availableS3Kinds()[0]!, options: S3ServerOptions = {}): Promise<S3Server> {
  const port = await freePort();
  const moto = kind === 'moto';
  const buckets: string[] = [];
  const dir = mkdtempSync(join(tmpdir(), 'payexport-s3-'));
  let child: ChildProcess;
  const launch = async (): Promise<void> => {
    child = moto
      ? spawn('moto_server', ['-H', '127.0.0.1', '-p', String(port)], { stdio: 'ignore', env: { ...process.env, ...(options.enforceAuth ? { INITIAL_NO_AUTH_ACTION_COUNT: '0' } : {}) } })
      : spawn(process.execPath, [S3RVER_PROCESS, dir, String(port)], { stdio: 'ignore' });
    await waitForPort(port, child, moto ? 'moto_server' : 's3rver');
  };
  await launch();
  const endpoint = `http://127.0.0.1:${port}`;
  // s3rver checks signatures against its one built-in key pair; moto takes any
  const accessKeyId = 'S3RVER';
  const secretAccessKey = 'S3RVER';
  // the SDK warns once per process about Node versions it will drop; the product turns it off the
  // same way before its own client (src/delivery/s3-delivery.ts), and so does this one
  process.env['AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED'] ??= 'true';
  const client = (): S3Client =>
    new S3Client({ region: 'us-east-1', endpoint, forcePathStyle: true, credentials: { accessKeyId, secretAccessKey }, requestChecksumCalculation: 'WHEN_REQUIRED', responseChecksumValidation: 'WHEN_REQUIRED' });
  const killChild = async (signal: NodeJS.Signals): Promise<void> => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    const gone = new Promise((r) => child.once('exit', r));
    child.kill(signal);
    await gone;
  };
  const createBucket = async (name: string): Promise<void> => {
    if (!buckets.includes(name)) buckets.push(name);
    const c = client();
    try {
      await c.send(new CreateBucketCommand({ Bucket: name }));
    } finally {
      c.destroy();
    }
  };
  return {
    kind: moto ? 'moto' : 's3rver',
    endpoint,
    accessKeyId,
    secretAccessKey,
    client,
    createBucket,
    kill: () => killChild('SIGKILL'),
    async restart() {
      await launch();
      // moto keeps everything in memory: a restarted one has lost its buckets (not its objects' absence)
      if (moto) for (const name of buckets) await createBucket(name);
    },
    async stop() {
      await killChild('SIGTERM');
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
