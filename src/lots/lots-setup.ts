/**
 * What a job hands the report stage for the crypto subledger: the validated `lots` section, its
 * opening lots and identifications, read once before anything is pulled so a bad file fails fast
 * (exit 78). The subledger values with the journal's mapping and prices, so it needs `journal`.
 */
import { dirname, isAbsolute, resolve } from 'node:path';
import type { Config } from '../config/schema.js';
import type { LotsConfig } from '../config/lots-schema.js';
import { configError } from '../util/errors.js';
import { NO_IDENTIFICATIONS, type Identifications } from './identification.js';
import { loadIdentifications } from './identification-file.js';
import type { OpeningLot } from './model.js';
import { loadOpeningLots } from './opening-lots-file.js';
import { loadForm1099DA, type BrokerForms } from './tax/form-1099da-file.js';
import { refuseAverageForTax, taxOptions } from './tax/tax-options.js';

export interface LotsSetup {
  config: LotsConfig;
  openings: readonly OpeningLot[];
  identifications: Identifications;
  /** the brokers' Form 1099-DA data (lots.tax.forms1099DA), read with the rest before anything is pulled */
  forms1099DA?: readonly BrokerForms[];
}

export function lotsSetup(config: Config, configFile: string | undefined, cwd: string): LotsSetup | null {
  if (config.lots === undefined) return null;
  if (config.journal === undefined) throw configError('lots_needs_journal', 'lots: the subledger values movements with the journal mapping and prices; add a journal section');
  const baseDir = configFile === undefined ? cwd : dirname(resolve(cwd, configFile));
  const at = (file: string): string => (isAbsolute(file) ? file : resolve(baseDir, file));
  const lots = config.lots;
  refuseAverageForTax(lots);
  for (const [id, custody] of Object.entries(lots.custody)) {
    if (custody.account !== undefined && config.journal.accounts[custody.account] === undefined) throw configError('lots_custody_account', `lots.custody.${id}.account: unknown account key '${custody.account}' (declare it under journal.accounts)`);
  }
  return {
    config: lots,
    openings: lots.openingLots === undefined ? [] : loadOpeningLots(at(lots.openingLots), lots.openingLots, config.journal.minorUnits),
    identifications: lots.identifications === undefined ? NO_IDENTIFICATIONS : loadIdentifications(at(lots.identifications), lots.identifications),
    forms1099DA: taxOptions(lots).forms1099DA.map((f) => ({ broker: f.broker, file: f.file, wallets: f.wallets.map((w) => w.toLowerCase()), rows: loadForm1099DA(at(f.file), f.file, config.journal?.minorUnits ?? 2) })),
  };
}
