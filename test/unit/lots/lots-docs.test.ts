import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CRYPTO_ASSETS_TABLE } from '../../../src/lots/tables/crypto-assets.js';
import { LOT_RELIEFS_TABLE } from '../../../src/lots/tables/lot-reliefs.js';
import { LOTS_TABLE } from '../../../src/lots/tables/lots.js';
import { COLUMNS_END, COLUMNS_START, columnsMarkdown } from '../../../src/sinks/column-docs.js';
import type { AnyTableSpec } from '../../../src/model/column-spec.js';

const DOC = join(import.meta.dirname, '../../../docs/lots.md');

describe('docs/lots.md', () => {
  it('lists exactly the columns the subledger specs write', async () => {
    const doc = await readFile(DOC, 'utf8');
    const start = doc.indexOf(COLUMNS_START);
    const end = doc.indexOf(COLUMNS_END);
    expect(start, 'the columns:start marker').toBeGreaterThanOrEqual(0);
    expect(end).toBeGreaterThan(start);
    const generated = `${COLUMNS_START}\n\n${columnsMarkdown([LOT_RELIEFS_TABLE, LOTS_TABLE, CRYPTO_ASSETS_TABLE] as unknown as AnyTableSpec[])}\n${COLUMNS_END}`;
    const current = doc.slice(start, end + COLUMNS_END.length);
    if (process.env.UPDATE_DOCS === '1' && current !== generated) await writeFile(DOC, doc.replace(current, generated));
    else expect(current).toBe(generated);
  });
});
