/**
 * What the subledger's closed-period suites share: the demo's journal and lots configuration with
 * its files resolved, a month-end spec in the demo's zone, the lots files a closed month must keep
 * byte for byte, both database engines, and the tie-out a seeded month must pass.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'vitest';
import type { JournalConfig } from '../../../src/config/journal-schema.js';
import type { LotsConfig } from '../../../src/config/lots-schema.js';
import { JOB_FLAGS } from '../../../src/jobs/pipeline-spec.js';
import type { PipelineSpec } from '../../../src/jobs/pipeline.js';
import { monthPeriod } from '../../../src/model/period.js';
import type { PipelineRun } from '../pipeline/run-pipeline.js';
import { readCsvWithPython } from '../readers/readers.js';
import type { PgProbe } from '../store/engines.js';
import { LONG_RUNS } from '../long-runs.js';

const CONFIG_DIR = new URL('../../../config/', import.meta.url);
const demo = JSON.parse(readFileSync(new URL('demo.json', CONFIG_DIR), 'utf8')) as { journal: JournalConfig; lots: LotsConfig };

/** The demo's journal section, its price files found from anywhere. */
export const demoJournal: JournalConfig = { ...demo.journal, prices: demo.journal.prices.map((p) => ({ ...p, file: new URL(p.file, CONFIG_DIR).pathname })) };
/** The demo's lots section; `openingLots` as given, or the demo's own file. */
export function demoLots(openingLots: string = new URL(demo.lots.openingLots as string, CONFIG_DIR).pathname): LotsConfig {
  return { ...demo.lots, openingLots };
}
export const demoOpeningLotsPath = new URL(demo.lots.openingLots as string, CONFIG_DIR).pathname;

const TZ = 'America/New_York';
export const monthEnd = (month: string, closePeriod: boolean): PipelineSpec => ({ command: 'month-end', job: 'month-end', ...JOB_FLAGS['month-end'], period: monthPeriod(month, TZ, new Date()), pull: true, incremental: false, closePeriod, allowOpen: true, dryRun: false });
export const LOTS_FILES = ['lots.csv', 'lot-reliefs.csv', 'form-8949.csv'];

export type Rows = Array<Record<string, string>>;
/** A CSV file as Python's csv module reads it, one record per row. */
export function pythonRows(path: string): Rows {
  const csv = readCsvWithPython(path);
  return csv.rows.map((r) => Object.fromEntries(csv.header.map((h, i) => [h, r[i] ?? ''])));
}

const EMBEDDED_LONG_SKIP = 'long on the embedded engine (minutes of single-threaded WASM); run by `npm run test:faults` (PAYEXPORT_FAULTS_LONG=1)';

/**
 * Both engines. `embedded: 'long'`: the embedded engine's variant runs only with the long runs —
 * for a chain of three or more month-ends over a year of ledger, where the embedded engine takes
 * four to eight times Postgres's time while adding no path first-close.test.ts does not already
 * take on it (recording a close, reading it back).
 */
export function lotEngines(pg: PgProbe, options: { embedded?: 'always' | 'long' } = {}): Array<{ name: string; skip: string | null; flags: (schema: string, dir: string) => { dbSchema?: string; dataDir?: string }; env: () => Record<string, string> }> {
  const embeddedSkip = options.embedded === 'long' && !LONG_RUNS ? EMBEDDED_LONG_SKIP : null;
  return [
    { name: 'Postgres', skip: pg.skipReason, flags: (schema) => ({ dbSchema: schema }), env: () => ({ DATABASE_URL: pg.url ?? '' }) },
    { name: 'the embedded engine', skip: embeddedSkip, flags: (_schema, dir) => ({ dataDir: join(dir, 'data') }), env: () => ({}) },
  ];
}

/** A month whose lots started from a recorded close ties: units, cost and gain checks ran and passed, no lots error. */
export async function expectLotsTie(run: PipelineRun): Promise<void> {
  const manifest = await run.manifest();
  for (const id of ['lots.units_tieout', 'lots.cost_tieout', 'lots.gain_identity']) {
    const check = manifest.checks.find((k) => k.check_id === id);
    expect(check, id).toMatchObject({ passed: true, skipped_reason: null });
    expect(check?.evaluated, id).toBeGreaterThan(0);
  }
  expect((await run.csv('exceptions.csv')).filter((x) => x['check_id']?.startsWith('lots.') && x['severity'] === 'error')).toEqual([]);
}
