/**
 * The journal's price files against the open period: from the first day of the month the next
 * month-end closes (the previous month in the books' zone) up to now — the stretch whose
 * movements the next nightly and month-end runs value. A gap there (no price yet, or the last one
 * older than `maxStalenessSeconds`) means entries that "need price" tonight.
 */
import { dirname, resolve } from 'node:path';
import { loadPriceTables } from '../../../journal/load-prices.js';
import { monthPeriod } from '../../../model/period.js';
import { fail, pass, type CheckLine, type DoctorCheck } from '../check.js';

export const priceCoverageCheck: DoctorCheck = {
  id: 'price-coverage',
  async run(ctx) {
    const { config, configFile } = ctx.loaded;
    const journal = config.journal;
    if (journal === undefined || journal.prices.length === 0) return [pass('journal prices', journal === undefined ? 'no journal configured: nothing to price' : 'no price file configured (movements are valued by their own quotes)')];
    const now = ctx.now();
    const open = monthPeriod(undefined, config.tz, now);
    const fromMs = Date.parse(open.window.from.slice(0, 23) + 'Z');
    const baseDir = configFile === undefined ? ctx.cwd : dirname(resolve(ctx.cwd, configFile));
    let tables;
    try {
      tables = loadPriceTables(journal, baseDir);
    } catch (error) {
      return [fail('journal prices', error instanceof Error ? error.message : String(error), 'fix the price file named above (CSV "timestamp,price", one price per line)')];
    }
    const lines: CheckLine[] = [];
    for (const source of journal.prices) {
      const table = tables.get(source.currency);
      if (table === undefined) continue;
      const title = `prices of ${source.currency} (${source.file})`;
      const gap = table.firstUncoveredMs(fromMs, now.getTime());
      const span = `the open period ${open.firstDay} .. now`;
      if (gap === null) lines.push(pass(title, `cover ${span}`));
      else {
        lines.push(
          fail(title, `do not cover ${span}: no usable price at ${new Date(gap).toISOString()} (a price counts for ${source.maxStalenessSeconds} s)`, `add prices from ${new Date(gap).toISOString().slice(0, 10)} to now to ${source.file}`),
        );
      }
    }
    return lines;
  },
};
