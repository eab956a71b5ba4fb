/** What one `npm run bench` run measures, by size: the shapes the sections fill, the tables print and the verdicts read. */
import type { CoresResult } from './cores.js';
import type { ExportRunResult } from './e2e/export-run.js';
import type { ExtractionRun } from './extract.js';
import type { ExportPairsResult } from './export-pairs.js';
import type { CpuFloorResult } from './cpu-floor.js';
import type { RowCostResult } from './row-cost.js';
import type { SinkResult } from './sinks.js';

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
  /** issue 29: round trips against the API floor, the naive exporter, efficiency (bench/export-pairs.ts); smallest size only */
  issue29?: ExportPairsResult & { wallets: number };
  /** issue 41: job CPU per payment against the bare libraries' floor (bench/cpu-floor.ts); smallest size only */
  issue41?: CpuFloorResult;
}

export interface Verdict {
  target: string;
  measured: string;
  /** null: not measured in this run */
  met: boolean | null;
}

export interface Machine {
  cpus: number;
  cpuModel: string;
  memoryGb: number;
  node: string;
  postgres: string;
  loadAverageAtStart: number[];
}
