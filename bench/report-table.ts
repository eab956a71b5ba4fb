/** The Markdown tables of a bench run (bench/results.md and the console): one per section that ran, then the verdicts. */
import type { CoresResult } from './cores.js';
import type { DeliveryBenchResult } from './delivery/delivery-bench.js';
import { deliveryTable } from './delivery/delivery-report.js';
import type { ExportPairsResult } from './export-pairs.js';
import { cpuFloorTable } from './cpu-floor-report.js';
import type { SinkResult } from './sinks.js';
import type { Machine, SizeResult, Verdict } from './types.js';

export function renderTable(results: SizeResult[], checks: Verdict[], machine: Machine, delivery?: DeliveryBenchResult): string {
  const n = (x: number) => Math.round(x).toLocaleString('en-US');
  const lines = [`Machine: ${machine.cpus} × ${machine.cpuModel}, Node ${machine.node}, PostgreSQL ${machine.postgres}, load average at start ${machine.loadAverageAtStart.join(' ')}`];
  // the stage table only when a stage section ran (`--only cores` has a table of its own)
  const staged = results.filter((r) => r.e2e !== undefined || r.extract !== undefined || r.csv !== undefined || r.xlsx !== undefined || r.load !== undefined);
  if (staged.length > 0) {
    lines.push(
      '',
      '| payments | e2e wall s | peak RSS MB | discovery / pull / report s | CPU core-s: job / simulator / Postgres+rest (of cores × wall) | extraction: wall / floor (ratio) | CSV rows/s (ceiling) | XLSX rows/s (ceiling) | snapshot load rows/s (COPY) |',
      '|---:|---:|---:|---|---|---|---|---|---|',
    );
  }
  for (const r of staged) {
    const e = r.e2e;
    const x = r.extract;
    const rate = (s: SinkResult) => n((s.rows / s.ms) * 1000);
    lines.push(
      [
        n(r.payments),
        e ? e.wallSeconds.toFixed(1) : '—',
        e ? n(e.peakRssMb) : '—',
        e ? `${e.phases.discovery ?? '?'} / ${e.phases.pull ?? '?'} / ${e.phases.report ?? '?'}` : '—',
        e?.cpuSeconds ? `${n(e.cpuSeconds.job)} / ${n(e.cpuSeconds.simulator)} / ${n(e.cpuSeconds.rest)} (${n(e.cpuSeconds.machine)})` : '—',
        x ? `${(x.wallMs / 1000).toFixed(1)} s / ${(x.floorMs / 1000).toFixed(1)} s (${x.ratio.toFixed(2)}, ${x.requests} req, ${x.store})` : '—',
        r.csv ? `${rate(r.csv.ours)} (${rate(r.csv.bare)}) = ${pct(r.csv.ratio)}` : '—',
        r.xlsx ? `${rate(r.xlsx.ours)} (${rate(r.xlsx.bare)}) = ${pct(r.xlsx.ratio)}` : '—',
        r.load ? `${n(r.load.snapshotRowsPerSecond)} (${n(r.load.copyRowsPerSecond)}) = ${pct(r.load.ratio)}` : '—',
      ].join(' | ').replace(/^/, '| ') + ' |',
    );
  }
  const embedded = results.filter((r) => r.embedded);
  if (embedded.length > 0) {
    lines.push('', '| payments (embedded section) | server: wall s / peak RSS MB / job CPU s | embedded: wall s / peak RSS MB / job CPU s | wall embedded ÷ server |', '|---:|---|---|---:|');
    for (const r of embedded) {
      const { server: s, embedded: e, wallRatio } = r.embedded!;
      lines.push(`| ${n(r.payments)} | ${s.wallSeconds.toFixed(1)} / ${n(s.peakRssMb)} / ${n(s.cpuSeconds.job)} | ${e.wallSeconds.toFixed(1)} / ${n(e.peakRssMb)} / ${n(e.cpuSeconds.job)} | ${wallRatio.toFixed(2)} |`);
    }
  }
  const cores = results.filter((r) => r.cores !== undefined);
  if (cores.length > 0) {
    lines.push(
      '',
      '| payments | latency | baseline → this wall s | ratio | job CPU s (baseline → this) | peak RSS MB | discovery / pull / report s (this) | CSV + XLSX bytes | floors s: latency / CPU ÷ cores (JSON.parse + csv-stringify + exceljs + COPY) | wall ÷ floor |',
      '|---:|---:|---|---:|---|---|---|---|---|---:|',
    );
    for (const r of cores) {
      const c = r.cores as CoresResult;
      const f = c.floors;
      lines.push(
        `| ${n(r.payments)} | ${c.latencyMs} ms | ${c.baseline.wallSeconds.toFixed(1)} → ${c.current.wallSeconds.toFixed(1)} | ${c.wallRatio.toFixed(2)} | ${c.baseline.cpuSeconds.job} → ${c.current.cpuSeconds.job} | ${c.baseline.peakRssMb} → ${c.current.peakRssMb} | ${c.current.phases.discovery ?? '?'} / ${c.current.phases.pull ?? '?'} / ${c.current.phases.report ?? '?'} | ${c.sameBytes ? 'identical' : `differ: ${c.differingFiles.join(', ')}`} | ${f.latencySeconds} / ${f.cpuSeconds} ÷ ${f.cores} (${f.parts.jsonParse} + ${f.parts.csvStringify} + ${f.parts.exceljs} + ${f.parts.copy}) | ${c.efficiencyRatio.toFixed(2)} |`,
      );
    }
  }
  for (const r of results.filter((x) => x.issue29 !== undefined)) lines.push('', ...exportPairsTable(r.payments, r.issue29!));
  for (const r of results.filter((x) => x.issue41 !== undefined)) lines.push('', ...cpuFloorTable(r.issue41!));
  if (delivery) lines.push('', ...deliveryTable(delivery));
  lines.push('', '| target | measured | met |', '|---|---|:---:|');
  for (const c of checks) lines.push(`| ${c.target} | ${c.measured} | ${c.met === null ? '—' : c.met ? 'yes' : '**no**'} |`);
  return lines.join('\n');
}

