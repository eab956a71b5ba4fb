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
  /** a price source has no data for the range asked (a gap in the price cache; docs/prices.md) */
  noInput: 66,
  /** a price source answered that it is gone: 404, 410, an unknown pair (docs/prices.md) */
  noHost: 68,
  /** the service is unusable (TLS failure, persistent 5xx after the retry budget) */
  unavailable: 69,
  /** a report folder already at the target cannot be read as one (no manifest, or an unreadable one): it is left as it is and nothing is written */
  folderUnreadable: 73,
  /** cannot write outputs (disk, permissions) */
  cantCreate: 74,
  /** temporary: another run holds the lock, database unavailable, a price source rate limited or unreachable; safe to retry later */
  tempFail: 75,
  /** a price source answered for another currency pair than asked (docs/prices.md) */
  protocol: 76,
  /** credentials rejected (400 missing_credentials, 401, 403) */
  noPerm: 77,
  /** bad configuration (invalid file, unknown keys, staging key against production) */
  config: 78,
  /** cancelled by the person at the terminal (Ctrl-C at a question of `init`): nothing was written; 128 + SIGINT, as shells report it */
  cancelled: 130,
} as const;

export type ExitCodeName = keyof typeof ExitCode;
export type ExitCodeValue = (typeof ExitCode)[ExitCodeName];

/** One line per code, for `--help` and the README. */
export const EXIT_CODE_MEANINGS: Readonly<Record<ExitCodeValue, string>> = {
  0: 'complete, and every reconciliation check passed',
  1: 'internal error (a bug)',
  64: 'bad command-line usage (unknown flag, bad date, reversed range)',
  65: 'completed, but reconciliation found exceptions or data that cannot be booked (files are written)',
  66: 'a price source has no data for (part of) the range: the gaps are listed, never filled',
  68: 'a price source answered that it is gone (404, 410, unknown pair)',
  69: 'the service is unusable (TLS failure, persistent 5xx after the retry budget)',
  73: 'a report folder already in place has no readable manifest.json: it is never replaced, and nothing is written',
  74: 'cannot write outputs (disk, permissions)',
  75: 'temporary: another run holds the lock, the database is unavailable, or a price source is rate limited or cannot be reached; safe to retry later',
  76: 'a price source answered for another currency pair than asked',
  77: 'credentials rejected (400 missing_credentials, 401, 403)',
  78: 'bad configuration (invalid file, unknown keys, staging key against production)',
  130: 'cancelled at a question (Ctrl-C): nothing was written',
};
