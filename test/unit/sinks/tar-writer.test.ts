import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { TarGzWriter } from '../../../src/sinks/tar-writer.js';
import { pythonForCsv } from '../../support/readers/readers.js';

/**
 * The audit pack's archive writer on its own (docs/audit.md#the-audit-pack), read back by software
 * that shares no code with it: Python's `tarfile` (every member's name, type, size, mode, time and
 * bytes) and GNU `tar` (list and extract). Sizes around the 512-byte block, an empty file, a file
 * larger than a stream chunk, a text entry, folders, a non-ASCII name, a name over 100 bytes (the
 * ustar prefix), one that cannot be split (refused), and the same files giving the same bytes.
 */

const base = mkdtempSync(join(tmpdir(), 'payexport-tar-'));
afterAll(() => rmSync(base, { recursive: true, force: true }));
const MTIME = 1_793_000_000;
const python = pythonForCsv();

const READ_TAR = `
import json, sys, tarfile, hashlib
out = []
with tarfile.open(sys.argv[1], 'r:gz') as t:
    for m in t.getmembers():
        data = t.extractfile(m).read() if m.isfile() else b''
        out.append({'name': m.name, 'dir': m.isdir(), 'file': m.isfile(), 'size': m.size, 'mode': m.mode, 'mtime': m.mtime, 'uid': m.uid, 'uname': m.uname, 'sha256': hashlib.sha256(data).hexdigest()})
print(json.dumps(out))
`;

interface Member {
  name: string;
  dir: boolean;
  file: boolean;
  size: number;
  mode: number;
  mtime: number;
  uid: number;
  uname: string;
  sha256: string;
}

const sha = (bytes: Buffer): string => execFileSync('sha256sum', { input: bytes }).toString().slice(0, 64);
const LONG_DIR = `audit-month-end-2026-10/${'month-end-2026-10.amended-1/'.repeat(3)}chain`;

async function writeArchive(name: string, sources: Record<string, Buffer>): Promise<string> {
  const src = join(base, `${name}-src`);
  mkdirSync(src, { recursive: true });
  const archive = join(base, `${name}.tar.gz`);
  const pack = new TarGzWriter(archive, MTIME);
  await pack.addFolder('audit');
  for (const [entry, bytes] of Object.entries(sources)) {
    const file = join(src, entry.replaceAll('/', '_'));
    writeFileSync(file, bytes);
    await pack.addFile(entry, file);
  }
  await pack.addText('audit/README.txt', 'Checks to reperform — with sha256sum.\n');
  await pack.close();
  return archive;
}

const SOURCES: Record<string, Buffer> = {
  'audit/empty.csv': Buffer.alloc(0),
  'audit/one-block.csv': randomBytes(512),
  'audit/block-and-one.csv': randomBytes(513),
  'audit/just-under.csv': randomBytes(511),
  'audit/large.bin': randomBytes(300_000),
  'audit/café.csv': Buffer.from('a,b\r\n1,2\r\n'),
  // over 155 bytes before the last '/', in fewer characters: the prefix is cut at an earlier '/'
  [`audit/${'é'.repeat(60)}/${'ü'.repeat(20)}/x.csv`]: Buffer.from('é\n'),
  [`${LONG_DIR}/manifest.json`]: Buffer.from('{}\n'),
};

describe('TarGzWriter', () => {
  it.skipIf(python === null)(`Python's tarfile reads every member as written${python === null ? ' — skipped: no python3' : ''}`, async () => {
    const archive = await writeArchive('py', SOURCES);
    const members = JSON.parse(execFileSync(python!, ['-c', READ_TAR, archive]).toString()) as Member[];
    expect(members.map((m) => m.name)).toEqual(['audit', ...Object.keys(SOURCES), 'audit/README.txt']);
    expect(members[0]).toMatchObject({ dir: true, mode: 0o755, mtime: MTIME, uid: 0, uname: 'payexport' });
    for (const [name, bytes] of Object.entries(SOURCES)) {
      expect(members.find((m) => m.name === name), name).toMatchObject({ file: true, size: bytes.length, mode: 0o644, mtime: MTIME, sha256: sha(bytes) });
    }
    expect(members.at(-1)).toMatchObject({ file: true, sha256: sha(Buffer.from('Checks to reperform — with sha256sum.\n')) });
    expect(Buffer.byteLength(`${LONG_DIR}/manifest.json`)).toBeGreaterThan(100);
  });

  it('GNU tar lists and extracts it, byte for byte', async () => {
    const archive = await writeArchive('gnu', SOURCES);
    const listed = execFileSync('tar', ['tzf', archive]).toString().trim().split('\n');
    expect(listed).toEqual(['audit/', ...Object.keys(SOURCES), 'audit/README.txt']);
    const into = join(base, 'gnu-out');
    mkdirSync(into);
    execFileSync('tar', ['xzf', archive, '-C', into]);
    for (const [name, bytes] of Object.entries(SOURCES)) expect(readFileSync(join(into, name)).equals(bytes), name).toBe(true);
    expect(readFileSync(join(into, 'audit', 'README.txt'), 'utf8')).toBe('Checks to reperform — with sha256sum.\n');
  });

  it('the same files give the same archive, byte for byte', async () => {
    const sources = { 'audit/a.csv': Buffer.from('x\n'), 'audit/b.bin': randomBytes(2000) };
    const one = readFileSync(await writeArchive('same-1', sources));
    const two = readFileSync(await writeArchive('same-2', sources));
    expect(one.equals(two)).toBe(true);
  });

  it('a name that no ustar prefix can hold is refused; an archive already there is not overwritten', async () => {
    const file = join(base, 'x.txt');
    writeFileSync(file, 'x');
    const pack = new TarGzWriter(join(base, 'refused.tar.gz'), MTIME);
    await expect(pack.addFile(`audit/${'n'.repeat(120)}.csv`, file)).rejects.toThrow(/path too long for a tar entry/);
    await expect(pack.addFile(`${'d'.repeat(170)}/x.csv`, file)).rejects.toThrow(/path too long for a tar entry/);
    await pack.close();
    const taken = new TarGzWriter(join(base, 'refused.tar.gz'), MTIME);
    await expect(taken.close()).rejects.toThrow(/EEXIST/);
  });
});
