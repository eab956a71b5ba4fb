/**
 * The long runs (docs/testing.md#one-of-each-in-npm-test-every-variant-in-the-long-runs):
 * `npm run test:faults` sets PAYEXPORT_FAULTS_LONG=1 and runs every variant of a behaviour — each
 * engine, each kill stage, each dataset size. `npm test` runs each behaviour at least once, on the
 * variant its suite names; the others say why they are skipped.
 */
export const LONG_RUNS = process.env['PAYEXPORT_FAULTS_LONG'] === '1';

/** why a variant is skipped in `npm test` (the behaviour itself runs there on another variant) */
export const VARIANT_SKIP = 'another variant of a behaviour npm test runs; every variant runs in `npm run test:faults` (PAYEXPORT_FAULTS_LONG=1)';

/** null (run it) for the variant `npm test` keeps and under the long runs; else the reason it is skipped */
export function variantSkip(keptInNpmTest: boolean): string | null {
  return keptInNpmTest || LONG_RUNS ? null : VARIANT_SKIP;
}
