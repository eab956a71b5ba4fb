/**
 * The sample `payexport notify test` sends: shaped like a nightly run that found one exception, so
 * every part of every channel's layout shows, and marked as a test everywhere (`test: true`, the
 * headline, the webhook's `x-payexport-event: run.test`). Invented figures only.
 */
import { EXIT_CODE_MEANINGS } from '../util/exit-codes.js';
import { RUN_MESSAGE_SCHEMA, type RunMessage } from './run-message.js';

export function sampleMessage(runId: string, now: Date): RunMessage {
  const day = new Date(now.getTime() - 86_400_000).toISOString().slice(0, 10);
  const from = `${day}T00:00:00.000000Z`;
  const to = `${now.toISOString().slice(0, 10)}T00:00:00.000000Z`;
  return {
    schema: RUN_MESSAGE_SCHEMA,
    test: true,
    run_id: runId,
    job: 'nightly',
    command: 'notify test',
    period: day,
    window: { from, to, tz: 'UTC' },
    organization_id: null,
    status: 'exceptions',
    exit_code: 65,
    exit_meaning: EXIT_CODE_MEANINGS[65],
    headline: `payexport nightly ${day}: test message (no run took place)`,
    ties_out: false,
    tie_out: 'does NOT tie: 1 reconciliation error(s), see exceptions.csv (sample)',
    close_status: 'not-applicable',
    close: 'not applicable (only month-end closes a period)',
    counts: { errors: 1, warnings: 0, notes: 0 },
    exceptions: [
      {
        check_id: 'payment.ledger_match',
        severity: 'error',
        wallet_id: '00000000-0000-4000-8000-000000000000',
        wallet_name: 'Sample wallet',
        currency: 'BTC',
        expected: '0.00150000000 BTC',
        actual: '0.00149850000 BTC',
        difference: '0.00000150000 BTC',
        text: 'error payment.ledger_match — Sample wallet (BTC): a sample exception; expected 0.00150000000 BTC, actual 0.00149850000 BTC, difference 0.00000150000 BTC',
      },
    ],
    exceptions_not_listed: 0,
    open_items: 0,
    report: null,
    delivery: [],
    failure: null,
    started_at: now.toISOString(),
    finished_at: now.toISOString(),
    duration_ms: 0,
  };
}
