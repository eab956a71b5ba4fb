/**
 * The snapshot's record of the subledger's closed periods (migrations 010–013):
 * src/model/lots-record.ts `LotsRecord` over the Db port.
 */
import type { LotPeriodRecord, LotsRecord, RecordedFigures, RecordedLot, RecordedRelief } from '../../model/lots-record.js';
import type { Db } from '../db/db.js';
import { confirmPending } from './confirm-pending.js';
import type { StoreSchema } from '../db/schema.js';
import { escapeText, unescapeText } from '../encoding/text-escape.js';
import { loadNotes, stageNotes } from './lot-notes.js';

type Text = string | null;
const big = (v: Text): bigint | null => (v === null ? null : BigInt(v));
const num = (v: bigint | null): Text => (v === null ? null : v.toString());
const txt = (v: string): string => escapeText(v);

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

export function createLotsRecord(db: Db, schema: StoreSchema): LotsRecord {
  const periods = schema.table('lot_periods');
  const figures = schema.table('lot_figures');
  const closings = schema.table('lot_closings');
  const reliefs = schema.table('lot_period_reliefs');
  const notes = schema.table('lot_period_notes');

  async function load(organizationId: string, period: string, withReliefs: boolean): Promise<LotPeriodRecord | null> {
    const key = [escapeText(organizationId), escapeText(period)];
    const head = await db.query<{ window_from: string; window_to: string; run_id: string; notes_recorded: boolean }>(`SELECT window_from, window_to, run_id, notes_recorded FROM ${periods} WHERE organization_id = $1 AND period = $2 AND status = 'recorded'`, key);
    const h = head.rows[0];
    if (h === undefined) return null;
    const f = await db.query<Record<string, Text>>(`SELECT ${figureColumns('f')} FROM ${figures} f WHERE organization_id = $1 AND period = $2 AND status = 'recorded' ORDER BY wallet_id, currency`, key);
    const l = await db.query<Record<string, Text>>(
      `SELECT lot_id, wallet_id, currency, acquired_at, origin, units_base::text AS units_base, cost::text AS cost
       FROM ${closings} WHERE organization_id = $1 AND period = $2 AND status = 'recorded' ORDER BY line_no`,
      key,
    );
    const r = withReliefs
      ? await db.query<Record<string, Text>>(
          `SELECT wallet_id, currency, disposal_ref, disposal_part, disposed_at, lot_id, acquired_at, units_base::text AS units_base,
                  proceeds::text AS proceeds, cost::text AS cost, gain::text AS gain, term, late_from
           FROM ${reliefs} WHERE organization_id = $1 AND period = $2 AND status = 'recorded' ORDER BY line_no`,
          key,
        )
      : { rows: [] };
    const s = (v: Text): string => unescapeText(v ?? '');
    return {
      period,
      windowFrom: h.window_from,
      runId: unescapeText(h.run_id),
      windowTo: h.window_to,
      figures: f.rows.map(figuresOf),
      lots: l.rows.map((x): RecordedLot => ({ lotId: s(x['lot_id'] ?? null), walletId: s(x['wallet_id'] ?? null), currency: s(x['currency'] ?? null), acquiredAt: s(x['acquired_at'] ?? null), origin: s(x['origin'] ?? null), units: BigInt(x['units_base'] ?? '0'), cost: big(x['cost'] ?? null) })),
      reliefs: r.rows.map((x): RecordedRelief => ({
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
      })),
      ...(withReliefs && h.notes_recorded ? { notes: await loadNotes(db, notes, key) } : {}),
    };
  }

  return {
    async clearPending(organizationId) {
      await db.query(`DELETE FROM ${periods} WHERE organization_id = $1 AND status = 'pending'`, [escapeText(organizationId)]);
    },

    async stage(organizationId, runId, rec) {
      const org = escapeText(organizationId);
      const period = escapeText(rec.period);
      await db.transaction(async (tx) => {
        await tx.query(`DELETE FROM ${periods} WHERE organization_id = $1 AND period = $2 AND status = 'pending'`, [org, period]);
        await tx.query(`INSERT INTO ${periods} (organization_id, period, status, run_id, window_from, window_to, notes_recorded) VALUES ($1, $2, 'pending', $3, $4, $5, $6)`, [org, period, escapeText(runId), rec.windowFrom, rec.windowTo, rec.notes !== undefined]);
        const f = rec.figures;
        await tx.query(
          `INSERT INTO ${figures} (organization_id, period, status, wallet_id, currency, opening_units, opening_cost, added_cost, relieved_cost, moved_out_cost, additions, dispositions, transfers_net, realized_gain, cumulative_gain,
             acquired_units, disposed_units, transferred_in_units, transferred_out_units)
           SELECT $1, $2, 'pending', u.w, u.c, u.ou::numeric, u.oc::numeric, u.ac::numeric, u.rc::numeric, u.mc::numeric, u.ad::numeric, u.di::numeric, u.tn::numeric, u.rg::numeric, u.cg::numeric,
             u.ua::numeric, u.ud::numeric, u.ui::numeric, u.uo::numeric
           FROM unnest($3::text[], $4::text[], $5::text[], $6::text[], $7::text[], $8::text[], $9::text[], $10::text[], $11::text[], $12::text[], $13::text[], $14::text[], $15::text[], $16::text[], $17::text[], $18::text[])
             AS u(w, c, ou, oc, ac, rc, mc, ad, di, tn, rg, cg, ua, ud, ui, uo)`,
          [org, period, f.map((x) => txt(x.walletId)), f.map((x) => txt(x.currency)), f.map((x) => num(x.openingUnits)), f.map((x) => num(x.openingCost)), f.map((x) => num(x.addedCost)), f.map((x) => num(x.relievedCost)), f.map((x) => num(x.movedOutCost)), f.map((x) => num(x.additions)), f.map((x) => num(x.dispositions)), f.map((x) => num(x.transfersNet)), f.map((x) => num(x.realizedGain)), f.map((x) => num(x.cumulativeRealizedGain)),
            f.map((x) => num(x.unitFlows?.acquired ?? null)), f.map((x) => num(x.unitFlows?.disposed ?? null)), f.map((x) => num(x.unitFlows?.transferredIn ?? null)), f.map((x) => num(x.unitFlows?.transferredOut ?? null))],
        );
        const l = rec.lots;
        await tx.query(
          `INSERT INTO ${closings} (organization_id, period, status, line_no, lot_id, wallet_id, currency, acquired_at, origin, units_base, cost)
           SELECT $1, $2, 'pending', u.n, u.id, u.w, u.c, u.at, u.o, u.units::numeric, u.cost::numeric
           FROM unnest($3::int[], $4::text[], $5::text[], $6::text[], $7::text[], $8::text[], $9::text[], $10::text[]) AS u(n, id, w, c, at, o, units, cost)`,
          [org, period, l.map((_, i) => String(i + 1)), l.map((x) => txt(x.lotId)), l.map((x) => txt(x.walletId)), l.map((x) => txt(x.currency)), l.map((x) => x.acquiredAt), l.map((x) => x.origin), l.map((x) => num(x.units)), l.map((x) => num(x.cost))],
        );
        const r = rec.reliefs;
        await tx.query(
          `INSERT INTO ${reliefs} (organization_id, period, status, line_no, wallet_id, currency, disposal_ref, disposal_part, disposed_at, lot_id, acquired_at, units_base, proceeds, cost, gain, term, late_from)
           SELECT $1, $2, 'pending', u.n, u.w, u.c, u.ref, u.part, u.dat, u.id, u.aat, u.units::numeric, u.p::numeric, u.cost::numeric, u.g::numeric, u.term, u.late
           FROM unnest($3::int[], $4::text[], $5::text[], $6::text[], $7::text[], $8::text[], $9::text[], $10::text[], $11::text[], $12::text[], $13::text[], $14::text[], $15::text[], $16::text[])
             AS u(n, w, c, ref, part, dat, id, aat, units, p, cost, g, term, late)`,
          [org, period, r.map((_, i) => String(i + 1)), r.map((x) => txt(x.walletId)), r.map((x) => txt(x.currency)), r.map((x) => txt(x.disposalRef)), r.map((x) => x.part), r.map((x) => x.disposedAt), r.map((x) => txt(x.lotId)), r.map((x) => x.acquiredAt), r.map((x) => num(x.units)), r.map((x) => num(x.proceeds)), r.map((x) => num(x.cost)), r.map((x) => num(x.gain)), r.map((x) => x.term), r.map((x) => (x.lateFrom === undefined ? null : txt(x.lateFrom)))],
        );
        await stageNotes(tx, notes, org, period, rec.notes ?? []);
      });
    },

    confirm: (runId) => confirmPending(db, { table: periods, key: 'period', confirmedStatus: 'recorded', confirmedAt: 'recorded_at' }, runId),

    period: (organizationId, period) => load(organizationId, period, true),

    async latestEndingBy(organizationId, at) {
      const { rows } = await db.query<{ period: string }>(
        `SELECT period FROM ${periods} WHERE organization_id = $1 AND status = 'recorded' AND window_to <= $2 ORDER BY window_to DESC LIMIT 1`,
        [escapeText(organizationId), at],
      );
      const period = rows[0]?.period;
      return period === undefined ? null : load(organizationId, unescapeText(period), false);
    },

    async periodsEndingBy(organizationId, at) {
      const org = escapeText(organizationId);
      const heads = await db.query<{ period: string; window_from: string; window_to: string }>(
        `SELECT period, window_from, window_to FROM ${periods} WHERE organization_id = $1 AND status = 'recorded' AND window_to <= $2 ORDER BY window_to`,
        [org, at],
      );
      if (heads.rows.length === 0) return [];
      const f = await db.query<Record<string, Text>>(
        `SELECT f.period, ${figureColumns('f')} FROM ${figures} f JOIN ${periods} p ON p.organization_id = f.organization_id AND p.period = f.period AND p.status = f.status
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
    },
  };
}
