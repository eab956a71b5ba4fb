/** deliverReport with what every transport test passes the same way: a quiet logger, a scrubber, instant backoff. */
import type { DeliveryDestination } from '../../../src/config/delivery-schema.js';
import { deliverReport } from '../../../src/delivery/deliver-report.js';
import type { DeliveryRecord } from '../../../src/delivery/delivery-record.js';
import { readReportToDeliver } from '../../../src/delivery/report-to-deliver.js';
import { createLogger } from '../../../src/util/log.js';
import { SecretScrubber } from '../../../src/util/secret-scrubber.js';

export interface DeliverOptions {
  env?: Record<string, string | undefined>;
  attempts?: number;
  timeoutMs?: number;
  /** called instead of waiting out a backoff (a test restarts a server here) */
  sleep?: (ms: number) => Promise<void>;
  scrubber?: SecretScrubber;
}

export async function deliverTo(d: DeliveryDestination, dir: string, options: DeliverOptions = {}): Promise<DeliveryRecord> {
  const scrubber = options.scrubber ?? new SecretScrubber();
  const report = await readReportToDeliver(dir);
  const [record] = await deliverReport({
    delivery: { timeoutMs: options.timeoutMs ?? 60_000, attempts: options.attempts ?? 1 },
    destinations: [d],
    report,
    runId: `test-${Date.now()}`,
    env: options.env ?? {},
    cwd: process.cwd(),
    scrubber,
    log: createLogger({ runId: 'test', scrubber, level: 'error', format: 'json' }),
    retry: { sleep: options.sleep ?? (async () => undefined), random: () => 0.5 },
  });
  return record!;
}
