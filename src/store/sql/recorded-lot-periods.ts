/**
 * The subledger's recorded periods read back (migrations 010–015, status `recorded`): a period's
 * head, its figures per wallet and currency, its closing lots, its relief lines, its notes and its allocation, as
 * src/model/lots-record.ts `LotPeriodRecord`; or the figures alone of every period up to an instant.
 */
import type { LotPeriodRecord, RecordedFigures, RecordedLot, RecordedPeriodFigures, RecordedRelief } from '../../model/lots-record.js';
import type { Queryable } from '../db/db.js';
import type { StoreSchema } from '../db/schema.js';
import { escapeText, unescapeText } from '../encoding/text-escape.js';
import { loadAllocation, type AllocationHead } from './lot-allocations.js';
import { loadNotes } from './lot-notes.js';

type Text = string | null;
const big = (v: Text): bigint | null => (v === null ? null : BigInt(v));
const s = (v: Text): string => unescapeText(v ?? '');

/** lot_figures' columns as figuresOf reads them, qualified by the table's alias in the query */
const figureColumns = (t: string): string =>
  `${t}.wallet_id, ${t}.currency, ${t}.opening_units::text AS opening_units, ${t}.opening_cost::text AS opening_cost, ${t}.added_cost::text AS added_cost,
   ${t}.relieved_cost::text AS relieved_cost, ${t}.moved_out_cost::text AS moved_out_cost, ${t}.additions::text AS additions, ${t}.dispositions::text AS dispositions,
   ${t}.transfers_net::text AS transfers_net, ${t}.realized_gain::text AS realized_gain, ${t}.cumulative_gain::text AS cumulative_gain,
   ${t}.acquired_units::text AS acquired_units, ${t}.disposed_units::text AS disposed_units, ${t}.transferred_in_units::text AS transferred_in_units,
   ${t}.transferred_out_units::text AS transferred_out_units`;

function figuresOf(x: Record<string, Text>): RecordedFigures {
  return {
    walletId: unescapeText(x['wallet_id'] ?? ''),
    currency: unescapeText(x['currency'] ?? ''),
    openingUnits: BigInt(x['opening_units'] ?? '0'),
    openingCost: BigInt(x['opening_cost'] ?? '0'),
    addedCost: BigInt(x['added_cost'] ?? '0'),
    relievedCost: BigInt(x['relieved_cost'] ?? '0'),
    movedOutCost: BigInt(x['moved_out_cost'] ?? '0'),
    additions: big(x['additions'] ?? null),
    dispositions: big(x['dispositions'] ?? null),
    transfersNet: big(x['transfers_net'] ?? null),
    realizedGain: BigInt(x['realized_gain'] ?? '0'),
    cumulativeRealizedGain: BigInt(x['cumulative_gain'] ?? '0'),
    ...unitFlowsOf(x),
  };
}

/** The unit flows of a period recorded since migration 012 (all four columns or none). */
function unitFlowsOf(x: Record<string, Text>): Pick<RecordedFigures, 'unitFlows'> {
  const [acquired, disposed, transferredIn, transferredOut] = ['acquired_units', 'disposed_units', 'transferred_in_units', 'transferred_out_units'].map((c) => big(x[c] ?? null));
  if (acquired == null || disposed == null || transferredIn == null || transferredOut == null) return {};
  return { unitFlows: { acquired, disposed, transferredIn, transferredOut } };
}

function lotOf(x: Record<string, Text>): RecordedLot {
  return { lotId: s(x['lot_id'] ?? null), walletId: s(x['wallet_id'] ?? null), currency: s(x['currency'] ?? null), acquiredAt: s(x['acquired_at'] ?? null), origin: s(x['origin'] ?? null), units: BigInt(x['units_base'] ?? '0'), cost: big(x['cost'] ?? null) };
}

function reliefOf(x: Record<string, Text>): RecordedRelief {
  return {
    walletId: s(x['wallet_id'] ?? null),
    currency: s(x['currency'] ?? null),
    disposalRef: s(x['disposal_ref'] ?? null),
    part: s(x['disposal_part'] ?? null),
    disposedAt: s(x['disposed_at'] ?? null),
    lotId: s(x['lot_id'] ?? null),
    acquiredAt: s(x['acquired_at'] ?? null),
    units: BigInt(x['units_base'] ?? '0'),
    proceeds: big(x['proceeds'] ?? null),
    cost: big(x['cost'] ?? null),
    gain: big(x['gain'] ?? null),
    term: s(x['term'] ?? null),
    ...(x['late_from'] === null || x['late_from'] === undefined ? {} : { lateFrom: s(x['late_from']) }),
  };
}

