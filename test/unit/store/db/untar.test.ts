import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import { untarGz } from '../../../../src/store/db/untar.js';

const root = mkdtempSync(path.join(os.tmpdir(), 'payexport-untar-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

/** Every file under `dir` with its bytes, as relative path → base64. */
function tree(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const entry of readdirSync(dir, { recursive: true, withFileTypes: true })) {
    if (entry.isFile()) out[path.relative(dir, path.join(entry.parentPath, entry.name))] = readFileSync(path.join(entry.parentPath, entry.name)).toString('base64');
  }
  return out;
}

/** A one-entry ustar archive written by hand (name, type, data), gzipped. */
function oneEntry(name: string, type: string, data: Buffer): Buffer {
  const header = Buffer.alloc(512);
  header.write(name, 0, 'utf8');
  header.write('0000600\0', 100);
  header.write(`${data.length.toString(8).padStart(11, '0')}\0`, 124);
  header.write(type, 156);
  header.write('ustar\0', 257);
  const body = Buffer.alloc(Math.ceil(data.length / 512) * 512);
  data.copy(body);
  return gzipSync(Buffer.concat([header, body, Buffer.alloc(1024)]));
}

describe('untarGz (the embedded engine unpacks its data-folder template)', () => {
  it('reproduces directories, empty files and binary files exactly as tar packed them', () => {
    const source = path.join(root, 'source');
    mkdirSync(path.join(source, 'base', '1'), { recursive: true });
    mkdirSync(path.join(source, 'pg_wal', 'archive_status'), { recursive: true });
    writeFileSync(path.join(source, 'PG_VERSION'), '18\n');
    writeFileSync(path.join(source, 'base', '1', '1259'), Buffer.from(Array.from({ length: 8192 * 3 + 17 }, (_, i) => (i * 31) % 256)));
    writeFileSync(path.join(source, 'base', '1', 'empty'), '');
    const archive = path.join(root, 'source.tar.gz');
    execFileSync('tar', ['czf', archive, '-C', source, '.']);

    const target = path.join(root, 'target');
    untarGz(readFileSync(archive), target);
    expect(tree(target)).toEqual(tree(source));
    expect(readdirSync(path.join(target, 'pg_wal'))).toEqual(['archive_status']);
  });

  it('refuses an entry that would land outside the folder, and an entry type it does not know', () => {
    expect(() => untarGz(oneEntry('../escaped', '0', Buffer.from('x')), path.join(root, 'evil'))).toThrow(/outside the data folder/);
    expect(() => untarGz(oneEntry('link', '2', Buffer.alloc(0)), path.join(root, 'evil2'))).toThrow(/unsupported tar type "2"/);
  });
});
