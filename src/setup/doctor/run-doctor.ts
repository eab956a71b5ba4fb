/**
 * `payexport doctor`: whether tonight's run will work, as one checklist. The config is loaded as a
 * job loads it (the first line), except that a secret it cannot read is recorded rather than
 * fatal: the key file's own line says why, and everything that does not need that secret is still
 * checked. Then each check runs on its own, one failing never hiding the next. Exit 0 only when every line passed; otherwise 78 (docs/contracts.md#exit-codes: a setup
 * that is not ready to run is a configuration state, whatever the ✗).
 */
import type { Env, LoadedConfig } from '../../config/load.js';
import { configFileLine, type ConfigFileChoice } from '../../config/config-file-choice.js';
import { ExitCode } from '../../util/exit-codes.js';
import type { SecretScrubber } from '../../util/secret-scrubber.js';
import { fail, pass, skip, type CheckLine, type DoctorCheck } from './check.js';
import { renderCheckLine, renderTally } from './checklist.js';
import { configFix } from './config-fix.js';
import { DEFAULT_CHECKS } from './checks/index.js';

export interface DoctorOptions {
  /** loads the config exactly as the jobs do (throws an AppError when it cannot) */
  load(): LoadedConfig;
  /** the file the jobs would read (--config, PAYEXPORT_CONFIG, or config/payexport.json found here): the first line says which */
  configChoice: ConfigFileChoice | null;
  env: Env;
  cwd: string;
  scrubber: SecretScrubber;
  now(): Date;
  print(line: string): void;
  /** checks owned by other rooms (delivery destinations, the price cache), run after the defaults */
  extraChecks?: readonly DoctorCheck[];
}

export async function runDoctor(options: DoctorOptions): Promise<number> {
  const checks = [...DEFAULT_CHECKS, ...(options.extraChecks ?? [])];
  const lines: CheckLine[] = [];
  const show = (line: CheckLine): void => {
    lines.push(line);
    for (const text of renderCheckLine(line)) options.print(text);
  };
  options.print(`payexport doctor — ${configFileLine(options.configChoice)}`);
  let loaded: LoadedConfig | null = null;
  try {
    loaded = options.load();
    const { config } = loaded;
    show(pass('config valid', `organization ${config.organization ?? '(none)'}, ${config.environments.length} environment(s), tz ${config.tz}`));
  } catch (error) {
    show(fail('config valid', error instanceof Error ? error.message : String(error), configFix(error, options.configChoice?.path)));
  }
  for (const check of checks) {
    if (loaded === null) {
      show(skip(check.id, 'not checked: it reads the config, which does not load'));
      continue;
    }
    let result: CheckLine[];
    try {
      result = await check.run({ loaded, env: options.env, cwd: options.cwd, scrubber: options.scrubber, now: options.now });
    } catch (error) {
      // a check that breaks is a ✗ of its own, never the end of the checklist
      result = [fail(check.id, error instanceof Error ? error.message : String(error), 'see the message; run with --verbose for more')];
    }
    for (const line of result) show(line);
  }
  options.print(renderTally(lines));
  return lines.every((l) => l.status === 'pass') ? ExitCode.ok : ExitCode.config;
}
