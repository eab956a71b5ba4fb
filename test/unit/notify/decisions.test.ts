import { describe, expect, it } from 'vitest';
import { conditionFor, conditionMet } from '../../../src/notify/conditions.js';
import { DeliveryError } from '../../../src/util/delivery-error.js';
import { attemptDelivery, DELIVERY_BACKOFF } from '../../../src/util/delivery-attempts.js';
import { retryDelayMs } from '../../../src/util/retry.js';
import { runVerdict } from '../../../src/notify/run-verdict.js';
import { pingUrl } from '../../../src/notify/send-http.js';
import type { Finding } from '../../../src/model/results.js';

const finding = (severity: Finding['severity']): Finding => ({
  check_id: 'payment.ledger_match',
  severity,
  subject_kind: 'payment',
  subject_id: 'p1',
  wallet_id: 'w1',
  currency: 'btc',
  expected: '1',
  actual: '2',
  difference: '-1',
  message: 'm',
});

describe('conditions', () => {
  it.each([
    ['always', 0, true],
    ['always', 75, true],
    ['on-exceptions', 65, true],
    ['on-exceptions', 0, false],
    ['on-exceptions', 69, false],
    ['on-failure', 65, true],
    ['on-failure', 77, true],
    ['on-failure', 0, false],
    ['never', 65, false],
  ] as const)('%s at exit %i → %s', (condition, exit, told) => {
    expect(conditionMet(condition, exit)).toBe(told);
  });

  // a failed delivery keeps the report's exit code, and is still a failure a person must hear of
  it.each([
    ['on-failure', 0, true],
    ['on-failure', 65, true],
    ['on-exceptions', 0, false],
    ['always', 0, true],
    ['never', 0, false],
  ] as const)('%s at exit %i with a failed delivery → %s', (condition, exit, told) => {
    expect(conditionMet(condition, exit, true)).toBe(told);
  });

  it('per job; a job left out is never', () => {
    const d = { kind: 'slack' as const, name: 's', when: { nightly: 'on-failure' as const }, urlEnv: 'X' };
    expect(conditionFor(d, 'nightly')).toBe('on-failure');
    expect(conditionFor(d, 'month-end')).toBe('never');
    expect(conditionFor({ ...d, when: 'always' }, 'export')).toBe('always');
  });
});

describe('verdict: ties out and close status from the run\'s own findings', () => {
  it('warnings and notes still tie; an error does not', () => {
    expect(runVerdict({ job: 'nightly', findings: [finding('warning'), finding('info')], closedBefore: false, notClosed: null })).toMatchObject({ tiesOut: true, closeStatus: 'not-applicable' });
    expect(runVerdict({ job: 'nightly', findings: [finding('error'), finding('error')], closedBefore: false, notClosed: null })).toMatchObject({ tiesOut: false, tieOutLine: 'does NOT tie: 2 reconciliation error(s), see exceptions.csv' });
  });

  it('never says every check passed when one did not run (its row in exceptions.csv)', () => {
    const notRun = { ...finding('info'), check_id: 'check.not_run' };
    const required = { ...finding('warning'), check_id: 'close.required_check_not_run' };
    expect(runVerdict({ job: 'month-end', findings: [notRun, required], closedBefore: false, notClosed: null })).toMatchObject({ tiesOut: true, tieOutLine: 'ties out: no reconciliation error; 2 check(s) not run, see exceptions.csv' });
    expect(runVerdict({ job: 'nightly', findings: [finding('error'), notRun], closedBefore: false, notClosed: null }).tieOutLine).toBe('does NOT tie: 1 reconciliation error(s), see exceptions.csv; 1 check(s) not run, see exceptions.csv');
  });

  it('month-end: closed, not closed with the reason, already closed (amendment), unknown without a report', () => {
    expect(runVerdict({ job: 'month-end', findings: [], closedBefore: false, notClosed: null }).closeStatus).toBe('closed');
    expect(runVerdict({ job: 'month-end', findings: [], closedBefore: false, notClosed: '2026-10 has 3 open item(s)' })).toMatchObject({ closeStatus: 'not-closed', closeLine: 'NOT closed: 2026-10 has 3 open item(s)' });
    expect(runVerdict({ job: 'month-end', findings: [], closedBefore: true, notClosed: null }).closeStatus).toBe('already-closed');
    expect(runVerdict({ job: 'month-end', findings: null, closedBefore: false, notClosed: null })).toMatchObject({ tiesOut: null, closeStatus: 'unknown' });
    expect(runVerdict({ job: 'month-end', findings: null, closedBefore: false, notClosed: null, pullOnly: true })).toMatchObject({ tiesOut: null, closeStatus: 'not-applicable', tieOutLine: expect.stringMatching(/only pulled \(a shard\)/) });
  });
});

describe('retries within one budget', () => {
  it('retries what may pass (5xx, timeouts), stops on what cannot (4xx, TLS, DNS)', async () => {
    const waits: number[] = [];
    const clock = { t: 0 };
    const policy = { budgetMs: 10_000, attempts: 3, now: () => clock.t, sleep: async (ms: number) => void waits.push(ms), random: () => 1 };
    let calls = 0;
    const unavailable = async (): Promise<void> => {
      calls++;
      throw new DeliveryError('HTTP 503', true);
    };
    expect(await attemptDelivery(policy, unavailable)).toEqual({ ok: false, attempts: 3, detail: 'HTTP 503' });
    expect(calls).toBe(3);
    expect(waits).toEqual([250, 500]);
    const notFound = async (): Promise<void> => {
      throw new DeliveryError('HTTP 404: no_service', false);
    };
    expect(await attemptDelivery(policy, notFound)).toEqual({ ok: false, attempts: 1, detail: 'HTTP 404: no_service' });
  });

  it('the first attempt gets half the budget, the last all that is left; nothing starts past the budget', async () => {
    const clock = { t: 0 };
    const timeouts: number[] = [];
    const policy = { budgetMs: 8000, attempts: 3, now: () => clock.t, sleep: async (ms: number) => void (clock.t += ms), random: () => 0 };
    const outcome = await attemptDelivery(policy, async (timeoutMs) => {
      timeouts.push(timeoutMs);
      clock.t += timeoutMs;
      throw new DeliveryError('no answer', true);
    });
    expect(timeouts[0]).toBe(4000);
    // the last attempt ran to the end of the budget and not beyond it
    expect(clock.t).toBe(8000);
    expect(outcome.ok).toBe(false);
  });

  it('honours Retry-After', () => {
    expect(retryDelayMs(1, new DeliveryError('429', true, 2000).retryAfterMs, DELIVERY_BACKOFF, () => 0.5)).toBe(2000);
  });
});

describe('ping URLs (healthchecks.io convention)', () => {
  it('start, bare, fail and log; a query string stays a query string', () => {
    const base = 'https://hc-ping.com/5f0c8a52-1d7e-4c3b-9a61-0b1c2d3e4f50';
    expect(pingUrl(base, 'start')).toBe(`${base}/start`);
    expect(pingUrl(base, 'success')).toBe(base);
    expect(pingUrl(base, 'fail')).toBe(`${base}/fail`);
    expect(pingUrl(`${base}/?create=1`, 'log')).toBe(`${base}/log?create=1`);
  });
});
