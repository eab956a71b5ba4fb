/** The flags of `npm run bench` (bench/run.ts has the usage), parsed once into what the sections read. */
import { parseArgs } from 'node:util';
import { PULL_PAGE_ROWS } from './row-cost.js';

export const SECTIONS = ['e2e', 'extract', 'csv', 'xlsx', 'load', 'rowcost', 'cores', 'embedded', 'issue29', 'issue41', 'delivery'] as const;
const DEFAULT_SECTIONS = ['e2e', 'extract', 'csv', 'xlsx', 'load', 'rowcost', 'embedded', 'issue29', 'issue41', 'delivery'] as const;
export type Section = (typeof SECTIONS)[number];

export function parseBenchArgs(args: string[] = process.argv.slice(2)) {
  const { values } = parseArgs({
    args,
    options: {
      // 1M is optional: BENCH_SIZES=100000,1000000 or --sizes (a 100k run takes minutes, 1M most of an hour)
      sizes: { type: 'string', default: process.env.BENCH_SIZES ?? '100000' },
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
      /** issue 41's data (200 wallets, as issue 29's profile), and whether it runs the embedded engine and the GC profile too */
      'issue41-wallets': { type: 'string', default: '200' },
      'issue41-parts': { type: 'string', default: 'embedded,gc' },
      'issue41-rounds': { type: 'string', default: '1' },
      /** the delivery section (bench/delivery/): the month-end's dataset, rounds, the padded pair for RSS in MB */
      'delivery-payments': { type: 'string', default: '72000' },
      'delivery-reps': { type: 'string', default: '3' },
      'delivery-rss-mb': { type: 'string', default: '50,500' },
    },
  });
  const only = new Set(values.only.split(',') as Section[]);
  for (const s of only) if (!SECTIONS.includes(s)) throw new Error(`--only: unknown section ${s} (${SECTIONS.join(', ')})`);
  return {
    values,
    only,
    sizes: values.sizes.split(',').map(Number),
    wallets: Number(values.wallets),
    seed: Number(values.seed),
    concurrency: Number(values.concurrency),
    latencyMs: Number(values.latency),
    databaseUrl: process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test',
  };
}

export type BenchOptions = ReturnType<typeof parseBenchArgs>;
