/**
 * The price files of the journal config, read once at the start of the report stage. Paths are
 * relative to the config file's folder (so a shipped config finds its shipped prices from any
 * working directory), else to the working directory.
 */
import { isAbsolute, resolve } from 'node:path';
import type { JournalConfig } from '../config/journal-schema.js';
import { PriceTable } from './price-file.js';

export function loadPriceTables(config: JournalConfig, baseDir: string): Map<string, PriceTable> {
  const tables = new Map<string, PriceTable>();
  for (const source of config.prices) {
    const path = isAbsolute(source.file) ? source.file : resolve(baseDir, source.file);
    tables.set(source.currency, PriceTable.load(source.currency, path, source.file, source.maxStalenessSeconds));
  }
  return tables;
}
