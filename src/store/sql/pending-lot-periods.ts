/**
 * A closed period of the subledger recorded as pending for a run (migrations 010–015, status
 * `pending`): its head, figures, closing lots, relief lines, notes and allocation in one transaction, replacing
 * a pending record of the same period an earlier, unconfirmed run left. It becomes the recorded
 * period when the run confirms it (confirm-pending.ts).
 */
import type { LotPeriodRecord } from '../../model/lots-record.js';
import type { Db } from '../db/db.js';
import type { StoreSchema } from '../db/schema.js';
import { escapeText } from '../encoding/text-escape.js';
import { allocationHead, stageAllocation } from './lot-allocations.js';
import { stageNotes } from './lot-notes.js';

type Text = string | null;
const num = (v: bigint | null): Text => (v === null ? null : v.toString());
const txt = (v: string): string => escapeText(v);

export async function stageLotPeriod(db: Db, schema: StoreSchema, organizationId: string, runId: string, rec: LotPeriodRecord): Promise<void> {
  const periods = schema.table('lot_periods');
  const figures = schema.table('lot_figures');
  const closings = schema.table('lot_closings');
  const reliefs = schema.table('lot_period_reliefs');
  const notes = schema.table('lot_period_notes');
  const org = escapeText(organizationId);
  const period = escapeText(rec.period);
  await db.transaction(async (tx) => {
    await tx.query(`DELETE FROM ${periods} WHERE organization_id = $1 AND period = $2 AND status = 'pending'`, [org, period]);
    await tx.query(
      `INSERT INTO ${periods} (organization_id, period, status, run_id, window_from, window_to, notes_recorded, allocation_recorded, allocation_file, allocation_checked, allocation_changed)
       VALUES ($1, $2, 'pending', $3, $4, $5, $6, $7, $8, $9, $10)`,
      [org, period, escapeText(runId), rec.windowFrom, rec.windowTo, rec.notes !== undefined, ...allocationHead(rec.allocation)],
    );
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
    await stageAllocation(tx, schema.table('lot_period_allocations'), org, period, rec.allocation?.lots ?? []);
  });
}
