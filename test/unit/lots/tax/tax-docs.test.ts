import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FORM_8949_TABLE } from '../../../../src/lots/tables/form-8949.js';
import { FORM_8949_TOTALS_TABLE } from '../../../../src/lots/tables/form-8949-totals.js';
import { FORM_1099DA_RECONCILIATION_TABLE } from '../../../../src/lots/tables/form-1099da-reconciliation.js';
import { TAXACT_TABLE } from '../../../../src/lots/tax/taxact-file.js';
import { ALLOCATION_TABLE } from '../../../../src/lots/tables/allocation-statement.js';
import { COLUMNS_END, COLUMNS_START, columnsMarkdown } from '../../../../src/sinks/column-docs.js';
import type { AnyTableSpec } from '../../../../src/model/column-spec.js';

const DOC = join(import.meta.dirname, '../../../../docs/tax.md');

describe('docs/tax.md', () => {
  it('lists exactly the columns the tax files write', async () => {
    const doc = await readFile(DOC, 'utf8');
    const start = doc.indexOf(COLUMNS_START);
    const end = doc.indexOf(COLUMNS_END);
    expect(start, 'the columns:start marker').toBeGreaterThanOrEqual(0);
    expect(end).toBeGreaterThan(start);
    const generated = `${COLUMNS_START}\n\n${columnsMarkdown([FORM_8949_TABLE, FORM_8949_TOTALS_TABLE, TAXACT_TABLE, FORM_1099DA_RECONCILIATION_TABLE, ALLOCATION_TABLE] as unknown as AnyTableSpec[])}\n${COLUMNS_END}`;
    const current = doc.slice(start, end + COLUMNS_END.length);
    if (process.env.UPDATE_DOCS === '1' && current !== generated) await writeFile(DOC, doc.replace(current, generated));
    else expect(current).toBe(generated);
  });
});
