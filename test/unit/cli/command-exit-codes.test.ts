import { describe, expect, it } from 'vitest';
import { COMMAND_EXIT_CODES, exitCodesEpilog, exitCodesOf, RECONCILING_COMMANDS, type CommandPath } from '../../../src/cli/command-exit-codes.js';
import { EXIT_CODE_MEANINGS } from '../../../src/util/exit-codes.js';
import { ROOT } from '../../support/cli/cli.js';
import { exitNamesIn, reachableExitCodes, runtimeImports } from '../../support/exit-reach.js';

/**
 * Each command's `--help` lists the exit codes its code can return (src/cli/command-exit-codes.ts),
 * held to the code both ways: every code raised in a module the command reaches is listed, and
 * every listed code is raised somewhere it reaches. 0 (success), 1 (a bug) and 64 (yargs' own
 * usage errors) belong to every command. A code the command reaches but can never return —
 * because a caller on the way catches it — is excused below, each with the reason and the
 * place that catches it; an excuse for a code the command does not reach fails, so none goes stale.
 */

const ENTRY: Readonly<Record<CommandPath, string>> = {
  export: 'src/cli/commands/job-commands.ts',
  nightly: 'src/cli/commands/job-commands.ts',
  'month-end': 'src/cli/commands/job-commands.ts',
  report: 'src/cli/commands/job-commands.ts',
  demo: 'src/cli/commands/demo.ts',
  sim: 'src/cli/commands/sim.ts',
  verify: 'src/cli/commands/verify.ts',
  'audit-pack': 'src/cli/commands/audit-pack.ts',
  deliver: 'src/cli/commands/deliver.ts',
  'db migrate': 'src/cli/commands/db.ts',
  'db shell': 'src/cli/commands/db.ts',
  notify: 'src/cli/commands/notify.ts',
  listen: 'src/cli/commands/listen.ts',
  webhooks: 'src/cli/commands/webhooks.ts',
  init: 'src/cli/commands/init.ts',
  doctor: 'src/cli/commands/doctor.ts',
  'prices fetch': 'src/cli/commands/prices.ts',
};

const PRICE_FINDINGS = 'prices.autoFetch turns a failed fetch into a finding (journal.price_fetch_failed, exit 65) — src/jobs/auto-fetch-prices.ts catches it; only `prices fetch` exits with a price code';
const AMOUNT_RESULT = 'AmountParseError (65) is built by tryParseBaseAmount as a result value, never thrown: normalize flags the amount and goes on (src/normalize/amount.ts)';
const NO_API_KEY_READ = 'secrets are loaded with collectSecretProblems (a key it does not need is recorded, never thrown), and it sends no request to the payments service';

/** code → why the command never returns it although its code reaches a module that raises it. */
const PRICE_PROBE = "a price source's answer is caught by the price cache line's probe (src/setup/doctor/checks/price-cache-line.ts), and every check runs inside runDoctor, which turns any error into a ✗ line: the exit is 78";
const EXCUSED: Readonly<Partial<Record<CommandPath, Readonly<Partial<Record<number, string>>>>>> = {
  export: { 66: PRICE_FINDINGS, 68: PRICE_FINDINGS, 76: PRICE_FINDINGS },
  nightly: { 66: PRICE_FINDINGS, 68: PRICE_FINDINGS, 76: PRICE_FINDINGS },
  'month-end': { 66: PRICE_FINDINGS, 68: PRICE_FINDINGS, 76: PRICE_FINDINGS },
  report: { 66: PRICE_FINDINGS, 68: PRICE_FINDINGS, 76: PRICE_FINDINGS, 69: 'report reads the snapshot only (pipeline spec pull: false): it makes no request to the service, the only source of 69' },
  demo: {
    66: PRICE_FINDINGS,
    68: PRICE_FINDINGS,
    76: PRICE_FINDINGS,
    69: 'the demo talks to its own simulator, started in its own process, which never answers 5xx or redirects',
    77: "the demo ignores every PAYEXPORT_* variable and DATABASE_URL and uses its simulator's own token",
  },
  listen: { 65: AMOUNT_RESULT },
  init: { 65: AMOUNT_RESULT },
  notify: { 75: 'the interrupt watchdog (75) is installed by runJob only, which `notify test` does not call', 77: NO_API_KEY_READ },
  doctor: {
    65: AMOUNT_RESULT,
    66: PRICE_PROBE,
    68: PRICE_PROBE,
    76: PRICE_PROBE,
    69: 'every check runs inside runDoctor, which turns any error into a ✗ line: the exit is 78 (src/setup/doctor/run-doctor.ts)',
    73: 'every check runs inside runDoctor, which turns any error into a ✗ line: the exit is 78',
    74: 'every check runs inside runDoctor, which turns any error into a ✗ line: the exit is 78',
    75: 'every check runs inside runDoctor, which turns any error into a ✗ line: the exit is 78',
    77: 'every check runs inside runDoctor, which turns any error into a ✗ line: the exit is 78',
  },
  'prices fetch': { 77: NO_API_KEY_READ },
};

