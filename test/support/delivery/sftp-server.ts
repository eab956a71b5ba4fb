/**
 * A real OpenSSH server for the delivery tests: Debian's `sshd` (package openssh-server, its
 * `sftp-server`) started on a loopback port with its own generated host key, its own sshd_config
 * and one authorized user key, in a temporary folder; stopped after. It runs as the test's user
 * (root on the build machine: sshd needs /run/sshd and root to log a user in).
 *
 * With `passwordUser`, it also logs in a local user of its own by password (created with useradd
 * and chpasswd, PasswordAuthentication for that user alone, removed with userdel at stop): what an
 * accountant's server that hands out a login and a password looks like.
 */
import { execFileSync, spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { createConnection } from 'node:net';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';
import { freePort } from './s3-server.js';

export const SSHD = '/usr/sbin/sshd';
export const SFTP_SERVER = '/usr/lib/openssh/sftp-server';

export interface PasswordLogin {
  user: string;
  password: string;
  /** the user's own folder (its login directory), where it may write */
  home: string;
}

export interface SftpServerOptions {
  passwordUser?: boolean;
}

export interface SftpServer {
  host: string;
  port: number;
  user: string;
  /** `SHA256:…` of the host key, as ssh-keygen -lf prints it */
  fingerprint: string;
  /** a private key the server accepts (file, mode 600) and one it does not */
  keyFile: string;
  wrongKeyFile: string;
  /** a folder on the server's disk the tests deliver into */
  root: string;
  /** the password login, or why there is none (not asked for; no useradd) */
  password: PasswordLogin | { unavailable: string };
  /** the pids of the per-connection sshd children (a test kills one to cut a transfer) */
  connectionPids(): number[];
  /** a new host key under the same address (a changed or impostor server); returns its fingerprint */
  changeHostKey(): Promise<string>;
  stop(): Promise<void>;
}

/** Why sshd cannot run here, or null when it can. */
export function sshdUnavailable(): string | null {
  if (!existsSync(SSHD) || !existsSync(SFTP_SERVER)) return `${SSHD} or ${SFTP_SERVER} is missing (apt-get install openssh-server; .ci/run installs it)`;
  if (userInfo().uid !== 0) return 'sshd must run as root to log a user in';
  return null;
}

function keygen(file: string): void {
  execFileSync('ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-C', 'payexport-test', '-f', file], { stdio: 'ignore' });
}

function fingerprintOf(pubFile: string): string {
  return execFileSync('ssh-keygen', ['-lf', pubFile], { encoding: 'utf8' }).split(' ')[1]!;
}

async function waitForBanner(port: number, child: ChildProcess): Promise<void> {
  const deadline = Date.now() + 15_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`sshd exited with ${child.exitCode}`);
    const ok = await new Promise<boolean>((resolve) => {
      const socket = createConnection({ host: '127.0.0.1', port }, () => {
        socket.once('data', () => {
          socket.destroy();
          resolve(true);
        });
      });
      socket.once('error', () => resolve(false));
    });
    if (ok) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`sshd did not answer on ${port} within 15 s`);
}

/** A local user with a password, for sshd to check against /etc/shadow; null with the reason when this machine cannot make one. */
function createPasswordUser(dir: string): PasswordLogin | { unavailable: string } {
  if (spawnSync('sh', ['-c', 'command -v useradd && command -v chpasswd && command -v userdel'], { stdio: 'ignore' }).status !== 0) return { unavailable: 'useradd, chpasswd or userdel is missing (Debian package passwd)' };
  const user = `pxsftp${process.pid}`;
  const password = `pw-${randomBytes(9).toString('base64url')}`;
  // the user must reach its home through the test's folder
  chmodSync(dir, 0o711);
  const home = join(dir, 'home');
  mkdirSync(home);
  spawnSync('userdel', ['--force', user], { stdio: 'ignore' });
  // root and useradd present: a failure here is a failure, not a reason to skip (CI runs this as root)
  execFileSync('useradd', ['--no-create-home', '--home-dir', home, '--shell', '/bin/sh', user], { stdio: 'pipe' });
  execFileSync('chpasswd', [], { input: `${user}:${password}\n`, stdio: ['pipe', 'pipe', 'pipe'] });
  execFileSync('chown', [user, home]);
  return { user, password, home };
}

