/**
 * The plain-text ledger tools that check our journal files: Beancount's `bean-check` and
 * `hledger` (Debian packages beancount and hledger; .ci/run installs them). They share no code
 * with our writers. Suites skip visibly without them, and fail instead under
 * PAYEXPORT_REQUIRE_READERS=1, like the Python readers.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

export interface ToolRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

function run(command: string, args: string[]): ToolRun {
  const r = spawnSync(command, args, { encoding: 'utf8', maxBuffer: 1024 * 1024 * 1024, timeout: 300_000 });
  return { code: r.status, stdout: r.stdout ?? '', stderr: r.stderr ?? '' };
}

function present(command: string, args: string[]): boolean {
  const r = spawnSync(command, args, { stdio: 'ignore' });
  return r.status === 0;
}

/** A skip reason, or null when bean-check and hledger are installed. */
export function ledgerToolsMissing(): string | null {
  const missing = [present('bean-check', ['--version']) ? null : 'bean-check', present('hledger', ['--version']) ? null : 'hledger'].filter((x) => x !== null);
  if (missing.length === 0) return null;
  const reason = `${missing.join(' and ')} not installed (apt-get install beancount hledger)`;
  if (process.env['PAYEXPORT_REQUIRE_READERS'] === '1') throw new Error(`PAYEXPORT_REQUIRE_READERS=1 but ${reason}`);
  return reason;
}

export function beanCheck(path: string): ToolRun {
  return run('bean-check', [path]);
}

export function hledgerCheck(path: string): ToolRun {
  return run('hledger', ['-f', path, 'check']);
}

/** `hledger balance --flat` per account: commodity → decimal text, as hledger prints it. */
export function hledgerBalances(path: string): Map<string, Map<string, string>> {
  const r = run('hledger', ['-f', path, 'balance', '--flat', '--empty', '-O', 'csv']);
  if (r.code !== 0) throw new Error(`hledger balance failed: ${r.stderr}`);
  const out = new Map<string, Map<string, string>>();
  for (const line of r.stdout.trim().split(/\r?\n/).slice(1)) {
    const m = /^"([^"]*)","([^"]*)"$/.exec(line);
    if (!m || m[1] === 'total') continue;
    const amounts = new Map<string, string>();
    for (const part of (m[2] ?? '').split(', ')) {
      const a = /^(-?[0-9.]+) (\S+)$/.exec(part.trim());
      if (a) amounts.set(a[2] ?? '', a[1] ?? '');
    }
    out.set(m[1] ?? '', amounts);
  }
  return out;
}

/** A decimal text in integer units of 10^-scale: `-12.5` at scale 3 → -12500n. */
export function scaled(text: string, scale: number): bigint {
  const negative = text.startsWith('-');
  const [whole = '0', fraction = ''] = text.replace(/^-/, '').split('.');
  if (fraction.length > scale) throw new Error(`${text} has more than ${scale} decimals`);
  const value = BigInt(whole + fraction.padEnd(scale, '0'));
  return negative ? -value : value;
}

export function readText(dir: string, name: string): string {
  return readFileSync(join(dir, name), 'utf8');
}