function exportPairsTable(payments: number, r: ExportPairsResult & { wallets: number }): string[] {
  const out: string[] = [];
  const bh = r.behind;
  if (bh) {
    out.push(
      `Issue 29 target 1, ${payments.toLocaleString('en-US')} payments over ${r.wallets} wallets, ${r.latencyMs} ms latency, Postgres server, back to back:`,
      '',
      '| run | load at start | wall s | job CPU s | peak RSS MB | discovery / pull / report after the pull s |',
      '|---|---|---:|---:|---:|---|',
    );
    for (const [label, x] of [[`report after the pull (${bh.afterPullCommit.slice(0, 7)})`, bh.before], ['report behind the pull (this checkout)', bh.after]] as const) {
      out.push(`| ${label} | ${x.load} | ${x.wallSeconds.toFixed(1)} | ${x.cpuSeconds.job} | ${x.peakRssMb} | ${x.phases.discovery ?? '?'} / ${x.phases.pull ?? '?'} / ${x.phases.report ?? '?'} |`);
    }
    out.push('', `CSV + XLSX bytes of the two runs: ${bh.sameBytes ? 'identical' : `differ: ${bh.differingFiles.join(', ')}`}`, '');
  }
  const rt = r.roundTrips;
  if (rt) {
    out.push(
      `Issue 29, ${payments.toLocaleString('en-US')} payments over ${r.wallets} wallets, ${r.latencyMs} ms latency, Postgres server, back to back:`,
      '',
      '| run | load at start | wall s | peak RSS MB | requests made (payments / ledger / summaries / policies / by id / other) | API floor: requests (payments / ledger) = s | discovery / pull / report s |',
      '|---|---|---:|---:|---|---|---|',
    );
    for (const [label, x] of [['`--page-size 100`', rt.before], ['default (1000 asked, negotiated)', rt.after]] as const) {
      const m = x.floor.made;
      out.push(`| ${label} | ${x.load} | ${x.wallSeconds.toFixed(1)} | ${x.peakRssMb} | ${x.floor.madeTotal} (${m.payments ?? 0} / ${m.ledger ?? 0} / ${m.summary ?? 0} / ${m.policies ?? 0} / ${m.payment_by_id ?? 0} / ${m.other ?? 0}) | ${x.floor.floorTotal} (${x.floor.floor.payments} / ${x.floor.floor.ledger}) = ${x.floor.floorSeconds} | ${x.phases.discovery ?? '?'} / ${x.phases.pull ?? '?'} / ${x.phases.report ?? '?'} |`);
    }
    out.push('', `CSV + XLSX bytes of the two runs: ${rt.sameBytes ? 'identical' : `differ: ${rt.differingFiles.join(', ')}`}`);
  }
  if (r.naive) {
    const { payexport: p, naive: n } = r.naive;
    out.push('', '| exporter (CSV + XLSX, no database) | load at start | wall s | CPU s | peak RSS MB | requests |', '|---|---|---:|---:|---:|---:|');
    out.push(`| payexport export --no-db | ${p.load} | ${p.wallSeconds.toFixed(1)} | ${p.cpuSeconds.job} | ${p.peakRssMb} | ${p.apiRequests} |`);
    out.push(`| naive (bench/naive-exporter.ts) | ${n.load} | ${n.wallSeconds.toFixed(1)} | ${n.cpuSeconds} | ${n.peakRssMb} | ${n.requests} |`);
  }
  return out;
}

const pct = (ratio: number): string => `${Math.round(ratio * 100)} %`;
