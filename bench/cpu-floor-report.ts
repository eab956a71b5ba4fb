/** The issue 41 section's table and verdicts (bench/cpu-floor.ts): job CPU per payment against the bare libraries' floor. */
import type { GcShare } from './floor/gc-share.js';
import { beyond } from './floor/writers-gc.js';
import type { CpuFloorResult } from './cpu-floor.js';
import type { Verdict } from './types.js';

export const CPU_FLOOR_TARGETS = {
  /** target 1: job CPU per payment ≤ this × the floor, spool and server */
  floorRatioMax: 1.5,
  /** target 3: embedded job CPU ≤ this × (server job CPU + the server's CPU), and wall ≤ 1.3 × */
  embeddedCpuRatioMax: 1.2,
  embeddedWallRatioMax: 1.3,
  /** target 4: GC share of the main thread */
  gcShareMax: 0.08,
} as const;

const us = (x: number | null | undefined): string => (x === null || x === undefined ? '—' : x.toFixed(0));

export function cpuFloorTable(r: CpuFloorResult): string[] {
  const f = r.floor;
  const per = (s: number): string => us((s * 1e6) / r.payments);
  const stageNames = [...new Set([...Object.keys(r.stagesUs.spool), ...Object.keys(r.stagesUs.server), ...Object.keys(r.stagesUs.embedded)])];
  const out = [
    `Issue 41, ${r.payments.toLocaleString('en-US')} payments over ${r.wallets} wallets, no added latency (CPU-bound), one run after the other; µs of CPU per payment:`,
    '',
    `| kind | job CPU µs / payment | ${stageNames.join(' / ')} | Postgres server µs | floor µs | job ÷ floor |`,
    '|---|---:|---|---:|---:|---:|',
    `| --no-db (spool) | ${us(r.us.spool)} | ${stageNames.map((s) => us(r.stagesUs.spool[s])).join(' / ')} | — | ${us(f.noDbUs)} | ${r.ratios.spoolOverFloor.toFixed(2)} |`,
    `| Postgres server | ${us(r.us.server)} | ${stageNames.map((s) => us(r.stagesUs.server[s])).join(' / ')} | ${us(r.us.serverPostgres)} | ${us(f.serverUs)} | ${r.ratios.serverOverFloor.toFixed(2)} |`,
  ];
  if (r.us.embedded !== null) {
    out.push(`| embedded | ${us(r.us.embedded)} | ${stageNames.map((s) => us(r.stagesUs.embedded[s])).join(' / ')} | (in the job) | — | ${r.ratios.embeddedOverServerTotal?.toFixed(2)} × (server job + server) |`);
  }
  out.push(
    '',
    `Floor for the same data: JSON.parse of ${f.pages.pages} page bodies (${Math.round(f.pages.bytes / 1e6)} MB) ${per(f.pages.seconds)} µs + csv-stringify of the ${f.files.rows.toLocaleString('en-US')} rows written ${per(f.files.csvStringifySeconds)} µs + exceljs streaming of the same rows ${per(f.files.exceljsSeconds)} µs (+ COPY of ${f.copy.rows.toLocaleString('en-US')} rows ${per(f.copy.seconds)} µs on the server path)`,
    '',
    `Beyond the floor, what any pull over HTTP that survives a kill must add, at its cheapest (bench/floor/required-work.ts): receiving the bodies with undici ${per(f.required.receiveSeconds)} µs + writing each as received and fsync'ing it ${per(f.required.keepSeconds)} µs + reading each back and parsing it once ${per(f.required.rereadSeconds)} µs = ${us(f.requiredUs)} µs, ${((100 * f.requiredUs) / (0.5 * f.noDbUs)).toFixed(0)} % of target 1's margin (0.5 × floor = ${us(0.5 * f.noDbUs)} µs); the job's own work beyond both: ${us(r.us.spool - f.noDbUs - f.requiredUs)} µs`,
  );
  // absent in results written before rounds existed
  const rounds = r.rounds ?? [];
  if (rounds.length > 1) out.push('', `Spool rounds (job, then its floor): ${rounds.map((x) => `${us(x.jobUs)} / ${us(x.floorUs)} µs = ${x.ratio.toFixed(2)} ×`).join('; ')}; the table shows the median round`);
  if (r.gc) out.push('', `GC (--no-db, --cpu-prof): ${r.gc.gcSeconds.toFixed(1)} s of ${r.gc.busySeconds.toFixed(1)} s busy on the main thread = ${(r.gc.share * 100).toFixed(1)} %`);
  // absent in results written before the writers' share was measured
  if (r.writersGc) {
    const share = (g: GcShare): string => `${(g.share * 100).toFixed(1)} %`;
    out.push('', `GC of the bare writers alone on the same rows (bench/floor/writers-gc.ts: each pass its own process under --cpu-prof, beyond the parse): csv-stringify ${share(beyond(r.writersGc.csv, r.writersGc.parse))}, exceljs streaming ${share(beyond(r.writersGc.xlsx, r.writersGc.parse))}, together ${share(r.writersGc.writers)} (${r.writersGc.writers.gcSeconds.toFixed(2)} s of ${r.writersGc.writers.busySeconds.toFixed(2)} s)`);
  }
  return out;
}

