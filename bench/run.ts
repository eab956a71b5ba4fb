/**
 * `npm run bench`: the benchmark suite of issue 8 (not part of `npm test`). For each dataset
 * (default 100k and 1M payments over 1,000 wallets, with their ledgers):
 *
 *   e2e      `payexport export` (built CLI) → CSV + XLSX + Postgres snapshot: wall, peak RSS, stages
 *   extract  discovery + pull with 50 ms simulated latency against the floor requests × 50 ms / concurrency
 *   csv      our CSV writer against csv-stringify fed the same rows (the bare ceiling)
 *   xlsx     our XLSX writer against bare exceljs streaming, same rows
 *   load     the snapshot writer against plain COPY into the same Postgres, same rows
 *   rowcost  Postgres CPU per payment row, this tree against another tree (today's main) on the same
 *            rows (bench/row-cost.ts); at the smallest size only, and only given --rowcost-base or
 *            --rowcost-ref; pages of 100 rows (the pull's default page), --rowcost-page-rows to change
 *   cores    this checkout's export against a baseline commit's, same data, 50 ms latency: wall
 *            ratio, same CSV/XLSX bytes, and wall against the latency and CPU floors (bench/cores.ts)
 *   embedded `payexport export` on the embedded engine (a new data folder) and on the Postgres
 *            server, same data, 50 ms latency, one after the other: peak RSS and the wall ratio
 *   issue29  at the smallest size, over --issue29-wallets (200): pages of 100 against the default (1000 asked)
 *            (requests, the API floor, same bytes), efficiency against max(API floor, CPU floor ÷
 *            cores), export --no-db against the naive exporter (bench/issue29.ts)
 *
 * Every ceiling is measured in the same run as what it bounds, on the same machine, because this
 * machine is shared and noisy (±30 % between runs is normal); the table prints the load average.
 * Prints a table and writes bench/results.json.
 *
 *   npm run bench                                   everything (≈ 20 min on 2 cores)
 *   npm run bench -- --sizes 100000 --only e2e,csv  a part
 *   npm run bench -- --cpu-prof bench/out/prof      the e2e job with --cpu-prof
 *   npm run bench -- --sizes 100000 --only rowcost --rowcost-ref <commit of main>   target 4 alone
 *   npm run bench -- --sizes 100000 --only cores --baseline-ref <sha>   targets 2 and 3 of issue 21 alone
 *                                                   (or BENCH_ONLY=cores; the baseline defaults to main)
 *
 * `cores` is not in the default set: it builds a second checkout and runs the export twice.
 *   npm run bench -- --sizes 100000 --only embedded the embedded default alone (issue 21, target 1)
 *   npm run bench -- --only delivery                 delivery (issue 40, bench/delivery/): SFTP and S3 against OpenSSH's sftp and the AWS CLI
 */