export async function startSftpServer(options: SftpServerOptions = {}): Promise<SftpServer> {
  const dir = mkdtempSync(join(tmpdir(), 'payexport-sshd-'));
  const root = join(dir, 'root');
  mkdirSync(root);
  mkdirSync('/run/sshd', { recursive: true });
  const hostKey = join(dir, 'host_ed25519');
  keygen(hostKey);
  keygen(join(dir, 'user_ed25519'));
  keygen(join(dir, 'wrong_ed25519'));
  writeFileSync(join(dir, 'authorized_keys'), readFileSync(join(dir, 'user_ed25519.pub')), { mode: 0o600 });
  const port = await freePort();
  const config = join(dir, 'sshd_config');
  const user = userInfo().username;
  const password = options.passwordUser ? createPasswordUser(dir) : { unavailable: 'not asked for' };
  const passwordUser = 'user' in password ? password.user : null;
  const writeConfig = (key: string): void =>
    writeFileSync(
      config,
      [
        `Port ${port}`,
        'ListenAddress 127.0.0.1',
        `HostKey ${key}`,
        `PidFile ${join(dir, 'sshd.pid')}`,
        `AuthorizedKeysFile ${join(dir, 'authorized_keys')}`,
        'PubkeyAuthentication yes',
        'PasswordAuthentication no',
        'KbdInteractiveAuthentication no',
        'PermitRootLogin prohibit-password',
        'StrictModes no',
        'UsePAM no',
        `AllowUsers ${user}${passwordUser ? ` ${passwordUser}` : ''}`,
        `Subsystem sftp ${SFTP_SERVER}`,
        // a Match block runs to the end of the file: it comes last
        ...(passwordUser ? [`Match User ${passwordUser}`, '  PasswordAuthentication yes'] : []),
        '',
      ].join('\n'),
    );
  writeConfig(hostKey);
  let child: ChildProcess;
  const launch = async (): Promise<void> => {
    child = spawn(SSHD, ['-D', '-e', '-f', config], { stdio: ['ignore', 'ignore', 'pipe'] });
    child.stderr!.resume();
    await waitForBanner(port, child);
  };
  const halt = async (): Promise<void> => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    for (const pid of childrenOf(child.pid!)) tryKill(pid);
    const gone = new Promise((r) => child.once('exit', r));
    child.kill('SIGTERM');
    await gone;
  };
  await launch();
  return {
    host: '127.0.0.1',
    port,
    user,
    fingerprint: fingerprintOf(`${hostKey}.pub`),
    keyFile: join(dir, 'user_ed25519'),
    wrongKeyFile: join(dir, 'wrong_ed25519'),
    root,
    password,
    connectionPids: () => descendantsOf(child.pid!),
    async changeHostKey() {
      await halt();
      const other = join(dir, `host_other_${Date.now()}`);
      keygen(other);
      writeConfig(other);
      await launch();
      return fingerprintOf(`${other}.pub`);
    },
    async stop() {
      await halt();
      if (passwordUser) spawnSync('userdel', ['--force', passwordUser], { stdio: 'ignore' });
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Direct children of a pid, from /proc (Linux). */
function childrenOf(pid: number): number[] {
  const out: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      if (ppid === pid) out.push(Number(entry));
    } catch {
      // gone meanwhile
    }
  }
  return out;
}

function descendantsOf(pid: number): number[] {
  const direct = childrenOf(pid);
  return [...direct, ...direct.flatMap(descendantsOf)];
}

function tryKill(pid: number): void {
  try {
    process.kill(pid, 'SIGKILL');
  } catch {
    // already gone
  }
}

/** A small tmpfs mounted at `path` (root only); returns its unmount, or null with the reason it could not mount. */
export function mountTinyDisk(path: string, size: string): { unmount: () => void } | { reason: string } {
  mkdirSync(path, { recursive: true });
  const result = spawnSync('mount', ['-t', 'tmpfs', '-o', `size=${size}`, 'tmpfs', path], { encoding: 'utf8' });
  if (result.status !== 0) return { reason: `mount -t tmpfs failed: ${(result.stderr || result.error?.message || '').trim()}` };
  return { unmount: () => void spawnSync('umount', [path]) };
}
