import { execFileSync } from 'node:child_process';
import { createHash, createPrivateKey, generateKeyPairSync, sign } from 'node:crypto';
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assertBuilt, describeRun, runCli, type CliResult } from '../support/cli/cli.js';
import { PLANTED_SECRETS, startTestSim, type TestSim } from '../support/cli/sim.js';
import { workspace } from '../support/cli/workspace.js';

/**
 * Evidence an auditor can reperform (docs/audit.md), through the real command line: three months
 * closed under one root (the key rotated before the third, whose first attempt is SIGKILLed between
 * writing and publishing), then the root tampered with as an auditor would try it — a CSV byte, a
 * manifest re-hashed by hand, a manifest signed with another key, a middle month removed, an older
 * run put in place of a close, a page taken out of the evidence — each named by `verify --chain` in
 * its one line (exit 65); a SIGKILL just after a close is published (the close happened) leaves a chain
 * that verifies too; and the audit pack's README run command by command, as written.
 */

const NOW = '2026-12-05T12:00:00Z';
const ws = workspace('audit-chain');
let sim: TestSim;
let cwd: string;
let books: string;

const keyFile = (): string => join(cwd, '.config', 'payexport', 'signing-key.pem');
const retiredKey = (): string => join(cwd, '.config', 'payexport', 'signing-key.retired.pem');
const keysOf = (root: string): string[] => readdirSync(join(root, '.audit', 'keys')).sort();
const env = (extra: Record<string, string> = {}): Record<string, string> => ({ ...sim.env('token'), PAYEXPORT_NOW: NOW, ...extra });
const monthEnd = (month: string, out: string): string[] => ['month-end', '--month', month, '--allow-open', '--out', out, '--no-db', '--format', 'csv', '--page-size', '40', '--log-format', 'json'];

async function close(month: string, out: string, extra: Record<string, string> = {}): Promise<CliResult> {
  const args = monthEnd(month, out);
  const result = await runCli(args, { cwd, env: env(extra) });
  expect([0, 65], describeRun(args, result)).toContain(result.code);
  expect(existsSync(join(out, 'month-end', month, 'manifest.json.sig')), describeRun(args, result)).toBe(true);
  return result;
}

async function verifyChain(root: string, ...keys: string[]): Promise<CliResult> {
  return runCli(['verify', '--chain', root, ...keys.flatMap((k) => ['--key', k])], { cwd, env: {} });
}

function expectBreak(result: CliResult, line: RegExp): void {
  expect(result.code, `${result.stdout}\n${result.stderr}`).toBe(65);
  const lines = result.stderr.split('\n').filter((l) => l !== '');
  expect(lines, result.stderr).toHaveLength(1);
  expect(lines[0]).toMatch(line);
}

/** A copy of the books to tamper with. */
function copyOfBooks(name: string): string {
  const dir = join(cwd, name);
  cpSync(books, dir, { recursive: true });
  return dir;
}

function sha256(bytes: Buffer | string): string {
  return createHash('sha256').update(bytes).digest('hex');
}

/** Re-hashes `file` in the folder's manifest, as someone editing by hand would; returns the new manifest bytes. */
function rehash(folder: string, file: string): Buffer {
  const manifest = JSON.parse(readFileSync(join(folder, 'manifest.json'), 'utf8')) as { files: Array<{ path: string; bytes: number; sha256: string }> };
  const bytes = readFileSync(join(folder, file));
  const entry = manifest.files.find((f) => f.path === file);
  if (entry === undefined) throw new Error(`${file} not in the manifest`);
  entry.bytes = bytes.length;
  entry.sha256 = sha256(bytes);
  const text = Buffer.from(`${JSON.stringify(manifest, null, 2)}\n`);
  writeFileSync(join(folder, 'manifest.json'), text);
  return text;
}

function flipByte(path: string, at: number): void {
  const bytes = readFileSync(path);
  bytes[at] = bytes[at] === 0x31 ? 0x32 : 0x31;
  writeFileSync(path, bytes);
}

beforeAll(async () => {
  assertBuilt();
  sim = await startTestSim();
  cwd = ws.fresh('books');
  books = join(cwd, 'books');
  await close('2026-09', books);
  await close('2026-10', books);
  // a key rotation: the old key set aside (its public half stays under the root); the next close makes a new one
  renameSync(keyFile(), retiredKey());
  const killed = await runCli(monthEnd('2026-11', books), { cwd, env: env({ PAYEXPORT_FAULT_AT: 'report:publish' }) });
  expect(killed.signal, describeRun(monthEnd('2026-11', books), killed)).toBe('SIGKILL');
}, 600_000);

afterAll(async () => {
  await sim?.close();
  ws.remove();
});

