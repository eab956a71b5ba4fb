import { AppError } from './errors.js';

/**
 * The CLI's one wall clock. Everything the product derives from "now" — the month `init` proposes,
 * nightly's yesterday, a period that is still open, a run id, a price's age — reads it through
 * here, so a test pins it with `PAYEXPORT_NOW=<RFC 3339 instant>` and passes on any day it runs
 * (docs/testing.md#the-clock). Pinned, the clock still advances from that instant at the real
 * rate: durations, timeouts and the age of a lock stay real.
 */
export type WallClock = () => Date;

export const PINNED_NOW_VARIABLE = 'PAYEXPORT_NOW';

const RFC3339 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;

/**
 * The clock `env` asks for. A malformed pin is reported on the first reading, not here: the CLI
 * builds its clock before any command runs, where an error would escape the one-line contract.
 */
export function wallClockFrom(env: Readonly<Record<string, string | undefined>>, realNowMs: () => number = Date.now): WallClock {
  const text = env[PINNED_NOW_VARIABLE];
  if (text === undefined || text === '') return () => new Date(realNowMs());
  const pinnedMs = RFC3339.test(text) ? Date.parse(text) : Number.NaN;
  const startedMs = realNowMs();
  return () => {
    if (Number.isNaN(pinnedMs)) {
      throw new AppError('config', 'bad_pinned_now', `${PINNED_NOW_VARIABLE}=${JSON.stringify(text)} is not an RFC 3339 instant (e.g. 2026-11-15T12:00:00Z); unset it to use the system clock`);
    }
    return new Date(pinnedMs + (realNowMs() - startedMs));
  };
}