import { execFileSync } from 'node:child_process';
import { rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { runExport, type ExportRunResult } from './e2e/export-run.js';
import { ROOT } from './e2e/sim-child.js';
import { runExtractionBench, type ExtractionRun } from './extract.js';
import { runCoresBench, type CoresResult } from './cores.js';
import { runIssue29, type Issue29Result } from './issue29.js';
import { measureRowCost, prepareBaseTree, PULL_PAGE_ROWS, type RowCostResult } from './row-cost.js';
import { measureSinks, type SinkResult } from './sinks.js';
import { TARGETS, verdicts, type Verdict } from './targets.js';
import { runDeliveryBench, type DeliveryBenchResult } from './delivery/delivery-bench.js';
import { deliveryTable, deliveryVerdicts } from './delivery/delivery-report.js';

const SECTIONS = ['e2e', 'extract', 'csv', 'xlsx', 'load', 'rowcost', 'cores', 'embedded', 'issue29', 'delivery'] as const;
const DEFAULT_SECTIONS = ['e2e', 'extract', 'csv', 'xlsx', 'load', 'rowcost', 'embedded', 'issue29', 'delivery'] as const;
type Section = (typeof SECTIONS)[number];

export interface SizeResult {
  payments: number;
  e2e?: ExportRunResult;
  extract?: ExtractionRun & { store: string };
  csv?: { ours: SinkResult; bare: SinkResult; ratio: number };
  xlsx?: { ours: SinkResult; bare: SinkResult; ratio: number };
  load?: { snapshotRowsPerSecond: number; copyRowsPerSecond: number; ratio: number; detail: Record<string, unknown> };
  rowcost?: RowCostResult & { baseCommit: string | null };
  cores?: CoresResult;
  /** the same export on the Postgres server and on the embedded engine, in turn; wallRatio = embedded / server */
  embedded?: { server: ExportRunResult; embedded: ExportRunResult; wallRatio: number; latencyMs: number };
  /** issue 29: round trips against the API floor, the naive exporter, efficiency (bench/issue29.ts); smallest size only */
  issue29?: Issue29Result & { wallets: number };
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      sizes: { type: 'string', default: '100000,1000000' },
      wallets: { type: 'string', default: '1000' },
      only: { type: 'string', default: process.env.BENCH_ONLY ?? DEFAULT_SECTIONS.join(',') },
      seed: { type: 'string', default: '11' },
      concurrency: { type: 'string', default: '8' },
      latency: { type: 'string', default: '50' },
      'extract-store': { type: 'string', default: 'postgres' },
      'cpu-prof': { type: 'string' },
      /** a checkout of the tree to compare with (its node_modules in place), e.g. a worktree of main */
      'rowcost-base': { type: 'string' },
      /** or a git ref: exported to a temporary folder beside this tree's node_modules (hard links) */
      'rowcost-ref': { type: 'string' },
      'rowcost-rounds': { type: 'string', default: '2' },
      'rowcost-page-rows': { type: 'string', default: String(PULL_PAGE_ROWS) },
      'baseline-ref': { type: 'string', default: process.env.BENCH_BASELINE_REF ?? 'main' },
      'baseline-dir': { type: 'string' },
      /** issue 29's data: 200 wallets */
      'issue29-wallets': { type: 'string', default: '200' },
      /** the issue29 pairs: behind, roundtrips, efficiency (needs roundtrips), naive */
      'issue29-pairs': { type: 'string', default: 'behind,roundtrips,efficiency,naive' },
      /** the delivery section (bench/delivery/): the month-end's dataset, rounds, the padded pair for RSS in MB */
      'delivery-payments': { type: 'string', default: '72000' },
      'delivery-reps': { type: 'string', default: '3' },
      'delivery-rss-mb': { type: 'string', default: '50,500' },
    },
  });
  const databaseUrl = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
  const sizes = values.sizes.split(',').map(Number);
  const only = new Set(values.only.split(',') as Section[]);
  for (const s of only) if (!SECTIONS.includes(s)) throw new Error(`--only: unknown section ${s} (${SECTIONS.join(', ')})`);
  const wallets = Number(values.wallets);
  const concurrency = Number(values.concurrency);
  const started = new Date();
  const machine = {
    cpus: os.cpus().length,
    cpuModel: os.cpus()[0]?.model ?? 'unknown',
    memoryGb: Math.round(os.totalmem() / 2 ** 30),
    node: process.version,
    postgres: serverVersion(databaseUrl),
    loadAverageAtStart: os.loadavg().map((n) => Math.round(n * 100) / 100),
  };
  log(`payexport bench: sizes ${sizes.join(', ')}, ${wallets} wallets, sections ${[...only].join(', ')}; ${machine.cpus} cpus, load ${machine.loadAverageAtStart.join(' ')}`);

  const results: SizeResult[] = [];
  const errors: Array<{ payments: number; section: string; error: string }> = [];
  let delivery: DeliveryBenchResult | undefined;
  const allVerdicts = (): Verdict[] => [...verdicts(results), ...(delivery ? deliveryVerdicts(delivery) : [])];
  const save = (): void => {
    const checks = allVerdicts();
    const table = renderTable(results, checks, machine, delivery);
    const out = { started: started.toISOString(), finished: new Date().toISOString(), machine, loadAverageAtEnd: os.loadavg().map((x) => Math.round(x * 100) / 100), targets: TARGETS, results, ...(delivery ? { delivery } : {}), checks, errors };
    writeFileSync(path.join(ROOT, 'bench/results.json'), `${JSON.stringify(out, null, 2)}\n`);
    writeFileSync(path.join(ROOT, 'bench/results.md'), `${table}\n`);
  };
  /** A failing section is recorded and the suite goes on; what was measured is saved after each one. */
  const section = async (payments: number, name: string, fn: () => Promise<void>): Promise<void> => {
    try {
      await fn();
    } catch (error) {
      const message = error instanceof Error ? error.message.split('\n').slice(0, 3).join(' ') : String(error);
      errors.push({ payments, section: name, error: message });
      log(`  ${name} failed: ${message}`);
    }
    save();
  };
  for (const payments of sizes) {
    const r: SizeResult = { payments };
    results.push(r);
    if (only.has('e2e')) {
      await section(payments, 'e2e', async () => {
        log(`[${payments}] e2e export → CSV + XLSX + Postgres`);
        r.e2e = await runExport({ payments, wallets, seed: Number(values.seed), databaseUrl, concurrency, ...(values['cpu-prof'] ? { cpuProfDir: path.resolve(values['cpu-prof']) } : {}) });
        log(`  ${r.e2e.wallSeconds} s, peak RSS ${r.e2e.peakRssMb} MB, exit ${r.e2e.exitCode}, stages ${JSON.stringify(r.e2e.phases)}, cpu ${JSON.stringify(r.e2e.cpuSeconds)}`);
      });
    }
    if (only.has('extract')) {
      await section(payments, 'extract', async () => {
        log(`[${payments}] extraction with ${values.latency} ms latency, concurrency ${concurrency}, store ${values['extract-store']}`);
        if (values['extract-store'] === 'postgres') process.env.DATABASE_URL = databaseUrl;
        const ex = await runExtractionBench({
          payments,
          wallets,
          seed: Number(values.seed),
          latencyMs: Number(values.latency),
          concurrency,
          pageSize: 100,
          store: values['extract-store'] as 'postgres' | 'memory' | 'spool',
          repeat: 1,
          // the warm-up pull doubles the time; the simulator's first-use index build is small next to 50 ms a request
          warmup: payments <= 100_000,
        });
        r.extract = { ...ex.median, store: values['extract-store'] };
        log(`  ${r.extract.wallMs} ms / floor ${r.extract.floorMs} ms = ${r.extract.ratio} (${r.extract.requests} requests)`);
      });
    }
    const sinkVariants = [...(only.has('csv') ? ['csv-bare', 'csv-ours'] : []), ...(only.has('xlsx') ? ['xlsx-bare', 'xlsx-ours'] : [])];
    if (sinkVariants.length > 0) {
      await section(payments, 'writers', async () => {
        log(`[${payments}] writers: ${sinkVariants.join(', ')}`);
        const sinks = await measureSinks([payments], sinkVariants, 1);
        const pair = (kind: 'csv' | 'xlsx') => {
          const ours = sinks.find((s) => s.variant === `${kind}-ours`);
          const bare = sinks.find((s) => s.variant === `${kind}-bare`);
          return ours && bare ? { ours, bare, ratio: round2(bare.ms / ours.ms) } : undefined;
        };
        const csv = pair('csv');
        const xlsx = pair('xlsx');
        if (csv) r.csv = csv;
        if (xlsx) r.xlsx = xlsx;
      });
    }
    if (only.has('load')) {
      await section(payments, 'load', async () => {
        log(`[${payments}] snapshot load vs plain COPY`);
        const detail = JSON.parse(
          execFileSync(process.execPath, ['--max-old-space-size=12000', '--import', 'tsx', path.join(ROOT, 'bench/store.ts'), String(payments), '--server-only', '--light'], { encoding: 'utf8', maxBuffer: 1 << 26, env: { ...process.env, DATABASE_URL: databaseUrl } })
            .trim()
            .split('\n')
            .at(-1) as string,
        ) as Record<string, { rowsPerSecond: number }>;
        // the headline is one stream of 1000-row pages against one COPY: like with like (the job runs several streams; see detail)
        const snapshot = detail.snapshot_page_1000?.rowsPerSecond ?? 0;
        const copy = detail.plain_copy_with_encode?.rowsPerSecond ?? 1;
        r.load = { snapshotRowsPerSecond: snapshot, copyRowsPerSecond: copy, ratio: round2(snapshot / copy), detail };
        log(`  snapshot ${snapshot} rows/s vs COPY ${copy} rows/s = ${r.load.ratio}`);
      });
    }
    if (only.has('embedded')) {
      await section(payments, 'embedded', async () => {
        const run = { payments, wallets, seed: Number(values.seed), concurrency, latencyMs: Number(values.latency) };
        log(`[${payments}] export on the Postgres server, then on the embedded engine (new data folder), ${run.latencyMs} ms latency`);
        const server = await runExport({ ...run, databaseUrl });
        log(`  server: ${server.wallSeconds} s, peak RSS ${server.peakRssMb} MB, load ${loadNow()}`);
        const embedded = await runExport({ ...run, databaseUrl: null });
        log(`  embedded: ${embedded.wallSeconds} s, peak RSS ${embedded.peakRssMb} MB, load ${loadNow()}`);
        r.embedded = { server, embedded, wallRatio: round2(embedded.wallSeconds / server.wallSeconds), latencyMs: run.latencyMs };
      });
    }
    if (only.has('cores')) {
      await section(payments, 'cores', async () => {
        log(`[${payments}] cores: this checkout against ${values['baseline-ref']}, ${values.latency} ms latency`);
        r.cores = await runCoresBench({
          payments,
          wallets,
          seed: Number(values.seed),
          concurrency,
          latencyMs: Number(values.latency),
          databaseUrl,
          baselineRef: values['baseline-ref'],
          ...(values['baseline-dir'] ? { baselineDir: path.resolve(values['baseline-dir']) } : {}),
        });
        const c = r.cores;
        log(`  wall ${c.current.wallSeconds} s vs ${c.baseline.wallSeconds} s = ${c.wallRatio}; same bytes: ${c.sameBytes}; floors: latency ${c.floors.latencySeconds} s, CPU ${c.floors.cpuSeconds} s / ${c.floors.cores} cores ${JSON.stringify(c.floors.parts)}; efficiency ${c.efficiencyRatio}`);
      });
    }
  }
  const smallest = results.reduce<SizeResult | undefined>((m, r) => (m === undefined || r.payments < m.payments ? r : m), undefined);
  if (only.has('issue29') && smallest !== undefined) {
    await section(smallest.payments, 'issue29', async () => {
      const issueWallets = Number(values['issue29-wallets']);
      const pairs = new Set(values['issue29-pairs'].split(',') as Array<'roundtrips' | 'naive' | 'efficiency' | 'reads' | 'behind'>);
      log(`[${smallest.payments}] issue 29 over ${issueWallets} wallets, ${values.latency} ms latency: ${[...pairs].join(', ')}`);
      smallest.issue29 = { ...(await runIssue29({ payments: smallest.payments, wallets: issueWallets, seed: Number(values.seed), concurrency, latencyMs: Number(values.latency), databaseUrl, pairs, log })), wallets: issueWallets };
    });
  }
  if (only.has('rowcost') && smallest !== undefined) {
    const baseOption = values['rowcost-base'];
    const refOption = values['rowcost-ref'];
    if (baseOption === undefined && refOption === undefined) {
      log('rowcost: skipped (give --rowcost-base DIR or --rowcost-ref REF to compare with)');
    } else {
      await section(smallest.payments, 'rowcost', async () => {
        const base = baseOption !== undefined ? { root: baseOption, commit: null } : prepareBaseTree(refOption as string);
        log(`[${smallest.payments}] Postgres CPU per payment row: this tree vs ${base.commit ?? base.root}, pages of ${values['rowcost-page-rows']}, ${values['rowcost-rounds']} rounds`);
        try {
          smallest.rowcost = { ...(await measureRowCost(base.root, smallest.payments, Number(values['rowcost-rounds']), Number(values['rowcost-page-rows']))), baseCommit: base.commit };
        } finally {
          // a tree exported here for --rowcost-ref is ours to remove (its node_modules is a link)
          if (baseOption === undefined) rmSync(base.root, { recursive: true, force: true });
        }
        const rc = smallest.rowcost;
        log(`  new rows ${rc.branch.newRows.serverUsPerRow} µs vs ${rc.base.newRows.serverUsPerRow} µs = ${rc.ratioNew}; changed rows ${rc.branch.changedRows.serverUsPerRow} µs vs ${rc.base.changedRows.serverUsPerRow} µs = ${rc.ratioChanged}`);
      });
    }
  }
  if (only.has('delivery')) {
    await section(0, 'delivery', async () => {
      log(`delivery: month-end folder → OpenSSH and moto on loopback, ${values['delivery-reps']} rounds`);
      const [small = 50, large = 500] = values['delivery-rss-mb'].split(',').map(Number);
      delivery = await runDeliveryBench({ payments: Number(values['delivery-payments']), seed: Number(values.seed), reps: Number(values['delivery-reps']), rssSizesMb: [small, large], log });
    });
  }
  save();
  console.log(`\n${renderTable(results, allVerdicts(), machine, delivery)}`);
  log(`written bench/results.json and bench/results.md${errors.length > 0 ? `; ${errors.length} section(s) failed` : ''}`);
  if (errors.length > 0) process.exitCode = 1;
}

