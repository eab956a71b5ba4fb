/**
 * A gzip'd POSIX ustar archive written file by file (the audit pack, docs/audit.md#the-audit-pack):
 * `tar xzf` on any system reads it, which is why an auditor's copy is a tarball and not a format
 * of ours. Files are streamed from disk into the archive, never held whole. Entries carry a fixed
 * time and owner, so the same files give the same archive.
 */
import { createReadStream, createWriteStream, type WriteStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { once } from 'node:events';
import { createGzip, type Gzip } from 'node:zlib';

const BLOCK = 512;

export class TarGzWriter {
  private readonly gzip: Gzip;
  private readonly out: WriteStream;
  private readonly done: Promise<void>;

  constructor(
    path: string,
    /** entry time, seconds since the epoch */
    private readonly mtime: number,
  ) {
    this.gzip = createGzip();
    this.out = createWriteStream(path, { mode: 0o640, flags: 'wx' });
    this.gzip.pipe(this.out);
    this.done = new Promise((resolve, reject) => {
      this.out.on('finish', () => resolve());
      this.out.on('error', reject);
      this.gzip.on('error', reject);
    });
  }

  async addFile(name: string, source: string): Promise<void> {
    const size = (await stat(source)).size;
    await this.write(header(name, size, this.mtime, 0o644, '0'));
    for await (const chunk of createReadStream(source)) await this.write(chunk as Buffer);
    await this.write(Buffer.alloc((BLOCK - (size % BLOCK)) % BLOCK));
  }

  async addText(name: string, text: string): Promise<void> {
    const bytes = Buffer.from(text, 'utf8');
    await this.write(header(name, bytes.length, this.mtime, 0o644, '0'));
    await this.write(Buffer.concat([bytes, Buffer.alloc((BLOCK - (bytes.length % BLOCK)) % BLOCK)]));
  }

  async addFolder(name: string): Promise<void> {
    await this.write(header(name.endsWith('/') ? name : `${name}/`, 0, this.mtime, 0o755, '5'));
  }

  async close(): Promise<void> {
    await this.write(Buffer.alloc(BLOCK * 2));
    this.gzip.end();
    await this.done;
  }

  private async write(bytes: Buffer): Promise<void> {
    if (!this.gzip.write(bytes)) await once(this.gzip, 'drain');
  }
}

/** A ustar header: a name over 100 bytes is split at a `/` into prefix (≤ 155) and name. */
function header(path: string, size: number, mtime: number, mode: number, type: '0' | '5'): Buffer {
  const block = Buffer.alloc(BLOCK);
  let name = path;
  let prefix = '';
  if (Buffer.byteLength(path) > 100) {
    // the limits are in bytes: a name in UTF-8 may hold fewer characters than that
    let cut = path.lastIndexOf('/');
    while (cut > 0 && Buffer.byteLength(path.slice(0, cut)) > 155) cut = path.lastIndexOf('/', cut - 1);
    if (cut <= 0 || Buffer.byteLength(path.slice(cut + 1)) > 100) throw new Error(`path too long for a tar entry: ${path}`);
    prefix = path.slice(0, cut);
    name = path.slice(cut + 1);
  }
  block.write(name, 0, 100, 'utf8');
  octal(block, 100, 8, mode);
  octal(block, 108, 8, 0);
  octal(block, 116, 8, 0);
  octal(block, 124, 12, size);
  octal(block, 136, 12, mtime);
  block.write('        ', 148, 8, 'ascii');
  block.write(type, 156, 1, 'ascii');
  block.write('ustar\u000000', 257, 8, 'ascii');
  block.write('payexport', 265, 32, 'ascii');
  block.write('payexport', 297, 32, 'ascii');
  block.write(prefix, 345, 155, 'utf8');
  let sum = 0;
  for (const byte of block) sum += byte;
  block.write(`${sum.toString(8).padStart(6, '0')}\u0000 `, 148, 8, 'ascii');
  return block;
}

function octal(block: Buffer, at: number, width: number, value: number): void {
  block.write(`${value.toString(8).padStart(width - 1, '0')}\u0000`, at, width, 'ascii');
}
