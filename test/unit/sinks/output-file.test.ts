import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { CsvTableWriter } from '../../../src/sinks/csv-table-writer.js';
import { outputError } from '../../../src/sinks/output-file.js';
import { compileTable } from '../../../src/sinks/render-cells.js';
import { LEDGER_TABLE } from '../../../src/sinks/tables/index.js';
import { ZonedClock } from '../../../src/model/zoned-time.js';
import { AppError } from '../../../src/util/errors.js';
import { ledgerRow } from '../../support/sinks/rows.js';

const errno = (code: string): NodeJS.ErrnoException => Object.assign(new Error(`${code}: failed`), { code });
const roots: string[] = [];
afterAll(async () => {
  for (const r of roots) await rm(r, { recursive: true, force: true });
});

describe('output errors', () => {
  it.each([
    ['ENOSPC', 'disk_full'],
    ['EDQUOT', 'disk_full'],
    ['EACCES', 'output_not_writable'],
    ['EROFS', 'output_not_writable'],
    ['ENOTDIR', 'output_not_writable'],
    ['EIO', 'output_write_failed'],
  ])('maps %s to exit 74 (%s)', (code, type) => {
    const error = outputError(errno(code), '/out/x.csv') as AppError;
    expect(error).toBeInstanceOf(AppError);
    expect([error.exitCode, error.type]).toEqual([74, type]);
    expect(error.message).toContain('/out/x.csv');
  });

  it('passes errors that are not I/O through (a bug stays a bug)', () => {
    const bug = new TypeError('x is undefined');
    expect(outputError(bug, '/out')).toBe(bug);
  });

  it('a CSV that cannot be created fails its writer with exit 74, without hanging', async () => {
    const root = await mkdtemp(join(tmpdir(), 'payexport-out-'));
    roots.push(root);
    const ctx = { clock: new ZonedClock('UTC'), assetDecimals: new Map<string, number>(), assetNames: new Map<string, string>(), asOf: '2026-11-01T00:00:00.000000Z' };
    const writer = CsvTableWriter.open(compileTable(LEDGER_TABLE, ctx), join(root, 'missing', 'ledger.csv'), { bom: true, eol: 'crlf' });
    const run = async (): Promise<void> => {
      for (let i = 0; i < 50_000; i++) await writer.write(ledgerRow());
      await writer.close();
    };
    await expect(run()).rejects.toMatchObject({ exitCode: 74, type: 'output_not_writable' });
  });
});
