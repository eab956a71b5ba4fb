import { describe, expect, it } from 'vitest';
import { count, createMetrics, renderMetrics } from '../../../src/listen/metrics.js';
import { inboxFacts } from '../../../src/listen/inbox.js';

describe('listener metrics', () => {
  it('renders counters by outcome, inbox depth and sweep lag in the Prometheus text format', () => {
    const m = createMetrics(1_000_000);
    count(m.deliveries, 'accepted', 3);
    count(m.deliveries, 'bad_signature');
    m.lastSweepAtMs = 1_030_000;
    const text = renderMetrics(m, { inboxPending: 2, inboxOldestSeconds: 1.5, nowMs: 1_090_000 });
    expect(text).toContain('# TYPE payexport_webhook_deliveries_total counter');
    expect(text).toContain('payexport_webhook_deliveries_total{outcome="accepted"} 3');
    expect(text).toContain('payexport_webhook_deliveries_total{outcome="bad_signature"} 1');
    expect(text).toContain('payexport_webhook_inbox_depth 2');
    expect(text).toContain('payexport_sweep_lag_seconds 60');
    expect(text.endsWith('\n')).toBe(true);
  });
});

describe('inbox facts', () => {
  const delivery = (payload: unknown): Parameters<typeof inboxFacts>[0] => ({ webhookId: 'w', signedAt: 1, text: JSON.stringify(payload), payload });

  it('dedupes one change of a payment whatever the delivery, and falls back to the body hash', () => {
    const change = { type: 'receive', detail: { event: 'completed', data: { id: 'ABC', status: 'completed', updated_at: '2026-11-25T10:00:00Z', environment_id: 'E' } } };
    const facts = inboxFacts(delivery(change));
    expect(facts).toMatchObject({ kind: 'receive', event: 'completed', paymentId: 'abc', environmentId: 'e', dedupeKey: 'payment:abc:receive:completed:completed:2026-11-25T10:00:00Z' });
    const later = { ...change, detail: { ...change.detail, data: { ...change.detail.data, updated_at: '2026-11-25T10:00:01Z' } } };
    expect(inboxFacts(delivery(later)).dedupeKey).not.toBe(facts.dedupeKey);
    expect(inboxFacts(delivery({ type: 'test', detail: {} })).dedupeKey).toMatch(/^sha256:[0-9a-f]{64}$/);
  });
});
