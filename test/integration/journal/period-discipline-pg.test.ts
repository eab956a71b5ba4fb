/**
 * Period discipline on the real Postgres snapshot: a closed month's journal is recorded
 * (journal_entries / journal_lines); a re-run with the same figures writes nothing new (no amended
 * folder); when the figures change after the close (here: a corrected price file) the amended
 * folder's ledger and ERP files hold only a reversal of what was exported and a replacement, both
 * dated on the first open day, with entry numbers derived from the original ones — and bean-check
 * and hledger still accept them.
 */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { JournalConfig } from '../../../src/config/journal-schema.js';
import { JOB_FLAGS } from '../../../src/jobs/pipeline-spec.js';
import type { PipelineSpec } from '../../../src/jobs/pipeline.js';
import { startSimulator, type SimHandle } from '../../../src/sim/index.js';
import { openPostgres } from '../../../src/store/db/pg-db.js';
import { monthPeriod } from '../../../src/model/period.js';
import { beanCheck, hledgerCheck, ledgerToolsMissing } from '../../support/journal/ledger-tools.js';
import { readCsvWithPython, readersMissing } from '../../support/readers/readers.js';
import { runAgainstSimulator } from '../../support/pipeline/run-pipeline.js';
import { dropSchema, probePostgres, uniqueSchemaName } from '../../support/store/engines.js';

const pg = await probePostgres();
const skip = pg.skipReason ?? ledgerToolsMissing() ?? readersMissing('csv');
const CONFIG_DIR = new URL('../../../config/', import.meta.url);
const demo = JSON.parse(readFileSync(new URL('demo.json', CONFIG_DIR), 'utf8')) as { journal: JournalConfig };
const TZ = 'America/New_York';
const spec = (): PipelineSpec => ({ command: 'month-end', job: 'month-end', ...JOB_FLAGS['month-end'], period: monthPeriod('2026-10', TZ, new Date()), pull: true, incremental: false, closePeriod: true, allowOpen: true, dryRun: false });

describe.skipIf(skip !== null)(`closed periods on the Postgres snapshot${skip ? ` (skipped: ${skip})` : ''}`, () => {
  let sim: SimHandle;
  let dir: string;
  const schema = uniqueSchemaName('journal');
  let btcPrices: string;

  const journal = (): JournalConfig => ({
    ...demo.journal,
    formats: ['beancount', 'hledger', 'csv', 'qbo'],
    prices: demo.journal.prices.map((p) => ({ ...p, file: p.currency === 'btc' ? btcPrices : new URL(p.file, CONFIG_DIR).pathname })),
  });
  const monthEnd = () => runAgainstSimulator({ sim, spec: spec(), tz: TZ, flags: { dbSchema: schema, out: join(dir, 'reports'), journal: journal() }, env: { DATABASE_URL: pg.url ?? '' } });
  const exported = async (): Promise<{ entries: number; corrected: number }> => {
    const db = await openPostgres({ url: pg.url ?? '' });
    try {
      const { rows } = await db.query<{ n: string; c: string }>(`SELECT count(*)::text AS n, count(*) FILTER (WHERE corrections > 0)::text AS c FROM "${schema}".journal_entries WHERE status = 'exported'`);
      return { entries: Number(rows[0]?.n), corrected: Number(rows[0]?.c) };
    } finally {
      await db.close();
    }
  };

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'payexport-journal-close-'));
    btcPrices = join(dir, 'btc-usd.csv');
    await writeFile(btcPrices, await readFile(new URL('demo-prices-btc-usd.csv', CONFIG_DIR), 'utf8'));
    sim = await startSimulator({ seed: 7, scale: 600, wallets: 12 });
  });
  afterAll(async () => {
    await sim?.close();
    if (dir) await rm(dir, { recursive: true, force: true });
    if (pg.url !== null) {
      const db = await openPostgres({ url: pg.url });
      await dropSchema(db, schema).finally(() => db.close());
    }
  });

  it('records the closed month, re-emits nothing for the same figures, and posts reversal + replacement when they change', async () => {
    const first = await monthEnd();
    expect(first.outcome.exitCode).toBe(0);
    expect(first.dir.endsWith('/2026-10')).toBe(true);
    const recorded = await exported();
    expect(recorded.entries).toBe(first.outcome.report!.journal!.entries);
    expect(recorded.corrected).toBe(0);

    // same figures: the closed month is unchanged, no amended folder, nothing recorded twice
    const again = await monthEnd();
    expect(again.outcome.report!.publish.unchanged).toBe(true);
    expect(again.outcome.report!.journal!.discipline).toMatchObject({ unchanged: recorded.entries, corrected: 0, late: 0 });
    expect(await exported()).toEqual(recorded);

    // the BTC prices are corrected after the close: every BTC entry changes, USD entries do not
    const shifted = (await readFile(btcPrices, 'utf8')).replace(/,(\d+)\.(\d\d)$/gm, (_m, whole: string, cents: string) => `,${Number(whole) + 1000}.${cents}`);
    await writeFile(btcPrices, shifted);
    const amended = await monthEnd();
    expect(amended.outcome.exitCode).toBe(0);
    expect(amended.dir.endsWith('/2026-10.amended-1')).toBe(true);
    const counts = amended.outcome.report!.journal!.discipline!;
    expect(counts.corrected).toBeGreaterThan(0);
    expect(counts.unchanged).toBeGreaterThan(0);
    expect(counts.unchanged + counts.corrected).toBe(recorded.entries);

    const beancount = join(amended.dir, 'journal.beancount');
    expect(beanCheck(beancount).code, beanCheck(beancount).stderr).toBe(0);
    expect(hledgerCheck(join(amended.dir, 'journal.hledger')).code).toBe(0);
    const qbo = readCsvWithPython(join(amended.dir, 'journal-qbo.csv'));
    const numbers = new Set(qbo.rows.map((r) => r[0]!));
    // only corrections, in pairs, on the first open day (1 November in New York)
    expect(numbers.size).toBe(2 * counts.corrected);
    for (const no of numbers) {
      // the corrected entry's own number (the close's: a re-run numbers the month as its close did) and the suffix
      expect(no).toMatch(/^JE-2026-10-\d{5}-[RC]1$/);
      expect(no.length).toBeLessThanOrEqual(21);
      expect(numbers.has(no.replace(/-R1$/, '-C1').replace(/-C1$/, '-R1'))).toBe(true);
    }
    expect(new Set(qbo.rows.map((r) => r[1]))).toEqual(new Set(['11/01/2026']));
    // a reversal undoes exactly what the first folder exported
    const original = readCsvWithPython(join(first.dir, 'journal-qbo.csv'));
    const some = [...numbers].find((n) => n.endsWith('-R1'))!;
    const base = some.slice(0, -3);
    const flip = (rows: string[][]): string[] => rows.map((r) => `${r[2]}|${r[4]}|${r[3]}`).sort();
    expect(flip(qbo.rows.filter((r) => r[0] === some))).toEqual(original.rows.filter((r) => r[0] === base).map((r) => `${r[2]}|${r[3]}|${r[4]}`).sort());
    expect(await exported()).toEqual({ entries: recorded.entries, corrected: counts.corrected });

    // the corrected figures are now the exported ones: nothing new again
    const settled = await monthEnd();
    expect(settled.outcome.report!.publish.unchanged).toBe(true);
    expect(settled.outcome.report!.journal!.discipline).toMatchObject({ corrected: 0, late: 0 });
  }, 600_000);
});
