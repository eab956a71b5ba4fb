/**
 * The pipeline by its flags (docs/design.md): src/jobs/ never asks which job it runs. What a job's
 * folder is — closable, fetching prices first — is a flag of the spec (JOB_FLAGS in
 * pipeline-spec.ts), set where a run is asked for (the CLI's commands, the demo). A new job is a
 * row of that table, not a search for every `job === …` in the pipeline.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { JOB_FLAGS } from '../../../src/jobs/pipeline-spec.js';

const ROOT = resolve(fileURLToPath(new URL('.', import.meta.url)), '../../..');
/** `spec.job === 'month-end'`, `job !== 'export'`, `case 'nightly':` over a job … */
const JOB_NAME_TEST = /\bjob\s*[!=]==|[!=]==\s*\S*\bjob\b|['"](?:export|nightly|month-end)['"]\s*[!=]==|switch\s*\(\s*\S*\bjob\s*\)/;

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? sources(join(dir, e.name)) : e.name.endsWith('.ts') ? [join(dir, e.name)] : []));
}

describe('src/jobs/ reads flags, never a job name', () => {
  it('has no comparison with a job name in any of its files', () => {
    const found: string[] = [];
    for (const file of sources(join(ROOT, 'src/jobs'))) {
      readFileSync(file, 'utf8').split('\n').forEach((line, i) => {
        if (JOB_NAME_TEST.test(line) && !line.trimStart().startsWith('*') && !line.trimStart().startsWith('//')) found.push(`${file.slice(ROOT.length + 1)}:${i + 1}: ${line.trim()}`);
      });
    }
    expect(found).toEqual([]);
  });

  it('the pattern would catch what it is for', () => {
    for (const line of ["if (spec.job === 'month-end')", "const a = job !== 'export';", "switch (spec.job) {", "'nightly' === spec.job"]) expect(JOB_NAME_TEST.test(line), line).toBe(true);
    expect(JOB_NAME_TEST.test('const jobDir = join(outRoot, spec.job);')).toBe(false);
  });

  it('each job has its flags: only a month-end closes, an ad hoc export values with the cache as it is', () => {
    expect(JOB_FLAGS).toEqual({ export: { closable: false, fetchesPrices: false }, nightly: { closable: false, fetchesPrices: true }, 'month-end': { closable: true, fetchesPrices: true } });
  });
});
