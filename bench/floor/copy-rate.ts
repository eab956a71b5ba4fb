/**
 * The COPY floor: plain `COPY … FROM STDIN` of payment rows with their text encoding, rows per
 * second against the Postgres server (bench/store.ts `--server-only --light`, the same measure as
 * the `load` section), in a child process of its own.
 */
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { ROOT } from '../e2e/sim-child.js';

export function measureCopyRowsPerSecond(payments: number, databaseUrl: string): number {
  const out = execFileSync(process.execPath, ['--max-old-space-size=12000', '--import', 'tsx', path.join(ROOT, 'bench/store.ts'), String(payments), '--server-only', '--light'], {
    encoding: 'utf8',
    maxBuffer: 1 << 26,
    env: { ...process.env, DATABASE_URL: databaseUrl },
  });
  const detail = JSON.parse(out.trim().split('\n').at(-1) as string) as { plain_copy_with_encode?: { rowsPerSecond: number } };
  const rate = detail.plain_copy_with_encode?.rowsPerSecond;
  if (rate === undefined) throw new Error('bench/store.ts gave no plain COPY rate');
  return rate;
}
