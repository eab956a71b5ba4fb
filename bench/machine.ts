/** The machine a bench run measured on, printed above its tables (this machine is shared: the load average matters). */
import { execFileSync } from 'node:child_process';
import os from 'node:os';
import type { Machine } from './types.js';

export function describeMachine(databaseUrl: string): Machine {
  return {
    cpus: os.cpus().length,
    cpuModel: os.cpus()[0]?.model ?? 'unknown',
    memoryGb: Math.round(os.totalmem() / 2 ** 30),
    node: process.version,
    postgres: serverVersion(databaseUrl),
    loadAverageAtStart: loadAverage(),
  };
}

export const loadAverage = (): number[] => os.loadavg().map((x) => Math.round(x * 100) / 100);
export const loadNow = (): string => os.loadavg().map((x) => x.toFixed(2)).join(' ');

function serverVersion(url: string): string {
  try {
    return execFileSync('psql', [url, '-Atc', 'SHOW server_version'], { encoding: 'utf8' }).trim();
  } catch {
    return 'unknown';
  }
}
