/**
 * Each delivery destination reachable without sending a report (the delivery room's
 * probeDestination: the SFTP host key against its pin, the login, a probe entry created and
 * removed; an S3 bucket found and a probe object put and deleted; a share writable), and no report
 * folder whose latest delivery to a destination failed (`payexport deliver` retries it).
 */
import { join, resolve } from 'node:path';
import { outstandingDeliveryFailures } from '../../../delivery/outstanding-failures.js';
import { probeDestination } from '../../../delivery/probe-destination.js';
import { fail, pass, type CheckLine, type DoctorCheck } from '../check.js';

/** Probes get a short budget: doctor answers in seconds, a delivery has minutes. */
const PROBE_TIMEOUT_MS = 15_000;

export const deliveryDestinationsCheck: DoctorCheck = {
  id: 'delivery-destinations',
  async run(ctx) {
    const { delivery } = ctx.loaded.config;
    if (delivery.destinations.length === 0) return [pass('delivery destinations', 'none configured')];
    const lines: CheckLine[] = [];
    for (const d of delivery.destinations) {
      const title = `deliver ${d.name} (${d.kind})`;
      const probe = await probeDestination(d, { env: ctx.env, cwd: ctx.cwd, scrubber: ctx.scrubber, timeoutMs: Math.min(delivery.timeoutMs, PROBE_TIMEOUT_MS) });
      lines.push(probe.ok ? pass(title, `${probe.detail} (no report sent)`) : fail(title, probe.detail, probe.fix));
    }
    const failed = await outstandingDeliveryFailures(ctx.loaded, ctx.cwd);
    if (failed.length === 0) lines.push(pass('earlier deliveries', 'none left failed'));
    const out = resolve(ctx.cwd, ctx.loaded.config.out);
    for (const row of failed) {
      lines.push(fail(`delivery of ${row.report} to ${row.destination}`, ctx.scrubber.scrub(row.detail), `payexport deliver ${join(out, ...row.report.split('/'))} --to ${row.destination}`));
    }
    return lines;
  },
};
