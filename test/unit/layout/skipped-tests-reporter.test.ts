import { describe, expect, it } from 'vitest';
import { skipReason } from '../../support/reporters/skipped-tests.js';

/** The end-of-run list of skipped tests finds each one's reason where the suites write it. */
describe('skipReason', () => {
  it('takes the note given to ctx.skip first', () => {
    expect(skipReason('suite > a test', 'no password user: sshd runs as nobody')).toBe('no password user: sshd runs as nobody');
  });

  it("reads a title's '(skipped: why)' and '— skipped: why', in the test's name or a suite's", () => {
    expect(skipReason('the crypto sheets (skipped: no pdftotext (apt-get install poppler-utils)) > recomputes', undefined)).toBe('no pdftotext (apt-get install poppler-utils)');
    expect(skipReason('SIGKILL at every stage — skipped: long tail, run `npm run test:faults` (PAYEXPORT_FAULTS_LONG=1) > spool: early', undefined)).toBe('long tail, run `npm run test:faults` (PAYEXPORT_FAULTS_LONG=1)');
  });

  it('says null when neither gives one, for the list to flag the suite', () => {
    expect(skipReason('a suite > a test', undefined)).toBeNull();
  });
});
