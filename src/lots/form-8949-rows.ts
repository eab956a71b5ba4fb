/**
 * Form 8949 rows from the window's relief lines (tables/form-8949.ts): one per line, Part I (short
 * term) first, then Part II (long term); dates MM/DD/YYYY in the reporting zone. Only disposals
 * have relief lines: a move to or from the company's own custody wallet is never one.
 */
import type { BuildContext } from '../journal/build-movement.js';
import { localDate } from '../journal/build-movement.js';
import { formatBase } from '../money/format.js';
import type { WalletRow } from '../model/rows.js';
import type { ReliefLine } from './model.js';
import type { Form8949Row } from './tables/form-8949.js';

export function* form8949Rows(ctx: BuildContext, reliefs: readonly ReliefLine[], wallets: readonly WalletRow[]): Generator<Form8949Row> {
  const usDate = (instant: string): string => {
    const [y, m, d] = localDate(ctx.clock, instant).split('-');
    return `${m ?? ''}/${d ?? ''}/${y ?? ''}`;
  };
  for (const term of ['short', 'long'] as const) {
    for (const r of reliefs) {
      if (r.term !== term) continue;
      const name = wallets.find((w) => w.wallet_id === r.walletId)?.name ?? r.walletId;
      const units = r.currency === 'btc' ? `${formatBase(r.units, 11)} BTC` : ctx.display.source({ amount: r.units, currency: r.currency, unit: '' });
      yield { part: term === 'short' ? 'I' : 'II', description: `${units} (${name}, ${r.part.replace('_', ' ')} of ${r.disposalRef})`, acquired: usDate(r.acquiredAt), sold: usDate(r.disposedAt), proceeds: r.proceeds, cost: r.cost, gain: r.gain, minorUnits: ctx.config.minorUnits };
    }
  }
}
