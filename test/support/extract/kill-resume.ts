/**
 * The kill-and-resume scenario shared by the spool and the Postgres tests: a clean `export`, then,
 * for each kill point, the same command SIGKILLed after a share of the clean run's requests and
 * started again with the same arguments. The second start must resume (fewer requests, the
 * "resuming" log line) and publish the same files as the clean run.
 */
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'vitest';
import type { SimHandle } from '../../../src/sim/index.js';
import { reportFiles, runCli, type ChildOutcome } from './cli-child.js';

export const PERIOD = { from: '2026-10-01', to: '2026-10-31', folder: 'export/2026-10-01_2026-10-31' } as const;

export interface ScenarioOptions {
  sim: SimHandle;
  /** the simulator's faults for every run (a spec string) */
  baseFaults: string;
  /** store flags: `--no-db`, or `--schema <name>` (with DATABASE_URL in `env`) */
  storeArgs(label: string): string[];
  env?: Record<string, string>;
}

export function exportArgs(sim: SimHandle, out: string, storeArgs: readonly string[]): string[] {
  return [
    'export',
    '--from',
    PERIOD.from,
    '--to',
    PERIOD.to,
    '--base-url',
    sim.baseUrl,
    '--organization',
    sim.organizationId,
    '--out',
    out,
    '--format',
    'csv',
    '--concurrency',
    '4',
    '--page-size',
    '20',
    '--log-format',
    'json',
    ...storeArgs,
  ];
}

export function childEnv(sim: SimHandle, extra: Record<string, string> = {}): Record<string, string> {
  return { PAYEXPORT_API_KEY: sim.environments[0]!.apiKey, ...extra };
}

/** A clean run: its exit code, request count and published files. */
export async function cleanRun(options: ScenarioOptions): Promise<{ outcome: ChildOutcome; files: Record<string, string> }> {
  const out = mkdtempSync(join(tmpdir(), 'payexport-clean-'));
  const outcome = await runCli(options.sim, exportArgs(options.sim, out, options.storeArgs('clean')), { env: childEnv(options.sim, options.env) });
  expect([0, 65], outcome.stderr).toContain(outcome.code);
  // `--concurrency 4`, as the service saw it
  expect(options.sim.requestLog.maxInFlight()).toBeLessThanOrEqual(4);
  expect(options.sim.requestLog.maxInFlight()).toBeGreaterThan(1);
  const files = reportFiles(join(out, PERIOD.folder));
  // every wallet's summary made it into the snapshot and back (the Postgres store once kept only the last one written)
  for (const wallet of options.sim.wallets) expect(files['summary-check.csv']).toContain(`wallet,${wallet.id},`);
  return { outcome, files };
}

export interface KillPoint {
  label: string;
  killAfterRequests?: number;
  /** polled with the run's output folder */
  killWhen?: (out: string) => Promise<boolean>;
  /** simulator faults while the first start runs (e.g. to slow one phase down), cleared after */
  faults?: string;
  /** configuration both starts read (a config file), e.g. `{ paymentsRead: 'environment' }` */
  config?: Record<string, unknown>;
}

/** Killed at the kill point, then run again: returns what the second start did and published. */
export async function killedThenResumed(options: ScenarioOptions, point: KillPoint): Promise<{ resumed: ChildOutcome; files: Record<string, string>; killedRequests: number }> {
  const out = mkdtempSync(join(tmpdir(), `payexport-killed-${point.label}-`));
  const configArgs: string[] = [];
  if (point.config) {
    const file = join(out, 'payexport.json');
    writeFileSync(file, JSON.stringify(point.config));
    configArgs.push('--config', file);
  }
  const args = [...exportArgs(options.sim, out, options.storeArgs(point.label)), ...configArgs];
  const env = childEnv(options.sim, options.env);
  if (point.faults) options.sim.setFaults(`${options.baseFaults},${point.faults}`);
  const killed = await runCli(options.sim, args, {
    env,
    ...(point.killAfterRequests !== undefined ? { killAfterRequests: point.killAfterRequests } : {}),
    ...(point.killWhen ? { killWhen: () => point.killWhen!(out) } : {}),
  });
  if (point.faults) options.sim.setFaults(options.baseFaults);
  expect(killed.signal, killed.stderr).toBe('SIGKILL');
  expect(existsSync(join(out, PERIOD.folder))).toBe(false);
  const resumed = await runCli(options.sim, args, { env });
  return { resumed, files: reportFiles(join(out, PERIOD.folder)), killedRequests: killed.requests };
}
