/**
 * Target 4 of issue 21 (snapshot cost per row): the Postgres CPU one payment row costs, this tree
 * against another tree (today's main, built beside it) in the same run, on the same rows.
 *
 *   npx tsx bench/row-cost.ts --base /tmp/rowcost-base [--rows 100000] [--rounds 2]
 *   npx tsx bench/row-cost.ts --ref <commit of main>
 *   npm run bench -- --sizes 100000 --only rowcost --rowcost-ref <commit of main>
 *
 * Each tree's own snapshot writer (its migrations, its encoders, its SQL) loads the same N
 * generated payments into a fresh schema of its own through a one-connection pool, in a child
 * process per tree and round (trees alternate, so drift on this shared machine hits both): new
 * payments in pages of 100 (`--page-rows`; COPY + first_seen history + checkpoint, as a pull writes
 * them), then
 * every payment changed (staging + upsert + changed history). The CPU is the user + sys time of
 * that connection's server process (`pg_backend_pid()`, /proc/PID/stat), so other tenants of the
 * server do not count; each tree's figure is its lowest over the rounds (noise only adds time).
 * The base tree needs its node_modules (e.g. `cp -al node_modules`; `--ref` links this tree's) and
 * this file is run from the tree being measured.
 */
import { execFileSync, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, symlinkSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { processCpuSeconds } from './e2e/proc-stat.js';
import { ORG, payment } from './payment-rows.js';

export interface PhaseCost {
  /** server CPU (user + sys) of the writer's connection, microseconds per payment row */
  serverUsPerRow: number;
  wallSeconds: number;
}

export interface TreeCost {
  root: string;
  newRows: PhaseCost;
  changedRows: PhaseCost;
  /** payments + payment_history (+ a side table of raw payloads if the tree has one), bytes */
  tableBytes: number;
}

export interface RowCostResult {
  rows: number;
  /** payments per page transaction */
  pageRows: number;
  rounds: number;
  base: TreeCost;
  branch: TreeCost;
  /** branch ÷ base, new rows (the verdict's figure: what a first pull of every payment costs) */
  ratioNew: number;
  ratioChanged: number;
  loadAverage: number[];
}

/** Child: load the rows with `root`'s own writer; the result is the last line of stdout. */
async function child(root: string, rows: number, pageRows: number): Promise<void> {
  const load = (file: string): Promise<Record<string, unknown>> => import(pathToFileURL(path.join(root, file)).href) as Promise<Record<string, unknown>>;
  const { openPostgres } = (await load('src/store/db/pg-db.ts')) as { openPostgres: (o: { url: string; poolSize: number }) => Promise<{ query: <T>(sql: string, params?: unknown[]) => Promise<{ rows: T[] }>; close: () => Promise<void> }> };
  const { databaseSnapshot } = (await load('src/store/database-snapshot.ts')) as {
    databaseSnapshot: (db: unknown, o: { schema: string }) => { migrate: () => Promise<void>; writer: () => { beginRun: (r: unknown) => Promise<unknown>; writePaymentsPage: (rows: unknown[], cp: unknown) => Promise<unknown> } };
  };
  const url = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
  const db = await openPostgres({ url, poolSize: 1 });
  const schema = `bench_rowcost_${randomBytes(3).toString('hex')}`;
  const store = databaseSnapshot(db, { schema });
  try {
    await store.migrate();
    const { rows: [backend] } = await db.query<{ pid: number }>('SELECT pg_backend_pid() AS pid');
    const pid = backend?.pid ?? 0;
    const fresh = Array.from({ length: rows }, (_, index) => payment(index));
    const changed = fresh.map((row) => ({ ...row, status: 'failed', status_class: 'failed', updated_at: '2026-11-20T00:00:00.000000Z' }));
    const phase = async (data: readonly unknown[]): Promise<PhaseCost> => {
      const writer = store.writer();
      await writer.beginRun({ run_id: `bench-${randomBytes(4).toString('hex')}`, run_key: 'bench', command: 'bench', organization_id: ORG, window: null, parameters: {}, started_at: '2026-11-22T00:00:00.000000Z' });
      await db.query('CHECKPOINT').catch(() => undefined);
      const cpu = processCpuSeconds(pid);
      const start = process.hrtime.bigint();
      for (let offset = 0, page = 1; offset < data.length; offset += pageRows, page++) {
        await writer.writePaymentsPage(data.slice(offset, offset + pageRows), { run_key: 'bench', stream: 'payments:bench', position: JSON.stringify({ page }), pages: page, rows: offset + pageRows, done: false });
      }
      const wallSeconds = Number(process.hrtime.bigint() - start) / 1e9;
      return { serverUsPerRow: round(((processCpuSeconds(pid) - cpu) / data.length) * 1e6), wallSeconds: round(wallSeconds) };
    };
    const newRows = await phase(fresh);
    const changedRows = await phase(changed);
    const { rows: [size] } = await db.query<{ bytes: string }>(
      `SELECT sum(pg_total_relation_size(c.oid))::text AS bytes FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
       WHERE n.nspname = $1 AND c.relkind = 'r' AND c.relname IN ('payments', 'payment_history', 'payment_raw')`,
      [schema],
    );
    const result: TreeCost = { root, newRows, changedRows, tableBytes: Number(size?.bytes ?? 0) };
    console.log(JSON.stringify(result));
  } finally {
    await db.query(`DROP SCHEMA "${schema}" CASCADE`).catch(() => undefined);
    await db.close();
  }
}

/**
 * Payments per page transaction, by default what a pull writes: one API page (`--page-size`,
 * default 100) is one transaction with its checkpoint, so the per-page statements weigh on every
 * row. `--page-rows 1000` gives the larger pages of earlier measurements.
 */
export const PULL_PAGE_ROWS = 100;

function round(value: number): number {
  return Math.round(value * 100) / 100;
}

function runChild(root: string, rows: number, pageRows: number): Promise<TreeCost> {
  return new Promise((resolve, reject) => {
    const proc = spawn(process.execPath, ['--import', 'tsx', fileURLToPath(import.meta.url), '--child', root, '--rows', String(rows), '--page-rows', String(pageRows)], { stdio: ['ignore', 'pipe', 'inherit'], cwd: root });
    let out = '';
    proc.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    proc.on('exit', (code) => {
      const last = out.trim().split('\n').at(-1) ?? '';
      if (code === 0) resolve(JSON.parse(last) as TreeCost);
      else reject(new Error(`row-cost child for ${root} exited ${code}: ${out}`));
    });
  });
}

function lowest(costs: readonly TreeCost[]): TreeCost {
  const pick = (key: 'newRows' | 'changedRows'): PhaseCost => costs.map((c) => c[key]).reduce((a, b) => (b.serverUsPerRow < a.serverUsPerRow ? b : a));
  const first = costs[0] as TreeCost;
  return { root: first.root, newRows: pick('newRows'), changedRows: pick('changedRows'), tableBytes: first.tableBytes };
}

/**
 * A tree of `ref` to compare with: `git archive` of that commit into a temporary folder, with this
 * tree's node_modules linked in (the same dependencies; a ref whose lockfile differs needs its own
 * `npm ci` and --rowcost-base instead).
 */
export function prepareBaseTree(ref: string): { root: string; commit: string } {
  const here = fileURLToPath(new URL('..', import.meta.url));
  const commit = execFileSync('git', ['-C', here, 'rev-parse', '--verify', `${ref}^{commit}`], { encoding: 'utf8' }).trim();
  const root = mkdtempSync(path.join(os.tmpdir(), `payexport-rowcost-${commit.slice(0, 8)}-`));
  execFileSync('sh', ['-c', 'git -C "$1" archive "$2" | tar -x -C "$3"', 'sh', here, commit, root]);
  if (!existsSync(path.join(root, 'node_modules'))) symlinkSync(path.join(here, 'node_modules'), path.join(root, 'node_modules'), 'dir');
  return { root, commit };
}

/** Both trees, alternating, `rounds` times each. */
export async function measureRowCost(baseRoot: string, rows: number, rounds: number, pageRows = PULL_PAGE_ROWS): Promise<RowCostResult> {
  const branchRoot = fileURLToPath(new URL('..', import.meta.url));
  const base: TreeCost[] = [];
  const branch: TreeCost[] = [];
  for (let round = 0; round < rounds; round++) {
    base.push(await runChild(path.resolve(baseRoot), rows, pageRows));
    branch.push(await runChild(branchRoot, rows, pageRows));
  }
  const b = lowest(base);
  const o = lowest(branch);
  return {
    rows,
    pageRows,
    rounds,
    base: b,
    branch: o,
    ratioNew: round(o.newRows.serverUsPerRow / b.newRows.serverUsPerRow),
    ratioChanged: round(o.changedRows.serverUsPerRow / b.changedRows.serverUsPerRow),
    loadAverage: os.loadavg().map((n) => round(n)),
  };
}

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { child: { type: 'string' }, base: { type: 'string' }, ref: { type: 'string' }, rows: { type: 'string', default: '100000' }, 'page-rows': { type: 'string', default: String(PULL_PAGE_ROWS) }, rounds: { type: 'string', default: '2' } } });
  if (values.child !== undefined) {
    await child(values.child, Number(values.rows), Number(values['page-rows']));
    return;
  }
  const base = values.base ?? (values.ref === undefined ? undefined : prepareBaseTree(values.ref).root);
  if (base === undefined) throw new Error('--base <root of the tree to compare with, e.g. a worktree of main> or --ref <git ref>');
  console.log(`load average ${os.loadavg().map((n) => n.toFixed(2)).join(' ')}`);
  const result = await measureRowCost(base, Number(values.rows), Number(values.rounds), Number(values['page-rows']));
  console.log(JSON.stringify(result, null, 2));
}

if (process.argv[1] !== undefined && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) await main();
