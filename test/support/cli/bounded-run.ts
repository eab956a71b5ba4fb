/**
 * The CLI as a subprocess with a deadline: killed (SIGKILL) when it has not answered within
 * `boundMs`, so a run that hangs or spins fails its test instead of outliving it.
 */
import { startCli, type CliOptions, type CliResult } from './cli.js';

export interface BoundedResult {
  /** null: killed at the bound */
  result: CliResult | null;
  /** spawn to exit */
  ms: number;
}

export async function runCliBounded(args: readonly string[], options: CliOptions, boundMs: number): Promise<BoundedResult> {
  const started = Date.now();
  const run = startCli(args, options);
  let timer: NodeJS.Timeout | undefined;
  const killed = new Promise<null>((resolve) => {
    timer = setTimeout(() => {
      run.child.kill('SIGKILL');
      resolve(null);
    }, boundMs);
  });
  const result = await Promise.race([run.result, killed]);
  clearTimeout(timer);
  if (result === null) await run.result.catch(() => undefined);
  return { result, ms: Date.now() - started };
}