/** The recorded period of this label (its relief lines and notes only `withReliefs`; its allocation always), or null. */
export async function loadLotPeriod(db: Queryable, schema: StoreSchema, organizationId: string, period: string, withReliefs: boolean): Promise<LotPeriodRecord | null> {
  const key = [escapeText(organizationId), escapeText(period)];
  const head = await db.query<{ window_from: string; window_to: string; run_id: string; notes_recorded: boolean } & AllocationHead>(
    `SELECT window_from, window_to, run_id, notes_recorded, allocation_recorded, allocation_file, allocation_checked, allocation_changed FROM ${schema.table('lot_periods')} WHERE organization_id = $1 AND period = $2 AND status = 'recorded'`,
    key,
  );
  const h = head.rows[0];
  if (h === undefined) return null;
  const f = await db.query<Record<string, Text>>(`SELECT ${figureColumns('f')} FROM ${schema.table('lot_figures')} f WHERE organization_id = $1 AND period = $2 AND status = 'recorded' ORDER BY wallet_id, currency`, key);
  const l = await db.query<Record<string, Text>>(
    `SELECT lot_id, wallet_id, currency, acquired_at, origin, units_base::text AS units_base, cost::text AS cost
     FROM ${schema.table('lot_closings')} WHERE organization_id = $1 AND period = $2 AND status = 'recorded' ORDER BY line_no`,
    key,
  );
  const r = withReliefs
    ? await db.query<Record<string, Text>>(
        `SELECT wallet_id, currency, disposal_ref, disposal_part, disposed_at, lot_id, acquired_at, units_base::text AS units_base,
                proceeds::text AS proceeds, cost::text AS cost, gain::text AS gain, term, late_from
         FROM ${schema.table('lot_period_reliefs')} WHERE organization_id = $1 AND period = $2 AND status = 'recorded' ORDER BY line_no`,
        key,
      )
    : { rows: [] };
  const allocation = await loadAllocation(db, schema.table('lot_period_allocations'), key, h);
  return {
    period,
    windowFrom: h.window_from,
    runId: unescapeText(h.run_id),
    windowTo: h.window_to,
    figures: f.rows.map(figuresOf),
    lots: l.rows.map(lotOf),
    reliefs: r.rows.map(reliefOf),
    ...(withReliefs && h.notes_recorded ? { notes: await loadNotes(db, schema.table('lot_period_notes'), key) } : {}),
    ...(allocation === undefined ? {} : { allocation }),
  };
}

/** Every recorded period ending at or before `at`, oldest first, with its figures only. */
export async function lotPeriodsEndingBy(db: Queryable, schema: StoreSchema, organizationId: string, at: string): Promise<RecordedPeriodFigures[]> {
  const periods = schema.table('lot_periods');
  const org = escapeText(organizationId);
  const heads = await db.query<{ period: string; window_from: string; window_to: string }>(
    `SELECT period, window_from, window_to FROM ${periods} WHERE organization_id = $1 AND status = 'recorded' AND window_to <= $2 ORDER BY window_to`,
    [org, at],
  );
  if (heads.rows.length === 0) return [];
  const f = await db.query<Record<string, Text>>(
    `SELECT f.period, ${figureColumns('f')} FROM ${schema.table('lot_figures')} f JOIN ${periods} p ON p.organization_id = f.organization_id AND p.period = f.period AND p.status = f.status
     WHERE f.organization_id = $1 AND f.status = 'recorded' AND p.window_to <= $2 ORDER BY f.period, f.wallet_id, f.currency`,
    [org, at],
  );
  const byPeriod = new Map<string, RecordedFigures[]>();
  for (const x of f.rows) {
    const period = unescapeText(x['period'] ?? '');
    byPeriod.set(period, [...(byPeriod.get(period) ?? []), figuresOf(x)]);
  }
  return heads.rows.map((h) => {
    const period = unescapeText(h.period);
    return { period, windowFrom: h.window_from, windowTo: h.window_to, figures: byPeriod.get(period) ?? [] };
  });
}
