/**
 * Whether a destination is told about a run: its condition for the run's job, against the exit
 * code. `on-exceptions` is exit 65 only; `on-failure` is any non-zero exit (65 included).
 */
import type { DestinationConfig, NotifyCondition, NotifyJob } from '../config/notify-schema.js';

export function conditionFor(destination: DestinationConfig, job: NotifyJob): NotifyCondition {
  const when = destination.when;
  return typeof when === 'string' ? when : (when[job] ?? 'never');
}

export function conditionMet(condition: NotifyCondition, exitCode: number): boolean {
  switch (condition) {
    case 'always':
      return true;
    case 'on-exceptions':
      return exitCode === 65;
    case 'on-failure':
      return exitCode !== 0;
    case 'never':
      return false;
  }
}
