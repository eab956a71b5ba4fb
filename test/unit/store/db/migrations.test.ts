import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadMigrations } from '../../../../src/store/db/migrate.js';
import { quoteIdent, storeSchema } from '../../../../src/store/db/schema.js';

async function withFiles(files: Record<string, string>, check: (dir: string) => void): Promise<void> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'payexport-migrations-'));
  try {
    for (const [name, text] of Object.entries(files)) await writeFile(path.join(dir, name), text);
    check(dir);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

describe('loadMigrations', () => {
  it('finds the shipped migrations next to the module, numbered from 001, with checksums', () => {
    const migrations = loadMigrations();
    expect(migrations[0]).toMatchObject({ version: 1, name: 'initial' });
    expect(migrations.every((migration) => /^[0-9a-f]{64}$/.test(migration.checksum))).toBe(true);
  });

  it('orders by number and refuses gaps and badly named files', async () => {
    await withFiles({ '002_b.sql': 'select 2', '001_a.sql': 'select 1' }, (dir) => {
      expect(loadMigrations(dir).map((migration) => migration.name)).toEqual(['a', 'b']);
    });
    await withFiles({ '001_a.sql': '', '003_c.sql': '' }, (dir) => {
      expect(() => loadMigrations(dir)).toThrow(/without gaps/);
    });
    await withFiles({ '1_a.sql': '' }, (dir) => {
      expect(() => loadMigrations(dir)).toThrow(/NNN_name/);
    });
  });
});

describe('schema names', () => {
  it('are always quoted identifiers, so any name is safe', () => {
    expect(storeSchema('payexport').table('payments')).toBe('"payexport"."payments"');
    expect(storeSchema('Books "2026"; drop').quoted).toBe('"Books ""2026""; drop"');
    expect(() => quoteIdent('')).toThrow();
    expect(() => quoteIdent('x'.repeat(64))).toThrow();
  });
});
