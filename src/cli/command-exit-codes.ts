/**
 * The exit codes each command can return, as its `--help` ends with them: a scheduler author
 * reads there what to alert on for THIS command, not the whole table (docs/contracts.md#exit-codes).
 * A meaning given here says what the code means for this command; otherwise the table's own.
 * test/unit/cli/command-exit-codes.test.ts holds each list to the code the command reaches.
 */
import { EXIT_CODE_MEANINGS, type ExitCodeValue } from '../util/exit-codes.js';

type Entry = ExitCodeValue | readonly [ExitCodeValue, string];

const JOB: readonly Entry[] = [0, 1, 64, [65, 'completed, but reconciliation found exceptions or data that cannot be booked, or the month was left open (files are written)'], 69, 73, 74, [75, 'temporary: another run holds the lock, the database or the service cannot be reached, no price source answers for a price the books lack (prices.autoFetch), or the run was interrupted; safe to retry (a rerun resumes)'], 77, 78];
const SNAPSHOT_ONLY = (done: string): readonly Entry[] => [[0, done], 1, 64, 74, [75, 'temporary: another run holds the lock, or the database cannot be reached; safe to retry'], [77, 'the database refused the role or its password'], 78];

/** The commands whose 0 is the table's own ("every reconciliation check passed"): the ones that reconcile. Every other command says what its 0 means. */
export const RECONCILING_COMMANDS: readonly CommandPath[] = ['export', 'nightly', 'month-end', 'report'];

export const COMMAND_EXIT_CODES = {
  export: JOB,
  nightly: JOB,
  'month-end': JOB,
  // the snapshot alone: no request to the service
  report: [0, 1, 64, [65, 'the report found exceptions or data that cannot be booked (files are written)'], 73, 74, 75, [77, 'the database refused the role or its password'], [78, 'bad configuration, or the snapshot holds nothing for the window']],
  demo: [[0, 'the demo ran end to end'], 1, 64, [65, 'the demo ran; its checks found exceptions (files are written)'], 73, 74, [75, 'temporary: another demo holds its database, or the run was interrupted'], [78, 'config/demo.json does not load']],
  sim: [[0, 'stopped by SIGINT or SIGTERM'], 1, 64],
  verify: [[0, 'every file matches the manifest (sha256, bytes, rows)'], 1, [64, 'bad usage, or the path is not a report folder'], [65, 'a file differs or is missing (each problem on stdout as MISMATCH …)']],
  'audit-pack': [[0, 'the archive is written and verify --chain found no break'], 1, [64, 'bad usage, or no published folder of that period'], [65, 'the archive is written, but verify --chain named a break (its line is in the archive and on stderr)'], 74, [75, 'interrupted (SIGINT, SIGTERM): remove the archive and run again'], 77, 78],
  deliver: [[0, 'every destination has the folder (delivered now, or already there)'], 1, 64, [69, 'a destination still did not get the folder'], 74, 75, 77, [78, 'bad configuration, or no destination is configured']],
  'db migrate': SNAPSHOT_ONLY('the schema is created or upgraded (or was already current)'),
  'db shell': SNAPSHOT_ONLY('stopped by Ctrl-C (SIGINT) or SIGTERM'),
  notify: [[0, 'every destination took the sample message'], 1, 64, [69, 'a destination did not take it'], [78, 'bad configuration, or no destination is configured']],
  listen: [[0, 'stopped by SIGINT or SIGTERM after draining'], 1, 64, 69, 74, 75, 77, 78],
  webhooks: [[0, 'registered (or rotated); the secret is in the secrets file'], 1, 64, 69, [75, 'temporary: the service cannot be reached; safe to retry'], 77, 78],
  init: [[0, 'the config is written'], 1, [64, 'an answer is missing under --yes, the input ended before the last answer, or the config exists without --force'], [69, 'the service answered in a way it should not (after the retries)'], [74, 'a folder named in an answer cannot be written'], [75, 'temporary: the service or the database cannot be reached; safe to retry'], [77, 'the service refused the key (or the database the role)'], [78, 'a key file or database URL file cannot be used'], [130, 'cancelled at a question (Ctrl-C): nothing was written']],
  doctor: [[0, 'every check passed'], 1, 64, [78, 'at least one check failed: its fix is printed under it']],
  'prices fetch': [[0, 'the cache covers the range'], 1, 64, 66, 68, [69, 'a price source answered with errors (5xx, a malformed body) after the retries'], [75, 'temporary: a price source is rate limited or cannot be reached (no network, DNS, refused, timeout); safe to retry'], 76, [78, 'the config file (--config) does not load']],
} as const satisfies Record<string, readonly Entry[]>;

export type CommandPath = keyof typeof COMMAND_EXIT_CODES;

/** The codes alone, in order. */
export function exitCodesOf(command: CommandPath): ExitCodeValue[] {
  return COMMAND_EXIT_CODES[command].map((e) => (typeof e === 'number' ? e : e[0]));
}

/** The block a command's `--help` ends with; a group (`db`, `prices`) lists its commands' codes. */
export function exitCodesEpilog(...commands: CommandPath[]): string {
  const lines: string[] = [];
  for (const command of commands) {
    if (commands.length > 1) lines.push(`  payexport ${command}:`);
    for (const entry of COMMAND_EXIT_CODES[command]) {
      const [code, meaning] = typeof entry === 'number' ? [entry, EXIT_CODE_MEANINGS[entry]] : entry;
      lines.push(`${commands.length > 1 ? '  ' : ''}  ${String(code).padStart(3)}  ${meaning}`);
    }
  }
  return `Exit codes:\n${lines.join('\n')}`;
}