describe('signed manifests and the chain of closes', () => {
  it('a SIGKILL during a close leaves a chain that verifies (the close did not happen); the rerun closes and the chain takes it', async () => {
    expect(existsSync(join(books, 'month-end', '2026-11'))).toBe(false);
    const before = await verifyChain(books);
    expect(before.code, before.stderr).toBe(0);
    expect(before.stdout).toMatch(/2 folder\(s\), 2 close\(s\) and 0 amendment\(s\) in order \(month-end ends at 2026-10 #2, manifest sha256 [0-9a-f]{64}\); 1 key\(s\) checked/);
    await close('2026-11', books);
    const after = await verifyChain(books);
    expect(after.code, after.stderr).toBe(0);
    expect(after.stdout).toMatch(/3 folder\(s\), 3 close\(s\) and 0 amendment\(s\) in order \(month-end ends at 2026-11 #3, .*\); 2 key\(s\) checked: ed25519:[0-9a-f]{16}, ed25519:[0-9a-f]{16}, from the keys kept in/);
  }, 300_000);

  it('a SIGKILL just after a close is published leaves a chain that verifies (the close happened); the rerun adds nothing to it', async () => {
    // November closed again in a copy of the books without it (and without the snapshot that remembers it)
    const dir = copyOfBooks('killed-published');
    rmSync(join(dir, 'month-end', '2026-11'), { recursive: true });
    rmSync(join(dir, '.state'), { recursive: true, force: true });
    const killed = await runCli(monthEnd('2026-11', dir), { cwd, env: env({ PAYEXPORT_FAULT_AT: 'report:published' }) });
    expect(killed.signal, describeRun(monthEnd('2026-11', dir), killed)).toBe('SIGKILL');
    expect(readdirSync(join(dir, 'month-end')).sort()).toEqual(['2026-09', '2026-10', '2026-11']);
    const closed = await verifyChain(dir);
    expect(closed.code, closed.stderr).toBe(0);
    expect(closed.stdout).toMatch(/3 folder\(s\), 3 close\(s\) and 0 amendment\(s\) in order \(month-end ends at 2026-11 #3, manifest sha256 [0-9a-f]{64}\)/);
    const head = /manifest sha256 ([0-9a-f]{64})/.exec(closed.stdout)?.[1];
    // the same command again: the folder is the close; the same data writes nothing, so the chain keeps its head
    const again = await runCli(monthEnd('2026-11', dir), { cwd, env: env() });
    expect([0, 65], describeRun(monthEnd('2026-11', dir), again)).toContain(again.code);
    const after = await verifyChain(dir);
    expect(after.code, after.stderr).toBe(0);
    expect(after.stdout).toContain(`3 close(s) and 0 amendment(s) in order (month-end ends at 2026-11 #3, manifest sha256 ${head ?? '?'})`);
  }, 300_000);

  it('keeps the key like the API key: 0600 in the user configuration folder, never under the root or in any output', () => {
    expect(statSync(keyFile()).mode & 0o777).toBe(0o600);
    expect(statSync(join(cwd, '.config', 'payexport')).mode & 0o777).toBe(0o700);
    const secrets = [keyFile(), retiredKey()].map((f) => readFileSync(f, 'utf8').split('\n').slice(1, -2).join(''));
    const everything = execFileSync('bash', ['-c', `cat $(find ${books} -type f)`], { maxBuffer: 1 << 28 }).toString('latin1');
    for (const secret of [...secrets, ...PLANTED_SECRETS]) expect(everything.includes(secret), 'a secret under the root').toBe(false);
    expect(keysOf(books)).toHaveLength(2);
  });

  it('each manifest verifies with openssl against the public key kept under the root, and the key id is the sha256 of its DER', () => {
    for (const month of ['2026-09', '2026-10', '2026-11']) {
      const dir = join(books, 'month-end', month);
      const id = (JSON.parse(readFileSync(join(dir, 'manifest.json'), 'utf8')) as { signature: { key_id: string } }).signature.key_id;
      const pem = join(books, '.audit', 'keys', `${id.replace(':', '-')}.pem`);
      const out = execFileSync('openssl', ['pkeyutl', '-verify', '-pubin', '-inkey', pem, '-rawin', '-in', join(dir, 'manifest.json'), '-sigfile', join(dir, 'manifest.json.sig')]).toString();
      expect(out).toMatch(/Signature Verified Successfully/);
      const der = execFileSync('openssl', ['pkey', '-pubin', '-in', pem, '-outform', 'DER']);
      expect(`ed25519:${sha256(der).slice(0, 16)}`).toBe(id);
    }
  });

  it('key rotation: both public keys given verify every close; the old one alone names the first close the new key signed', async () => {
    const keys = keysOf(books).map((k) => join(books, '.audit', 'keys', k));
    const both = await verifyChain(books, ...keys);
    expect(both.code, both.stderr).toBe(0);
    expect(both.stdout).toMatch(/from the keys given with --key/);
    const oldId = (JSON.parse(readFileSync(join(books, 'month-end', '2026-09', 'manifest.json'), 'utf8')) as { signature: { key_id: string } }).signature.key_id;
    const oldOnly = keys.filter((k) => k.includes(oldId.replace(':', '-')));
    expectBreak(await verifyChain(books, ...oldOnly), /^payexport: month-end\/2026-11: signed by key ed25519:[0-9a-f]{16}, which is not among the trusted keys \(ed25519:/);
  });

  it('a changed byte in a CSV', async () => {
    const dir = copyOfBooks('csv-byte');
    flipByte(join(dir, 'month-end', '2026-10', 'payments.csv'), 400);
    expectBreak(await verifyChain(dir), /^payexport: month-end\/2026-10: payments\.csv does not match the manifest \(sha256: content differs/);
  });

  it('a manifest changed and re-hashed by hand', async () => {
    const dir = copyOfBooks('rehashed');
    const folder = join(dir, 'month-end', '2026-10');
    flipByte(join(folder, 'payments.csv'), 400);
    rehash(folder, 'payments.csv');
    expectBreak(await verifyChain(dir), /^payexport: month-end\/2026-10: manifest\.json\.sig is not key ed25519:[0-9a-f]{16}'s signature of manifest\.json \(the manifest changed after signing/);
  });

  it('a manifest signed with another key: under the key id it names, or under its own id with its public key planted beside the books', async () => {
    const dir = copyOfBooks('other-key');
    const folder = join(dir, 'month-end', '2026-10');
    flipByte(join(folder, 'payments.csv'), 400);
    const { privateKey, publicKey } = generateKeyPairSync('ed25519');
    writeFileSync(join(folder, 'manifest.json.sig'), sign(null, rehash(folder, 'payments.csv'), privateKey));
    expectBreak(await verifyChain(dir), /^payexport: month-end\/2026-10: manifest\.json\.sig is not key ed25519:[0-9a-f]{16}'s signature/);

    // the forger names their own key and leaves its public half under the root: the keys handed over still catch it
    const trusted = keysOf(books).map((k) => join(books, '.audit', 'keys', k));
    const manifest = JSON.parse(readFileSync(join(folder, 'manifest.json'), 'utf8')) as { signature: { key_id: string } };
    const forgedId = `ed25519:${sha256(publicKey.export({ type: 'spki', format: 'der' })).slice(0, 16)}`;
    manifest.signature.key_id = forgedId;
    const text = Buffer.from(`${JSON.stringify(manifest, null, 2)}\n`);
    writeFileSync(join(folder, 'manifest.json'), text);
    writeFileSync(join(folder, 'manifest.json.sig'), sign(null, text, privateKey));
    writeFileSync(join(dir, '.audit', 'keys', `${forgedId.replace(':', '-')}.pem`), publicKey.export({ type: 'spki', format: 'pem' }));
    // the forged manifest's sha256 is not the one November's close recorded: the chain names it
    expectBreak(await verifyChain(dir), /^payexport: month-end\/2026-11 \(record #3\): follows month-end\/2026-10 with manifest sha256 [0-9a-f]{16}…, but that folder's manifest is [0-9a-f]{16}… \(another run put in its place\)$/);
    expectBreak(await verifyChain(dir, ...trusted), new RegExp(`^payexport: month-end/2026-10: signed by key ${forgedId}, which is not among the trusted keys`));
  });

  it('a closed month removed from the middle', async () => {
    const dir = copyOfBooks('removed');
    rmSync(join(dir, 'month-end', '2026-10'), { recursive: true });
    expectBreak(await verifyChain(dir), /^payexport: month-end\/2026-11 \(record #3\): follows month-end\/2026-10, which is not under the root \(a closed folder removed or renamed\)$/);
  });

  it('an older run put back in place of a close', async () => {
    // another close of October, signed by the same key and whole in itself, published after September's in a copy of the books
    const older = join(cwd, 'older');
    cpSync(books, older, { recursive: true });
    for (const gone of ['2026-10', '2026-11']) rmSync(join(older, 'month-end', gone), { recursive: true });
    rmSync(join(older, '.state'), { recursive: true, force: true });
    renameSync(retiredKey(), keyFile());
    try {
      await close('2026-10', older);
    } finally {
      renameSync(keyFile(), retiredKey());
    }
    const dir = copyOfBooks('swapped');
    rmSync(join(dir, 'month-end', '2026-10'), { recursive: true });
    cpSync(join(older, 'month-end', '2026-10'), join(dir, 'month-end', '2026-10'), { recursive: true });
    expectBreak(await verifyChain(dir), /^payexport: month-end\/2026-11 \(record #3\): follows month-end\/2026-10 with manifest sha256 [0-9a-f]{16}…, but that folder's manifest is [0-9a-f]{16}… \(another run put in its place\)$/);
  }, 300_000);

  it('a page removed from the evidence: its sha256 no longer matches; signed again with the installation key, the gap in the list is named', async () => {
    const dir = copyOfBooks('page-removed');
    const folder = join(dir, 'month-end', '2026-10');
    const lines = readFileSync(join(folder, 'evidence.jsonl'), 'utf8').split('\n');
    // the second page of a list of three pages or more (a list: its path and filters, the position parameters left out)
    const lists = new Map<string, number[]>();
    lines.forEach((l, i) => {
      if (!l.includes('"t":"request"') || !/"items":\d/.test(l)) return;
      const r = JSON.parse(l) as { path: string; params: Array<[string, string]> };
      const key = `${r.path}?${JSON.stringify(r.params.filter(([k]) => !['cursor', 'offset', 'limit', 'pagination'].includes(k)))}`;
      lists.set(key, [...(lists.get(key) ?? []), i]);
    });
    const middle = [...lists.values()].find((at) => at.length >= 3)?.[1] ?? -1;
    expect(middle, 'a list of three pages or more at --page-size 40').toBeGreaterThan(0);
    writeFileSync(join(folder, 'evidence.jsonl'), lines.filter((_, i) => i !== middle).join('\n'));
    expectBreak(await verifyChain(dir), /^payexport: month-end\/2026-10: evidence\.jsonl does not match the manifest \(bytes: size differs/);

    const text = rehash(folder, 'evidence.jsonl');
    writeFileSync(join(folder, 'manifest.json.sig'), sign(null, text, createPrivateKey(readFileSync(retiredKey()))));
    expectBreak(await verifyChain(dir), /^payexport: month-end\/2026-10: evidence\.jsonl: a page of \/organizations\/.* is missing: line \d+ reads (cursor|offset) .*, but the page before it \(line \d+\) named (cursor|offset) /);
  });

  it('the evidence holds every request of the run, with the sha256 of its body, and no credential', () => {
    const folder = join(books, 'month-end', '2026-10');
    const manifest = JSON.parse(readFileSync(join(folder, 'manifest.json'), 'utf8')) as { run_id: string; counts: Record<string, number> };
    const records = readFileSync(join(folder, 'evidence.jsonl'), 'utf8').split('\n').filter((l) => l !== '').map((l) => JSON.parse(l) as Record<string, unknown>);
    const requests = records.filter((r) => r['t'] === 'request' && r['run'] === manifest.run_id);
    expect(requests).toHaveLength(manifest.counts['api_requests'] ?? -1);
    expect(requests.every((r) => typeof r['sha256'] === 'string' && /^[0-9a-f]{64}$/.test(r['sha256'] as string))).toBe(true);
    expect(records.filter((r) => r['t'] === 'compared').length).toBeGreaterThan(0);
    const text = JSON.stringify(records);
    for (const secret of PLANTED_SECRETS) expect(text.includes(secret)).toBe(false);
  });
});

describe('audit-pack', () => {
  it("writes one archive whose README's every command runs as written and says what the manifest says", async () => {
    const archive = join(cwd, 'october.tar.gz');
    const packed = await runCli(['audit-pack', '--month', '2026-10', '--out', books, '--archive', archive], { cwd, env: {} });
    expect(packed.code, packed.stderr).toBe(0);
    expect(packed.stdout).toMatch(/^chain verified under /m);
    const into = join(cwd, 'unpacked');
    mkdirSync(into);
    execFileSync('tar', ['xzf', archive, '-C', into]);
    const top = join(into, 'audit-month-end-2026-10');
    const readme = readFileSync(join(top, 'README.txt'), 'utf8');
    const commands = readme.split('\n').filter((l) => l.startsWith('$ ')).map((l) => l.slice(2));
    expect(commands.length).toBeGreaterThanOrEqual(7);
    for (const command of commands) {
      const out = execFileSync('bash', ['-c', command], { cwd: top }).toString();
      if (command.startsWith('openssl pkeyutl')) expect(out).toMatch(/^Signature Verified Successfully$/m);
      if (command.includes('sha256sum -c')) expect(out.trim().split('\n').every((l) => l.endsWith(': OK'))).toBe(true);
      for (const [, counted, said] of out.matchAll(/(\d+) (?:records|requests on record); the manifest says (\d+)/g)) expect(counted).toBe(said);
      for (const [, counted, said] of out.matchAll(/(\d+) requests on record of run \S+; its end line says (\d+)/g)) expect(counted).toBe(said);
      if (command.startsWith('openssl pkey -pubin')) expect(readme).toContain(`ed25519-${out.slice(0, 16)}`);
    }
    expect(readFileSync(join(top, 'verify-chain.txt'), 'utf8')).toMatch(/3 close\(s\)/);
  }, 120_000);
});
