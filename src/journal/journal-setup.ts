/**
 * What a job hands the report stage to write journals: the validated mapping, its price tables
 * (read once, before anything is pulled, so a bad price file fails fast with exit 78) and whether
 * this run closes a period (month-end: the fair-value remeasurement is added).
 */
import { dirname, resolve } from 'node:path';
import type { Config } from '../config/schema.js';
import type { JournalConfig } from '../config/journal-schema.js';
import { loadPriceTables } from './load-prices.js';
import type { PriceLookup } from './price-file.js';
import type { DisciplineOptions } from './period-discipline.js';
import type { Finding } from '../model/results.js';

export interface JournalSetup {
  config: JournalConfig;
  prices: ReadonlyMap<string, PriceLookup>;
  periodEnd: boolean;
  /** what fetching the window's prices found (auto-fetch): reported with the journal's findings */
  priceFindings?: Finding[];
  /** set by the pipeline once the snapshot is open: what closed periods already exported */
  discipline?: DisciplineOptions | null;
}

/** `periodEnd`: the run's period closes (a month-end): its end is remeasured. */
export function journalSetup(config: Config, configFile: string | undefined, cwd: string, periodEnd: boolean): JournalSetup | null {
  if (config.journal === undefined) return null;
  const baseDir = configFile === undefined ? cwd : dirname(resolve(cwd, configFile));
  return { config: config.journal, prices: loadPriceTables(config.journal, baseDir, config.prices), periodEnd };
}