function renderTable(results: SizeResult[], checks: Verdict[], machine: { cpus: number; cpuModel: string; node: string; postgres: string; loadAverageAtStart: number[] }, delivery?: DeliveryBenchResult): string {
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
  for (const r of results.filter((x) => x.issue29 !== undefined)) lines.push('', ...issue29Table(r.payments, r.issue29!));
  if (delivery) lines.push('', ...deliveryTable(delivery));
  lines.push('', '| target | measured | met |', '|---|---|:---:|');
  for (const c of checks) lines.push(`| ${c.target} | ${c.measured} | ${c.met === null ? '—' : c.met ? 'yes' : '**no**'} |`);
  return lines.join('\n');
}

function issue29Table(payments: number, r: Issue29Result & { wallets: number }): string[] {
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

function serverVersion(url: string): string {
  try {
    return execFileSync('psql', [url, '-Atc', 'SHOW server_version'], { encoding: 'utf8' }).trim();
  } catch {
    return 'unknown';
  }
}

const loadNow = (): string => os.loadavg().map((x) => x.toFixed(2)).join(' ');
const pct = (ratio: number): string => `${Math.round(ratio * 100)} %`;
const round2 = (x: number): number => Math.round(x * 100) / 100;
function log(line: string): void {
  process.stderr.write(`${line}\n`);
}

await main();
