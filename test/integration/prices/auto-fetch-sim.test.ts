/**
 * `prices.autoFetch` in the real pipeline against the simulator, with the demo mapping and no BTC
 * price file: when every source of the policy fails, the month-end still publishes its files, the
 * failure is a `journal.price_fetch_failed` finding naming each source, and every BTC movement is
 * a `journal.needs_price` (exit 65) — never valued with nothing, never a stopped run. With one
 * source withholding hours, the next source of the policy values them.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { JournalConfig } from '../../../src/config/journal-schema.js';
import { JOB_FLAGS } from '../../../src/jobs/pipeline-spec.js';
import type { PipelineSpec } from '../../../src/jobs/pipeline.js';
import { monthPeriod } from '../../../src/model/period.js';
import { startSimulator, type SimHandle } from '../../../src/sim/index.js';
import { runAgainstSimulator } from '../../support/pipeline/run-pipeline.js';
import { serveFakePriceSources } from '../../support/prices/fake-price-sources.js';

const CONFIG_DIR = new URL('../../../config/', import.meta.url);
const demo = JSON.parse(readFileSync(new URL('demo.json', CONFIG_DIR), 'utf8')) as { journal: JournalConfig };
const journal: JournalConfig = { ...demo.journal, prices: demo.journal.prices.filter((p) => p.currency !== 'btc').map((p) => ({ ...p, file: new URL(p.file, CONFIG_DIR).pathname })) };
const TZ = 'America/New_York';
const spec = (): PipelineSpec => ({ command: 'month-end', job: 'month-end', ...JOB_FLAGS['month-end'], period: monthPeriod('2026-10', TZ, new Date()), pull: true, incremental: false, closePeriod: false, allowOpen: true, dryRun: false });

describe('auto-fetch before month-end', () => {
  let sim: SimHandle;
  beforeAll(async () => {
    sim = await startSimulator({ seed: 7, scale: 600, wallets: 12 });
  });
  afterAll(async () => {
    await sim?.close();
  });

  it('a fetch that fails is a finding; the run values what it can and lists the rest as needing a price', { timeout: 240_000 }, async () => {
    const fake = await serveFakePriceSources({ nowSec: () => Math.floor(Date.now() / 1000) });
    fake.script('coinbase', 'gone');
    fake.script('bitstamp', 'wrong_currency');
    const prices = { autoFetch: true, cacheDir: 'prices', policy: { 'BTC-USD': { sources: ['coinbase:1h', 'bitstamp:1h'] } }, sources: { coinbase: { baseUrl: fake.baseUrl('coinbase') }, bitstamp: { baseUrl: fake.baseUrl('bitstamp') } } };
    const run = await runAgainstSimulator({ sim, spec: spec(), tz: TZ, flags: { db: false, journal, prices } });
    try {
      expect(run.outcome.exitCode).toBe(65);
      const exceptions = await run.csv('exceptions.csv');
      const failed = exceptions.filter((f) => f['check_id'] === 'journal.price_fetch_failed');
      expect(failed).toHaveLength(1);
      expect(failed[0]!['message']).toMatch(/coinbase:1h failed \(source_gone: .*\); bitstamp:1h failed \(wrong_currency: .*\) \(wrong_currency\)$/);
      expect(exceptions.filter((f) => f['check_id'] === 'journal.needs_price').length).toBeGreaterThan(0);
      const btc = (await run.csv('journal.csv')).filter((l) => l['source_currency'] === 'btc');
      expect(btc.length).toBeGreaterThan(0);
      expect(btc.every((l) => l['needs_price'] === 'true')).toBe(true);
      expect(existsSync(join(run.cwd, 'prices/coinbase.BTC-USD.1h.csv'))).toBe(false);
      const manifest = await run.manifest();
      expect(manifest.checks.find((c) => c.check_id === 'journal.price_fetch_failed')).toMatchObject({ passed: false });
    } finally {
      await run.cleanup();
    }
  });

  it('a gap in the only source (it answered): no exit 75 — the movements in the gap are ONE journal.needs_price of btc, with their count and first and last instants', { timeout: 240_000 }, async () => {
    const fake = await serveFakePriceSources({ nowSec: () => Math.floor(Date.now() / 1000) });
    const from = Date.parse('2026-10-10T00:00:00Z') / 1000;
    fake.withhold('coinbase', Array.from({ length: 72 }, (_, i) => from + i * 3600));
    const prices = { autoFetch: true, cacheDir: 'prices', policy: { 'BTC-USD': { sources: ['coinbase:1h'], maxStalenessSeconds: 3600 } }, sources: { coinbase: { baseUrl: fake.baseUrl('coinbase') } } };
    const run = await runAgainstSimulator({ sim, spec: spec(), tz: TZ, flags: { db: false, journal, prices } });
    try {
      expect(run.outcome.exitCode).toBe(65);
      const exceptions = await run.csv('exceptions.csv');
      expect(exceptions.filter((f) => f['check_id'] === 'journal.price_gap').map((g) => g['message'])).toEqual(['coinbase:1h has no close for 2026-10-10T00:00:00Z..2026-10-13T00:00:00Z (72 × 1h)']);
      const unpriced = (await run.csv('journal.csv')).filter((l) => l['needs_price'] === 'true' && l['source_currency'] === 'btc');
      const entries = new Set(unpriced.map((l) => l['entry_no']));
      expect(entries.size).toBeGreaterThan(1);
      const rows = exceptions.filter((f) => f['check_id'] === 'journal.needs_price' && f['currency'] === 'btc' && f['subject_kind'] !== 'wallet');
      expect(rows.map((r) => [r['subject_kind'], r['subject_id']])).toEqual([['run', 'journal.needs_price:btc:no_price']]);
      const m = /^(\d+) ledger entries of btc in .* from (\S+) to (\S+) have no USD price /.exec(rows[0]!['message']!);
      expect(m, rows[0]!['message']).not.toBeNull();
      expect(Number(m![1])).toBe(entries.size);
      // the first and last instants lie in the withheld hours (a close older than an hour is stale)
      expect(m![2]! >= '2026-10-10T01:00:00' && m![3]! < '2026-10-13T01:00:00').toBe(true);
    } finally {
      await run.cleanup();
    }
  });

  it('hours the first source lacks are valued by the next source of the policy, and the gap is a warning', { timeout: 240_000 }, async () => {
    const fake = await serveFakePriceSources({ nowSec: () => Math.floor(Date.now() / 1000) });
    const from = Date.parse('2026-10-10T00:00:00Z') / 1000;
    fake.withhold('coinbase', Array.from({ length: 72 }, (_, i) => from + i * 3600));
    const prices = { autoFetch: true, cacheDir: 'prices', policy: { 'BTC-USD': { sources: ['coinbase:1h', 'bitstamp:1h'], maxStalenessSeconds: 3600 } }, sources: { coinbase: { baseUrl: fake.baseUrl('coinbase') }, bitstamp: { baseUrl: fake.baseUrl('bitstamp') } } };
    const run = await runAgainstSimulator({ sim, spec: spec(), tz: TZ, flags: { db: false, journal, prices } });
    try {
      const exceptions = await run.csv('exceptions.csv');
      expect(exceptions.filter((f) => f['severity'] === 'error')).toEqual([]);
      expect(run.outcome.exitCode).toBe(0);
      const gaps = exceptions.filter((f) => f['check_id'] === 'journal.price_gap');
      expect(gaps.map((g) => [g['severity'], g['message']])).toEqual([['warning', 'coinbase:1h has no close for 2026-10-10T00:00:00Z..2026-10-13T00:00:00Z (72 × 1h)']]);
      const btc = (await run.csv('journal.csv')).filter((l) => l['source_currency'] === 'btc' && l['component'] === 'wallet');
      const inGap = btc.filter((l) => l['rate_at']! >= '2026-10-10T01:00:00' && l['rate_at']! < '2026-10-13T00:00:00');
      const outside = btc.filter((l) => !inGap.includes(l));
      expect(inGap.length).toBeGreaterThan(0);
      expect(new Set(inGap.map((l) => l['rate_source']))).toEqual(new Set(['price_cache:bitstamp:1h']));
      expect(new Set(outside.map((l) => l['rate_source']))).toEqual(new Set(['price_cache:coinbase:1h']));
    } finally {
      await run.cleanup();
    }
  });
});