const ALWAYS = new Set<number>([0, 1, 64]);

describe('each command lists the exit codes its code can return', () => {
  for (const command of Object.keys(COMMAND_EXIT_CODES) as CommandPath[]) {
    it(command, () => {
      const reached = reachableExitCodes(ROOT, [ENTRY[command]]);
      const listed = new Set<number>(exitCodesOf(command));
      const excused = EXCUSED[command] ?? {};
      for (const code of ALWAYS) expect(listed, `${command} lists ${code}`).toContain(code);
      for (const [code, files] of reached) {
        if (ALWAYS.has(code) || listed.has(code)) continue;
        expect(excused[code], `${command} can return ${code} (raised in ${files.join(', ')}): list it in src/cli/command-exit-codes.ts, or excuse it here with the place that catches it`).toBeDefined();
      }
      for (const code of listed) {
        if (ALWAYS.has(code)) continue;
        expect(reached.has(code), `${command} lists ${code}, which nothing it reaches raises`).toBe(true);
        expect(excused[code], `${command} both lists and excuses ${code}`).toBeUndefined();
      }
      for (const code of Object.keys(excused).map(Number)) expect(reached.has(code), `a stale excuse: ${command} no longer reaches ${code}`).toBe(true);
      // every code is one of the table's
      for (const code of listed) expect(Object.keys(EXIT_CODE_MEANINGS).map(Number)).toContain(code as number);
    });
  }
});

describe("each command's 0 says what success is for that command", () => {
  // `db migrate --help` said 0 meant "every reconciliation check passed" (issue 52): only a command that reconciles may take the table's own words
  for (const command of Object.keys(COMMAND_EXIT_CODES) as CommandPath[]) {
    it(command, () => {
      const zero = exitCodesEpilog(command).split('\n').find((line) => /^ +0 {2}/.test(line));
      if (RECONCILING_COMMANDS.includes(command)) expect(zero).toMatch(/reconciliation/);
      else expect(zero, `${command}: give 0 a meaning of its own in src/cli/command-exit-codes.ts`).not.toMatch(/reconciliation/);
    });
  }
});

describe('the reader of exits', () => {
  it('finds literal, helper, table and numeric exits, and skips type-only imports', () => {
    expect([...exitNamesIn("throw new AppError('tempFail', 'x', 'y')")]).toEqual(['tempFail']);
    expect([...exitNamesIn("throw usageError('bad', 'm')")]).toEqual(['usage']);
    const table = "class E extends AppError { constructor() { super(EXIT[kind], 't', 'm'); } }\nconst EXIT = { a: 'noHost', b: 'protocol' };";
    // a class counts where it is built
    expect([...exitNamesIn(table)]).toEqual([]);
    expect([...exitNamesIn(`${table}\nthrow new E();`)].sort()).toEqual(['noHost', 'protocol']);
    expect([...exitNamesIn("class F extends AppError { constructor() { super('cantCreate', 't', 'm'); } }\nthrow new F();")]).toEqual(['cantCreate']);
    expect([...exitNamesIn('if (exitCode === 65) notify();')]).toEqual([]);
    expect([...exitNamesIn('return { exitCode: exceptions ? 65 : 0 };')].sort()).toEqual(['dataErr', 'ok']);
    expect([...exitNamesIn("const kind = 'unavailable'; // a price kind, not an exit")]).toEqual([]);
    expect(runtimeImports("import type { A } from './a.js';\nimport { b } from './b.js';\nconst c = await import('./c.js');")).toEqual(['./b.js', './c.js']);
  });
});
