/**
 * `npm run bench`: the benchmark suite of issue 8 (not part of `npm test`). For each dataset
 * (default 100k payments over 1,000 wallets, with their ledgers; 1M with `--sizes 100000,1000000`
 * or BENCH_SIZES, which takes most of an hour):
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
 *   issue41  at the smallest size, over --issue41-wallets (200), no latency: job CPU µs per payment on
 *            the spool, the Postgres server and the embedded engine, per stage, against the bare
 *            libraries' floor for the same data (JSON.parse + csv-stringify + exceljs, + COPY), and
 *            the GC share of the main thread (bench/cpu-floor.ts)
 *   issue29  at the smallest size, over --issue29-wallets (200): pages of 100 against the default (1000 asked)
 *            (requests, the API floor, same bytes), efficiency against max(API floor, CPU floor ÷
 *            cores), export --no-db against the naive exporter (bench/export-pairs.ts)
 *
 * Every ceiling is measured in the same run as what it bounds, on the same machine, because this
 * machine is shared and noisy (±30 % between runs is normal); the table prints the load average.
 * Prints a table and writes bench/results.json.
 *
 *   npm run bench                                   everything at 100k (≈ 20 min on 2 cores)
 *   npm run bench -- --only issue41,issue29 --issue29-pairs naive   issue 41's targets alone
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
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { parseBenchArgs } from './bench-options.js';
import type { DeliveryBenchResult } from './delivery/delivery-bench.js';
import { deliveryVerdicts } from './delivery/delivery-report.js';
import { ROOT } from './e2e/sim-child.js';
import { describeMachine, loadAverage } from './machine.js';
import { deliverySection, exportPairsSection, cpuFloorSection, rowcostSection } from './once-sections.js';
import { renderTable } from './report-table.js';
import { coresSection, e2eSection, embeddedSection, extractSection, loadSection, writersSection } from './size-sections.js';
import { TARGETS, verdicts } from './targets.js';
import { applyStartUpSettings } from '../src/platform/start-up.js';
import type { SizeResult, Verdict } from './types.js';

async function main(): Promise<void> {
  // the CLI's own process settings (src/platform/start-up.ts) for the floors measured in this process too: job and floor on the same runtime
  applyStartUpSettings();
  const o = parseBenchArgs();
  const { only, sizes } = o;
  const started = new Date();
  const machine = describeMachine(o.databaseUrl);
  log(`payexport bench: sizes ${sizes.join(', ')}, ${o.wallets} wallets, sections ${[...only].join(', ')}; ${machine.cpus} cpus, load ${machine.loadAverageAtStart.join(' ')}`);

  const results: SizeResult[] = [];
  const errors: Array<{ payments: number; section: string; error: string }> = [];
  let delivery: DeliveryBenchResult | undefined;
  const allVerdicts = (): Verdict[] => [...verdicts(results), ...(delivery ? deliveryVerdicts(delivery) : [])];
  const save = (): void => {
    const checks = allVerdicts();
    const table = renderTable(results, checks, machine, delivery);
    const out = { started: started.toISOString(), finished: new Date().toISOString(), machine, loadAverageAtEnd: loadAverage(), targets: TARGETS, results, ...(delivery ? { delivery } : {}), checks, errors };
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
    if (only.has('e2e')) await section(payments, 'e2e', () => e2eSection(r, o, log));
    if (only.has('extract')) await section(payments, 'extract', () => extractSection(r, o, log));
    const sinkVariants = [...(only.has('csv') ? ['csv-bare', 'csv-ours'] : []), ...(only.has('xlsx') ? ['xlsx-bare', 'xlsx-ours'] : [])];
    if (sinkVariants.length > 0) await section(payments, 'writers', () => writersSection(r, sinkVariants, log));
    if (only.has('load')) await section(payments, 'load', () => loadSection(r, o, log));
    if (only.has('embedded')) await section(payments, 'embedded', () => embeddedSection(r, o, log));
    if (only.has('cores')) await section(payments, 'cores', () => coresSection(r, o, log));
  }
  const smallest = results.reduce<SizeResult | undefined>((m, r) => (m === undefined || r.payments < m.payments ? r : m), undefined);
  if (smallest !== undefined) {
    if (only.has('issue41')) await section(smallest.payments, 'issue41', () => cpuFloorSection(smallest, o, log));
    if (only.has('issue29')) await section(smallest.payments, 'issue29', () => exportPairsSection(smallest, o, log));
    if (only.has('rowcost')) {
      if (o.values['rowcost-base'] === undefined && o.values['rowcost-ref'] === undefined) log('rowcost: skipped (give --rowcost-base DIR or --rowcost-ref REF to compare with)');
      else await section(smallest.payments, 'rowcost', () => rowcostSection(smallest, o, log));
    }
  }
  if (only.has('delivery')) await section(0, 'delivery', async () => void (delivery = await deliverySection(o, log)));
  save();
  console.log(`\n${renderTable(results, allVerdicts(), machine, delivery)}`);
  log(`written bench/results.json and bench/results.md${errors.length > 0 ? `; ${errors.length} section(s) failed` : ''}`);
  if (errors.length > 0) process.exitCode = 1;
}

function log(line: string): void {
  process.stderr.write(`${line}\n`);
}

await main();
