/**
 * Why a price source gave no price, as distinct kinds with distinct exit codes
 * (docs/contracts.md#exit-codes, docs/prices.md#failures):
 *
 *   rate_limited   429 / "rate limit" after the retry budget      75 tempFail  (retry later)
 *   unreachable    no answer at all: the name does not resolve, the  75 tempFail  (retry later)
 *                  connection is refused or reset, or times out
 *                  (no network, a firewall, an outage), after the
 *                  retry budget
 *   no_data        the source answered, with nothing for the range 66 noInput   (a gap, listed)
 *                  or the range is beyond its documented history
 *   source_gone    the source ANSWERED that the endpoint or pair   68 noHost    (change the policy)
 *                  is gone: 404, 410, an unknown pair
 *   wrong_currency the answer prices another pair than asked       76 protocol  (never cached)
 *   unavailable    5xx, a malformed body, after the retry budget   69 unavailable
 *
 * A host that does not answer says nothing about the source: a machine without network would
 * otherwise call every source gone (exit 68, "change the policy") when the next run simply works.
 */
import { AppError } from '../util/errors.js';
import type { ExitCodeName } from '../util/exit-codes.js';
import type { Failure } from '../api/retry.js';

export type PriceFailureKind = 'rate_limited' | 'unreachable' | 'no_data' | 'source_gone' | 'wrong_currency' | 'unavailable';

const EXIT: Readonly<Record<PriceFailureKind, ExitCodeName>> = {
  rate_limited: 'tempFail',
  unreachable: 'tempFail',
  no_data: 'noInput',
  source_gone: 'noHost',
  wrong_currency: 'protocol',
  unavailable: 'unavailable',
};

/** When several sources fail, the exit code names the failure a user must act on first. */
export const FAILURE_PRECEDENCE: readonly PriceFailureKind[] = ['wrong_currency', 'source_gone', 'rate_limited', 'unavailable', 'unreachable', 'no_data'];

export class PriceSourceError extends AppError {
  override readonly name = 'PriceSourceError';
  constructor(
    readonly kind: PriceFailureKind,
    readonly source: string,
    message: string,
    /** what the retry predicate of src/api/retry.ts sees (null: never retried) */
    readonly failure: Failure | null = null,
    readonly retryAfterMs?: number,
  ) {
    super(EXIT[kind], `price_${kind}`, `${source}: ${message}`);
  }
}

export function exitNameOf(kind: PriceFailureKind): ExitCodeName {
  return EXIT[kind];
}

/**
 * The source gave no answer a run can act on, only "not now": no connection (unreachable), 429
 * (rate_limited), a 5xx or a transport failure other than a malformed body (unavailable). An
 * answer — gone, another pair, no data, a body of the wrong shape — is not this: a rerun gets it again.
 */
export function answeredNothing(error: PriceSourceError): boolean {
  if (error.kind === 'unreachable' || error.kind === 'rate_limited') return true;
  if (error.kind !== 'unavailable' || error.failure === null) return false;
  return error.failure.kind === 'status' ? error.failure.status >= 500 : error.failure.reason !== 'bad_body';
}
