/**
 * One streaming text file of a report folder that is not a table (a Beancount or hledger
 * journal): chunks → sha256/byte tap → a 0640 file flushed to disk on close, with backpressure,
 * so a journal of any size is written in constant memory.
 */
import { PassThrough } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createOutputStream, HashTap, outputError } from './output-file.js';
import type { FileResult } from './csv-table-writer.js';

const BUFFER_BYTES = 64 * 1024;

export class TextFileWriter {
  private readonly input = new PassThrough({ highWaterMark: BUFFER_BYTES });
  private readonly tap = new HashTap({ highWaterMark: BUFFER_BYTES });
  private readonly done: Promise<void>;
  private failure: unknown = undefined;
  private closed = false;

  constructor(private readonly path: string) {
    this.done = pipeline(this.input, this.tap, createOutputStream(path, BUFFER_BYTES)).catch((error: unknown) => {
      this.failure = outputError(error, path);
      throw this.failure;
    });
    this.done.catch(() => undefined);
  }

  /** Writes text; the returned promise (only when the buffer is full) resolves on drain. */
  write(text: string): Promise<void> | undefined {
    if (this.failure !== undefined) return Promise.reject(this.failure);
    if (this.closed) return Promise.reject(new Error(`${this.path} is closed`));
    if (this.input.write(text, 'utf8')) return undefined;
    return new Promise<void>((resolve, reject) => {
      const onDrain = (): void => {
        this.input.off('close', onClose);
        resolve();
      };
      const onClose = (): void => {
        this.input.off('drain', onDrain);
        this.done.then(() => reject(new Error(`${this.path} closed while writing`)), reject);
      };
      this.input.once('drain', onDrain);
      this.input.once('close', onClose);
    });
  }

  /** `rows` is what the manifest records (entries, lines: the caller says). */
  async close(rows: number): Promise<FileResult> {
    if (this.closed) throw new Error(`${this.path} is already closed`);
    this.closed = true;
    this.input.end();
    await this.done;
    return { rows, bytes: this.tap.bytes, sha256: this.tap.digest() };
  }

  async abort(): Promise<void> {
    this.closed = true;
    this.input.destroy();
    await this.done.catch(() => undefined);
  }
}
