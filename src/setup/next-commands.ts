/**
 * The commands `init` ends with: with books, the one-time fetch of the prices their history needs;
 * a dry run (the plan, nothing written), the first month-end, and the line that schedules it — for cron, a systemd timer, or the Kubernetes CronJob shipped in
 * deploy/ — with the same config file and nothing secret in any of them.
 */
import { monthPeriod } from '../model/period.js';
import type { KeySource } from './init-config.js';
import { DEFAULT_CONFIG_PATH } from '../config/config-file-choice.js';

export const SCHEDULERS = ['cron', 'systemd', 'kubernetes'] as const;
export type Scheduler = (typeof SCHEDULERS)[number];

export interface NextCommandsInput {
  configPath: string;
  cwd: string;
  /** this checkout's bin/payexport by absolute path (own-command.ts): the crontab line's command */
  command: string;
  tz: string;
  key: KeySource;
  scheduler: Scheduler;
  now: Date;
  /** the books step was taken: the month-end writes the Journal, Lots and Crypto assets sheets */
  books?: { booksCurrency: string; /** the first day (UTC) a tracked wallet moved: the lots value everything since */ firstMovement: string | null } | null;
}

/** A path or value safe to paste into a POSIX shell. */
function shellWord(text: string): string {
  return /^[A-Za-z0-9_./:@%+=,-]+$/.test(text) ? text : `'${text.replace(/'/g, `'\\''`)}'`;
}

/** ` --config FILE`, or nothing for the file every command finds in its folder (config/payexport.json) */
export function configFlag(configPath: string): string {
  return configPath === DEFAULT_CONFIG_PATH ? '' : ` --config ${shellWord(configPath)}`;
}

export function nextCommands(input: NextCommandsInput): string[] {
  const config = configFlag(input.configPath);
  const month = monthPeriod(undefined, input.tz, input.now).label;
  const keyNote = input.key.kind === 'env' ? ` (with ${input.key.name} set in its environment)` : '';
  const yesterday = new Date(input.now.getTime() - 86_400_000).toISOString().slice(0, 10);
  const history = input.books?.firstMovement ?? null;
  return [
    // the lots value every movement since the first, and auto-fetch covers a run's own window only (docs/prices.md#auto-fetch)
    ...(input.books && history !== null && history <= yesterday
      ? [`  0. payexport prices fetch --currency BTC --books ${input.books.booksCurrency} --from ${history} --to ${yesterday}${config}`, `       once: the BTC prices since the first movement the lots value (after that, each run fetches its own window)`]
      : []),
    `  1. payexport month-end${config} --dry-run`,
    `       the plan: wallets, streams and requests; nothing is written`,
    `  2. payexport month-end${config} --month ${month}`,
    `       the first month-end: reports${input.books ? ' (with the Journal, Lots and Crypto assets sheets)' : ''}, snapshot, the month closed`,
    `  3. ${schedulerLine(input, config)}`,
    `       ${schedulerNote(input.scheduler)}${keyNote}`,
  ];
}

function schedulerLine(input: NextCommandsInput, config: string): string {
  switch (input.scheduler) {
    case 'cron':
      // the 2nd at 06:30 in the host's zone: the previous month has ended in every zone by then; the
      // command by its path, as cron's PATH finds no `payexport` (own-command.ts)
      return `30 6 2 * *  cd ${shellWord(input.cwd)} && ${shellWord(input.command)} month-end${config} >>month-end.log 2>&1`;
    case 'systemd':
      return `sudo cp deploy/systemd/payexport-month-end.service deploy/systemd/payexport-month-end.timer /etc/systemd/system/ && sudo systemctl enable --now payexport-month-end.timer`;
    case 'kubernetes':
      return `kubectl apply -f deploy/kubernetes/cronjobs.yaml`;
  }
}

function schedulerNote(scheduler: Scheduler): string {
  switch (scheduler) {
    case 'cron':
      return 'a crontab line (crontab -e); deploy/cron/payexport.crontab has nightly too';
    case 'systemd':
      return `set WorkingDirectory and the config path in the .service first (OnCalendar: the 2nd, 06:30)`;
    case 'kubernetes':
      return 'after `kubectl create secret generic payexport --from-file=api-key=…`; the snapshot must be Postgres there';
  }
}
