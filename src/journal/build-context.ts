/**
 * The valuation and display context of a journal pass, built from the config, its price tables and
 * the snapshot's assets. The crypto subledger (src/lots/) builds the same one, so a lot's cost and
 * a disposal's proceeds are valued exactly as the journal values the movement.
 */
import type { JournalConfig } from '../config/journal-schema.js';
import { pow10 } from '../money/rounding.js';
import { MSATS_PER_BTC } from '../money/units.js';
import type { AssetRow } from '../model/rows.js';
import { ZonedClock } from '../model/zoned-time.js';
import type { BuildContext } from './build-movement.js';
import { compileRules } from './counter-account.js';
import { makeDisplay } from './display.js';
import type { PriceLookup } from './price-file.js';

export function journalBuildContext(config: JournalConfig, prices: ReadonlyMap<string, PriceLookup>, assets: readonly AssetRow[], tz: string, balanceAccount?: BuildContext['balanceAccount']): BuildContext {
  const assetDecimals = new Map(assets.map((a) => [a.currency, a.decimal_display]));
  const display = makeDisplay(new Map(assets.map((a) => [a.currency, a.name])), assetDecimals);
  return {
    config,
    rules: compileRules(config.rules),
    valuation: {
      booksCurrency: config.booksCurrency,
      minorUnits: config.minorUnits,
      prices,
      baseUnitsPerWhole: (currency) => (currency === 'btc' ? MSATS_PER_BTC : currency === 'usd' ? 100n : assetDecimals.has(currency) ? pow10(assetDecimals.get(currency) as number) : null),
      displayCode: (currency) => (currency === 'btc' ? 'BTC' : display.commodity(currency)),
    },
    display,
    clock: new ZonedClock(tz),
    ...(balanceAccount === undefined ? {} : { balanceAccount }),
  };
}

/** The wallet's asset account key in journal.wallets (ids compared without case), or null. */
export function mappedAccount(config: JournalConfig, walletId: string): string | null {
  const direct = config.wallets[walletId];
  if (direct !== undefined) return direct;
  const lower = walletId.toLowerCase();
  for (const [id, key] of Object.entries(config.wallets)) if (id.toLowerCase() === lower) return key;
  return null;
}
