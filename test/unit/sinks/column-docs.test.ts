import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { COLUMNS_END, COLUMNS_START, columnsMarkdown } from '../../../src/sinks/column-docs.js';

const DOC = join(import.meta.dirname, '../../../docs/reports.md');

describe('docs/reports.md', () => {
  it('lists exactly the columns the specs write', async () => {
    const doc = await readFile(DOC, 'utf8');
    const start = doc.indexOf(COLUMNS_START);
    const end = doc.indexOf(COLUMNS_END);
    expect(start, 'the columns:start marker').toBeGreaterThanOrEqual(0);
    expect(end).toBeGreaterThan(start);
    const generated = `${COLUMNS_START}\n\n${columnsMarkdown()}\n${COLUMNS_END}`;
    const current = doc.slice(start, end + COLUMNS_END.length);
    if (process.env.UPDATE_DOCS === '1' && current !== generated) await writeFile(DOC, doc.replace(current, generated));
    else expect(current).toBe(generated);
  });
});
