import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';

/**
 * Unpacks a gzipped ustar archive of directories and regular files into `target` (the embedded
 * engine's data-folder template: ~1,000 entries, 39 MB unpacked). Done here rather than by PGlite's
 * `loadDataDir`, which needs a second engine in the process, whose memory stayed resident
 * for the rest of the run (docs/benchmarks.md#the-embedded-engine).
 */
export function untarGz(archive: Uint8Array, target: string): void {
  const tar = gunzipSync(archive);
  const root = path.resolve(target);
  mkdirSync(root, { recursive: true, mode: 0o700 });
  for (let at = 0; at + 512 <= tar.length; ) {
    const header = tar.subarray(at, at + 512);
    if (header.every((byte) => byte === 0)) break;
    const field = (from: number, to: number): string => header.subarray(from, to).toString('utf8').replace(/\0.*$/s, '');
    const name = [field(345, 500), field(0, 100)].filter((part) => part !== '').join('/');
    const size = Number.parseInt(field(124, 136).trim() || '0', 8);
    const type = field(156, 157);
    const file = path.resolve(root, `.${path.sep}${name}`);
    if (file !== root && !file.startsWith(root + path.sep)) throw new Error(`template entry ${name} lies outside the data folder`);
    at += 512;
    if (type === '5') mkdirSync(file, { recursive: true, mode: 0o700 });
    else if (type === '0' || type === '') {
      mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
      writeFileSync(file, tar.subarray(at, at + size), { mode: 0o600 });
    } else throw new Error(`template entry ${name}: unsupported tar type ${JSON.stringify(type)}`);
    at += Math.ceil(size / 512) * 512;
  }
}
