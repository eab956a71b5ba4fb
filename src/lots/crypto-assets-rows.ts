/**
 * The Crypto assets rows (ASU 2023-08, tables/crypto-assets.ts), one per crypto currency, from the
 * window's lots and figures and the roll-forward's balances: cost, units and fair value held in
 * the service's wallets, the roll-forward over them (opening fair value + additions − dispositions
 * + transfers + remeasurement = closing fair value), realized gains, the methods in force; and
 * beside it, what sits in the company's own custody wallets (custody.ts). Also the journal's fair
 * value per currency, which lots.fair_value_tieout compares the closing fair value with.
 */
import type { BuildContext } from '../journal/build-movement.js';
import type { BalanceRow } from '../model/results.js';
import type { WalletRow } from '../model/rows.js';
import type { Window } from '../model/window.js';
import { isCustody, type CustodyRules } from './custody.js';
import { fairValueAt } from './fair-value.js';
import { methodAt, type MethodPeriod } from './method.js';
import type { Lot } from './model.js';
import { figureKey, type PeriodRun } from './period-run.js';
import type { CryptoAssetRow } from './tables/crypto-assets.js';

export interface CryptoAssetsInput {
  ctx: BuildContext;
  run: PeriodRun;
  window: Window;
  balances: readonly BalanceRow[];
  wallets: readonly WalletRow[];
  custody: CustodyRules;
  methods: ReadonlyMap<string, readonly MethodPeriod[]>;
  tracked: (walletId: string, currency: string) => boolean;
  /** per lot holder and currency: its lots at the window's end, and their fair value */
  held: ReadonlyMap<string, { lots: readonly Lot[]; fairValue: bigint | null }>;
}

const plus = (a: bigint | null, b: bigint | null): bigint | null => (a === null || b === null ? null : a + b);

export function cryptoAssetRows(input: CryptoAssetsInput): { rows: CryptoAssetRow[]; journalFair: Map<string, bigint | null> } {
  const { ctx, run, window } = input;
  const scale = ctx.config.minorUnits;
  const perCurrency = new Map<string, CryptoAssetRow>();
  const journalFair = new Map<string, bigint | null>();
  const keys = new Set([...run.figures.keys(), ...input.held.keys(), ...input.balances.filter((b) => input.tracked(b.wallet_id, b.currency)).map((b) => figureKey(b.wallet_id, b.currency))]);
  // the service's wallets first, then the company's own custody wallets (the methods column reads in that order)
  for (const key of [...keys].sort((a, b) => Number(isCustody(a)) - Number(isCustody(b)) || (a < b ? -1 : a > b ? 1 : 0))) {
    const [walletId = '', currency = ''] = key.split('|');
    const row = perCurrency.get(currency) ?? { currency, methods: '', units: 0n, costBasis: 0n, openingFairValue: 0n, additions: 0n, dispositions: 0n, transfersNet: 0n, remeasurementGain: 0n, closingFairValue: 0n, realizedGain: 0n, cumulativeRealizedGain: 0n, ownCustodyUnits: 0n, ownCustodyCost: 0n, ownCustodyFairValue: 0n, minorUnits: scale };
    perCurrency.set(currency, row);
    const held = input.held.get(key);
    const lots = held?.lots ?? [];
    const units = lots.reduce((a, l) => a + l.units, 0n);
    const cost = lots.some((l) => l.cost === null) ? null : lots.reduce((a, l) => a + (l.cost as bigint), 0n);
    const closingFv = lots.length === 0 ? 0n : (held?.fairValue ?? null);
    const method = methodAt(input.methods.get(walletId), window.to);
    if (isCustody(walletId)) {
      // the company's own wallet: outside the service's roll-forward, shown beside it
      row.ownCustodyUnits += units;
      row.ownCustodyCost = plus(row.ownCustodyCost, cost);
      row.ownCustodyFairValue = plus(row.ownCustodyFairValue, closingFv);
      if (lots.length > 0) row.methods = [row.methods, `${input.custody.name(walletId) ?? walletId} (own custody): ${method}`].filter((s) => s !== '').join('; ');
      continue;
    }
    const f = run.figures.get(key);
    const balance = input.balances.find((b) => b.wallet_id === walletId && b.currency === currency);
    const openingFv = balance === undefined ? 0n : fairValueAt(ctx, currency, balance.opening_base, window.from);
    const flows = f === undefined ? 0n : plus(plus(f.additions, f.dispositions === null ? null : -f.dispositions), f.transfersNet);
    row.units += units;
    row.costBasis = plus(row.costBasis, cost);
    row.openingFairValue = plus(row.openingFairValue, openingFv);
    row.additions = plus(row.additions, f?.additions ?? 0n);
    row.dispositions = plus(row.dispositions, f?.dispositions ?? 0n);
    row.transfersNet = plus(row.transfersNet, f?.transfersNet ?? 0n);
    row.closingFairValue = plus(row.closingFairValue, closingFv);
    // the journal's remeasurement brings the carrying value to fair value: what the flows do not explain
    row.remeasurementGain = plus(row.remeasurementGain, closingFv === null || openingFv === null || flows === null ? null : closingFv - openingFv - flows);
    row.realizedGain = plus(row.realizedGain, f?.realizedGain ?? 0n);
    row.cumulativeRealizedGain = plus(row.cumulativeRealizedGain, f?.cumulativeRealizedGain ?? 0n);
    const name = input.wallets.find((w) => w.wallet_id === walletId)?.name ?? walletId;
    row.methods = [row.methods, `${name}: ${method}`].filter((s) => s !== '').join('; ');
    journalFair.set(currency, plus(journalFair.get(currency) ?? 0n, balance === undefined ? 0n : fairValueAt(ctx, currency, balance.closing_base, window.to)));
  }
  return { rows: [...perCurrency.values()], journalFair };
}
