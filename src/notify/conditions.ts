/**
 * Whether a destination is told about a run: its condition for the run's job, against the exit
 * code. `on-exceptions` is exit 65 only; `on-failure` is any non-zero exit (65 included), or a
 * report that did not reach a delivery destination — a failed delivery leaves the exit code as the
 * report earned it (docs/delivery.md), yet the accountant does not have the folder: a failure a
 * person must look at.
 */
import type { DestinationConfig, NotifyCondition, NotifyJob } from '../config/notify-schema.js';

export function conditionFor(destination: DestinationConfig, job: NotifyJob): NotifyCondition {
  const when = destination.when;
  return typeof when === 'string' ? when : (when[job] ?? 'never');
}

export function conditionMet(condition: NotifyCondition, exitCode: number, deliveryFailed = false): boolean {
  switch (condition) {
    case 'always':
      return true;
    case 'on-exceptions':
      return exitCode === 65;
    case 'on-failure':
      return exitCode !== 0 || deliveryFailed;
    case 'never':
      return false;
  }
}
