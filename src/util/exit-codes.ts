/**
 * The exit-code table of docs/contracts.md#exit-codes (sysexits-style). The only place these numbers live.
 */
export const ExitCode = {
  /** complete, and every reconciliation check passed */
  ok: 0,
  /** internal error (a bug) */
  internal: 1,
  /** bad command-line usage (unknown flag, bad date, reversed range) */
  usage: 64,
  /** completed, but reconciliation found exceptions, or the API sent data that cannot be booked */
  dataErr: 65,
  /** the service is unusable (TLS failure, persistent 5xx after the retry budget) */
  unavailable: 69,
  /** cannot write outputs (disk, permissions) */
  cantCreate: 74,
  /** temporary: another run holds the lock, database unavailable; safe to retry later */
  tempFail: 75,
  /** credentials rejected (400 missing_credentials, 401, 403) */
  noPerm: 77,
  /** bad configuration (invalid file, unknown keys, staging key against production) */
  config: 78,
} as const;

export type ExitCodeName = keyof typeof ExitCode;
export type ExitCodeValue = (typeof ExitCode)[ExitCodeName];

/** One line per code, for `--help` and the README. */
export const EXIT_CODE_MEANINGS: Readonly<Record<ExitCodeValue, string>> = {
  0: 'complete, and every reconciliation check passed',
  1: 'internal error (a bug)',
  64: 'bad command-line usage (unknown flag, bad date, reversed range)',
  65: 'completed, but reconciliation found exceptions or data that cannot be booked (files are written)',
  69: 'the service is unusable (TLS failure, persistent 5xx after the retry budget)',
  74: 'cannot write outputs (disk, permissions)',
  75: 'temporary: another run holds the lock, or the database is unavailable; safe to retry later',
  77: 'credentials rejected (400 missing_credentials, 401, 403)',
  78: 'bad configuration (invalid file, unknown keys, staging key against production)',
};
