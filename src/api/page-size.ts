/**
 * The page size of one list, negotiated with the service (docs/extraction.md#page-size). The
 * service publishes no maximum for the payments or ledger `limit` (docs/service-facts.md#limits),
 * but every list answer echoes the `limit` it applied, so the run asks for the largest page it is
 * willing to hold and follows what the service says:
 *
 * - an echoed `limit` below the one asked is the service's cap: later requests ask for it;
 * - a 400 or 422 answer to a page asked above the service's documented default (100) may be the
 *   size refused rather than the request: the same page is asked again at half the size, down to
 *   that default, below which the refusal is a real error.
 *
 * One instance per list (payments, ledger) and run, shared by every chain, so a cap or a refusal
 * learned by one chain is what every later request asks. Sizes only ever go down within a run.
 */
import { ApiError } from './errors.js';

/** The default `limit` the service documents for payments (docs/service-facts.md#limits). */
export const SERVICE_DEFAULT_PAGE_SIZE = 100;

export class PageSize {
  private current: number;
  /** the smallest size a refusal may fall back to: the service's default, or less when less was asked */
  readonly floor: number;

  constructor(readonly largest: number) {
    if (!Number.isSafeInteger(largest) || largest < 1) throw new RangeError(`page size must be a whole number ≥ 1, got ${largest}`);
    this.current = largest;
    this.floor = Math.min(largest, SERVICE_DEFAULT_PAGE_SIZE);
  }

  /** the `limit` to send with the next request */
  get ask(): number {
    return this.current;
  }

  /** A page asked at `asked` answered with the envelope's `limit` (absent: the service did not say). */
  answered(asked: number, echoed: number | undefined): void {
    if (echoed !== undefined && echoed > 0 && echoed < asked && echoed < this.current) this.current = echoed;
  }

  /**
   * A request asked at `asked` failed with `error`: the size to ask again with when the failure
   * may be the size refused, else null (the error stands).
   */
  refused(asked: number, error: unknown): number | null {
    if (!isSizeRefusal(error) || asked <= this.floor) return null;
    const next = Math.max(this.floor, Math.floor(asked / 2));
    if (next < this.current) this.current = next;
    return Math.min(next, this.current);
  }
}

/**
 * A 400 or 422 that is not about the cursor or the credentials: what a service that refuses an
 * oversized `limit` answers (it names no error type for it, so none is required here).
 */
function isSizeRefusal(error: unknown): boolean {
  if (!(error instanceof ApiError)) return false;
  if (error.status !== 400 && error.status !== 422) return false;
  return error.type !== 'invalid_cursor' && error.type !== 'missing_credentials';
}

/**
 * One list request at the negotiated size: asks at `pages.ask`, falls back on a refusal, records
 * the echoed limit. The page's `limit` is what applied (the echo, else what was asked), so a
 * short-page test compares against the size really asked, not the largest.
 */
export async function negotiatedRequest<T extends { limit: number | undefined }>(pages: PageSize, request: (limit: number) => Promise<T>): Promise<T> {
  let asked = pages.ask;
  for (;;) {
    try {
      const page = await request(asked);
      pages.answered(asked, page.limit);
      return { ...page, limit: page.limit !== undefined && page.limit > 0 ? Math.min(page.limit, asked) : asked };
    } catch (error) {
      const next = pages.refused(asked, error);
      if (next === null) throw error;
      asked = next;
    }
  }
}
