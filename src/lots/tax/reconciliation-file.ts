/**
 * The Form 1099-DA pass of the tax files: the brokers' forms reconciled with the window's disposals
 * (form-1099da-reconcile.ts) and written as form-1099-da-reconciliation.csv with its sheet; nothing
 * when no file is configured.
 */
import type { BuildContext } from '../../journal/build-movement.js';
import { formatBase } from '../../money/format.js';
import { FORM_1099DA_RECONCILIATION_TABLE } from '../tables/form-1099da-reconciliation.js';
import { box8949 } from './boxes.js';
import { reconcileForms, type Reconciliation } from './form-1099da-reconcile.js';
import type { TaxFilesInput } from './tax-input.js';
import type { UnitsOf } from './units-description.js';

export interface ReconciliationInput {
  ctx: BuildContext;
  input: TaxFilesInput;
  day: (instant: string) => string;
  firstDay: string;
  lastDay: string;
  units: (currency: string) => UnitsOf;
}

export async function writeReconciliation(r: ReconciliationInput): Promise<Reconciliation | null> {
  const files = r.input.forms1099DA;
  if (files.length === 0) return null;
  const minorUnits = r.ctx.config.minorUnits;
  const assetNames = new Map(r.input.assets.map((a) => [a.currency, a.name]));
  const brokers = new Map(files.flatMap((f) => f.wallets.map((w) => [w.toLowerCase(), f.broker] as const)));
  const rec = reconcileForms(files, r.input.reliefs, {
    day: r.day,
    firstDay: r.firstDay,
    lastDay: r.lastDay,
    minorUnits,
    scaleOf: (currency) => r.units(currency).scale,
    namesOf: (currency) => (currency === 'btc' ? ['bitcoin', 'btc', 'xbt'] : [r.units(currency).symbol.toLowerCase(), (assetNames.get(currency) ?? '').toLowerCase()].filter((n) => n !== '')),
    brokerOf: (walletId) => brokers.get(walletId.toLowerCase()) ?? 'the broker',
  });
  const table = await r.input.folder.table(FORM_1099DA_RECONCILIATION_TABLE);
  for (const row of rec.rows) {
    const of = row.disposal === null ? null : r.units(row.disposal.currency);
    const units = row.lines.reduce((a, l) => a + l.units, 0n);
    const boxes = [...new Set(row.lines.map((l) => box8949(l.term, Number(r.day(l.disposedAt).slice(0, 4)), rec.reportOf(l)?.receipt ?? r.input.options.receiptOf(l.walletId))))];
    await table.write({ rec: row, minorUnits, unitsText: of === null || row.lines.length === 0 ? null : formatBase(units, of.scale), boxes });
  }
  await table.close();
  return rec;
}
