/**
 * The listener's counters and gauges in the Prometheus text exposition format (version 0.0.4),
 * written by hand: a dozen series do not justify a client library.
 */
export interface ListenerMetrics {
  deliveries: Map<string, number>;
  applied: Map<string, number>;
  workerErrors: number;
  sweeps: Map<string, number>;
  sweepPayments: number;
  /** unix ms of the start of the last successful sweep, or null */
  lastSweepAtMs: number | null;
  startedAtMs: number;
}

export function createMetrics(now: number): ListenerMetrics {
  return { deliveries: new Map(), applied: new Map(), workerErrors: 0, sweeps: new Map(), sweepPayments: 0, lastSweepAtMs: null, startedAtMs: now };
}

export function count(map: Map<string, number>, key: string, by = 1): void {
  map.set(key, (map.get(key) ?? 0) + by);
}

function series(name: string, help: string, type: 'counter' | 'gauge', samples: ReadonlyArray<[Record<string, string>, number]>): string {
  const lines = [`# HELP ${name} ${help}`, `# TYPE ${name} ${type}`];
  for (const [labels, value] of samples) {
    const text = Object.entries(labels)
      .map(([k, v]) => `${k}="${v.replace(/["\\\n]/g, '_')}"`)
      .join(',');
    lines.push(`${name}${text ? `{${text}}` : ''} ${Number.isFinite(value) ? value : 0}`);
  }
  return lines.join('\n');
}

export function renderMetrics(m: ListenerMetrics, gauges: { inboxPending: number; inboxOldestSeconds: number; nowMs: number }): string {
  const byLabel = (label: string, map: Map<string, number>): Array<[Record<string, string>, number]> => [...map.entries()].sort().map(([k, v]) => [{ [label]: k }, v]);
  // sweep lag: since the last successful sweep began, or since the listener started when none has
  const lagSeconds = (gauges.nowMs - (m.lastSweepAtMs ?? m.startedAtMs)) / 1000;
  return (
    [
      series('payexport_webhook_deliveries_total', 'Deliveries received, by outcome (accepted, duplicate, or the refusal reason).', 'counter', byLabel('outcome', m.deliveries)),
      series('payexport_webhook_applied_total', 'Inbox rows processed by the worker, by outcome.', 'counter', byLabel('outcome', m.applied)),
      series('payexport_webhook_worker_errors_total', 'Worker batches that failed and were retried.', 'counter', [[{}, m.workerErrors]]),
      series('payexport_webhook_inbox_depth', 'Inbox rows not processed yet.', 'gauge', [[{}, gauges.inboxPending]]),
      series('payexport_webhook_inbox_oldest_seconds', 'Age of the oldest unprocessed inbox row.', 'gauge', [[{}, gauges.inboxOldestSeconds]]),
      series('payexport_sweeps_total', 'Safety-net sweeps, by outcome.', 'counter', byLabel('outcome', m.sweeps)),
      series('payexport_sweep_payments_total', 'Payments read by sweeps.', 'counter', [[{}, m.sweepPayments]]),
      series('payexport_sweep_lag_seconds', 'Seconds since the last successful sweep started.', 'gauge', [[{}, Math.max(0, lagSeconds)]]),
    ].join('\n') + '\n'
  );
}