export function cpuFloorVerdicts(r: CpuFloorResult): Verdict[] {
  const label = r.payments >= 1_000_000 ? `${r.payments / 1_000_000}M` : `${Math.round(r.payments / 1000)}k`;
  const max = CPU_FLOOR_TARGETS.floorRatioMax;
  const out: Verdict[] = [
    { target: `issue 41 target 1: --no-db job CPU ≤ ${max} × the bare-library floor (${label})`, measured: `${r.ratios.spoolOverFloor.toFixed(2)} × (${us(r.us.spool)} µs / ${us(r.floor.noDbUs)} µs per payment)`, met: r.ratios.spoolOverFloor <= max },
    { target: `issue 41 target 1: Postgres-server job CPU ≤ ${max} × the floor with COPY (${label})`, measured: `${r.ratios.serverOverFloor.toFixed(2)} × (${us(r.us.server)} µs / ${us(r.floor.serverUs)} µs per payment)`, met: r.ratios.serverOverFloor <= max },
  ];
  if (r.ratios.embeddedOverServerTotal !== null && r.ratios.embeddedWall !== null) {
    out.push({
      target: `issue 41 target 3: embedded CPU ≤ ${CPU_FLOOR_TARGETS.embeddedCpuRatioMax} × (server job + Postgres server CPU) (${label})`,
      measured: `${r.ratios.embeddedOverServerTotal.toFixed(2)} × (${us(r.us.embedded)} µs / (${us(r.us.server)} + ${us(r.us.serverPostgres)}) µs)`,
      met: r.ratios.embeddedOverServerTotal <= CPU_FLOOR_TARGETS.embeddedCpuRatioMax,
    });
    out.push({ target: `issue 41 target 3: embedded wall ≤ ${CPU_FLOOR_TARGETS.embeddedWallRatioMax} × the server's, CPU-bound (${label})`, measured: `${r.ratios.embeddedWall.toFixed(2)} ×`, met: r.ratios.embeddedWall <= CPU_FLOOR_TARGETS.embeddedWallRatioMax });
  }
  if (r.gc) {
    const writers = r.writersGc ? `; the bare writers alone ${(r.writersGc.writers.share * 100).toFixed(1)} %` : '';
    out.push({ target: `issue 41 target 4: GC ≤ ${CPU_FLOOR_TARGETS.gcShareMax * 100} % of the main thread (--no-db, ${label})`, measured: `${(r.gc.share * 100).toFixed(1)} %${writers}`, met: r.gc.share <= CPU_FLOOR_TARGETS.gcShareMax });
  }
  return out;
}
