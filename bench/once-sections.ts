/** The sections of `npm run bench` that run once, at the smallest size or on data of their own (bench/run.ts). */
import { rmSync } from 'node:fs';
import type { BenchOptions } from './bench-options.js';
import { runDeliveryBench, type DeliveryBenchResult } from './delivery/delivery-bench.js';
import { runExportPairs } from './export-pairs.js';
import { runCpuFloor } from './cpu-floor.js';
import { measureRowCost, prepareBaseTree } from './row-cost.js';
import type { SizeResult } from './types.js';

type Log = (line: string) => void;

export async function exportPairsSection(r: SizeResult, o: BenchOptions, log: Log): Promise<void> {
  const wallets = Number(o.values['issue29-wallets']);
  const pairs = new Set(o.values['issue29-pairs'].split(',') as Array<'roundtrips' | 'naive' | 'efficiency' | 'reads' | 'behind'>);
  log(`[${r.payments}] issue 29 over ${wallets} wallets, ${o.latencyMs} ms latency: ${[...pairs].join(', ')}`);
  r.issue29 = { ...(await runExportPairs({ payments: r.payments, wallets, seed: o.seed, concurrency: o.concurrency, latencyMs: o.latencyMs, databaseUrl: o.databaseUrl, pairs, log })), wallets };
}

export async function cpuFloorSection(r: SizeResult, o: BenchOptions, log: Log): Promise<void> {
  const wallets = Number(o.values['issue41-wallets']);
  const parts = new Set(o.values['issue41-parts'].split(','));
  log(`[${r.payments}] issue 41 over ${wallets} wallets, no latency: job CPU per payment against the bare libraries (${[...parts].join(', ')})`);
  r.issue41 = await runCpuFloor({ payments: r.payments, wallets, seed: o.seed, concurrency: o.concurrency, databaseUrl: o.databaseUrl, embedded: parts.has('embedded'), gc: parts.has('gc'), rounds: Number(o.values['issue41-rounds']), log });
}

/** Postgres CPU per payment row against another tree; only given --rowcost-base or --rowcost-ref. */
export async function rowcostSection(r: SizeResult, o: BenchOptions, log: Log): Promise<void> {
  const baseOption = o.values['rowcost-base'];
  const refOption = o.values['rowcost-ref'];
  const base = baseOption !== undefined ? { root: baseOption, commit: null } : prepareBaseTree(refOption as string);
  log(`[${r.payments}] Postgres CPU per payment row: this tree vs ${base.commit ?? base.root}, pages of ${o.values['rowcost-page-rows']}, ${o.values['rowcost-rounds']} rounds`);
  try {
    r.rowcost = { ...(await measureRowCost(base.root, r.payments, Number(o.values['rowcost-rounds']), Number(o.values['rowcost-page-rows']))), baseCommit: base.commit };
  } finally {
    // a tree exported here for --rowcost-ref is ours to remove (its node_modules is a link)
    if (baseOption === undefined) rmSync(base.root, { recursive: true, force: true });
  }
  const rc = r.rowcost;
  log(`  new rows ${rc.branch.newRows.serverUsPerRow} µs vs ${rc.base.newRows.serverUsPerRow} µs = ${rc.ratioNew}; changed rows ${rc.branch.changedRows.serverUsPerRow} µs vs ${rc.base.changedRows.serverUsPerRow} µs = ${rc.ratioChanged}`);
}

export async function deliverySection(o: BenchOptions, log: Log): Promise<DeliveryBenchResult> {
  log(`delivery: month-end folder → OpenSSH and moto on loopback, ${o.values['delivery-reps']} rounds`);
  const [small = 50, large = 500] = o.values['delivery-rss-mb'].split(',').map(Number);
  return runDeliveryBench({ payments: Number(o.values['delivery-payments']), seed: o.seed, reps: Number(o.values['delivery-reps']), rssSizesMb: [small, large], log });
}
