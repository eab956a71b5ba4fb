import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { FLAG_KINDS } from '../../../src/normalize/flags.js';
import { CHECKS } from '../../../src/reconcile/catalogue.js';
import { JOURNAL_CHECKS } from '../../../src/reconcile/catalogue/journal.js';
import { LOTS_CHECKS } from '../../../src/reconcile/catalogue/lots.js';
import { RUN_CHECKS } from '../../../src/reconcile/catalogue/run.js';
import { TAX_CHECKS } from '../../../src/reconcile/catalogue/tax.js';

const doc = readFileSync(new URL('../../../docs/reconciliation.md', import.meta.url), 'utf8');

describe('the check catalogue', () => {
  it('has unique ids, each with a severity, a description and a rule', () => {
    const ids = [...CHECKS, ...JOURNAL_CHECKS, ...LOTS_CHECKS, ...TAX_CHECKS, ...RUN_CHECKS].map((c) => c.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const check of [...CHECKS, ...JOURNAL_CHECKS, ...LOTS_CHECKS, ...TAX_CHECKS, ...RUN_CHECKS]) {
      expect(check.description.length).toBeGreaterThan(10);
      expect(check.rule.length).toBeGreaterThan(20);
    }
  });

  it('is documented in docs/reconciliation.md with the same severities', () => {
    for (const check of [...CHECKS, ...JOURNAL_CHECKS, ...LOTS_CHECKS, ...TAX_CHECKS, ...RUN_CHECKS]) expect(doc).toContain(`| \`${check.id}\` | ${check.severity} |`);
  });

  it('documents every flag kind', () => {
    for (const kind of Object.keys(FLAG_KINDS)) expect(doc).toContain(`\`${kind}\``);
  });
});
