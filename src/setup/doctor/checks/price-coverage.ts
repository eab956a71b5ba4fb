/**
 * The journal's prices against the open period: from the first day of the month the next
 * month-end closes (the previous month in the books' zone) up to now — the stretch whose
 * movements the next nightly and month-end runs value. A gap there (no price yet, or the last one
 * older than `maxStalenessSeconds`) means entries that "need price" tonight.
 *
 * One line per price file of the journal config, then — when a `prices` section is configured —
 * one line for the price cache (price-cache-line.ts), judged by the journal's own lookup order:
 * the price file first, then the cache's sources in the policy's order.
 */
import { dirname, resolve } from 'node:path';
import { loadPriceTables } from '../../../journal/load-prices.js';
import type { PriceLookup } from '../../../journal/price-file.js';
import { monthPeriod } from '../../../model/period.js';
import { fail, pass, type CheckLine, type DoctorCheck } from '../check.js';
import { priceCacheLine } from './price-cache-line.js';

export const priceCoverageCheck: DoctorCheck = {
  id: 'price-coverage',
  async run(ctx) {
    const { config, configFile } = ctx.loaded;
    const journal = config.journal;
    if (journal === undefined) return [pass('journal prices', 'no books configured, so nothing to price — and no Journal, Lots or Crypto assets sheet: payexport init --force sets them up (docs/journal.md)')];
    if (journal.prices.length === 0 && config.prices === undefined) return [pass('journal prices', 'no price file or price cache configured (movements are valued by their own quotes)')];
    const now = ctx.now();
    const open = monthPeriod(undefined, config.tz, now);
    const fromMs = Date.parse(open.window.from.slice(0, 23) + 'Z');
    const baseDir = configFile === undefined ? ctx.cwd : dirname(resolve(ctx.cwd, configFile));
    let tables: Map<string, PriceLookup>;
    try {
      tables = loadPriceTables(journal, baseDir);
    } catch (error) {
      return [fail('journal prices', error instanceof Error ? error.message : String(error), 'fix the price file named above (CSV "timestamp,price", one price per line)')];
    }
    const lines: CheckLine[] = [];
    const span = `the open period ${open.firstDay} .. now`;
    for (const source of journal.prices) {
      const table = tables.get(source.currency);
      if (table === undefined) continue;
      const title = `prices of ${source.currency} (${source.file})`;
      const gap = table.firstUncoveredMs(fromMs, now.getTime());
      if (gap === null) lines.push(pass(title, `cover ${span}`));
      else {
        lines.push(
          fail(title, `do not cover ${span}: no usable price at ${new Date(gap).toISOString()} (a price counts for ${source.maxStalenessSeconds} s)`, `add prices from ${new Date(gap).toISOString().slice(0, 10)} to now to ${source.file}`),
        );
      }
    }
    if (config.prices !== undefined) {
      const btcFile = tables.get('btc');
      const cacheLine = await priceCacheLine({
          journal,
          prices: config.prices,
          baseDir,
          configShown: configFile,
          from: open.window.from,
          firstDay: open.firstDay,
          now,
        fileCovers: btcFile !== undefined && btcFile.firstUncoveredMs(fromMs, now.getTime()) === null,
        coingeckoApiKey: ctx.loaded.secrets.coingeckoApiKey,
      });
      // the pair counts as covered when the price file or the cache behind it does: the file's gap is then no ✗ of its own
      const fileIndex = journal.prices.findIndex((source) => source.currency === 'btc' && tables.has('btc'));
      const fileLine = lines[fileIndex];
      if (cacheLine.status === 'pass' && fileLine?.status === 'fail') lines[fileIndex] = pass(fileLine.title, `${fileLine.detail.replace(/^do not cover/, 'do not cover on their own')}; the price cache fills the rest (next line)`);
      lines.push(cacheLine);
    }
    return lines;
  },
};
