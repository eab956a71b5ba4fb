/**
 * Whether a text holds a run of 16 or more ASCII digits — the same answer as `/\d{16}/.test(text)`
 * (without the `u` flag `\d` is [0-9]), which decides whether a text can hold an integer past 2^53
 * (api/json.ts for API bodies, store/encoding/json-text.ts for jsonb). The regex tried a match at
 * every position of pages that almost never hold such an integer.
 *
 * Why probing every 8th character is exact: any 16 consecutive positions hold two multiples of 8,
 * k and k + 8, so a run of 16 digits has digits at both; the probe looks only where both are, and
 * there measures the run around k. A run it measures at 16 is a run, so it never answers true
 * wrongly either. Property tests hold it to the regex (test/unit/util/long-digit-run.test.ts).
 */

const RUN = 16;
const STRIDE = 8;

function isDigit(code: number): boolean {
  return code >= 48 && code <= 57;
}

export function hasLongDigitRun(text: string): boolean {
  const length = text.length;
  for (let k = 0; k + STRIDE < length; k += STRIDE) {
    if (!isDigit(text.charCodeAt(k)) || !isDigit(text.charCodeAt(k + STRIDE))) continue;
    // back from k, then forward, each only as far as a run of RUN needs
    let start = k;
    while (start > 0 && k - start < RUN && isDigit(text.charCodeAt(start - 1))) start--;
    let end = k + 1;
    while (end < length && end - start < RUN && isDigit(text.charCodeAt(end))) end++;
    if (end - start >= RUN) return true;
  }
  return false;
}
