/**
 * The pull's `pull:page` fault point (src/util/fault-points.ts): just after a page was fetched and
 * normalized, before the snapshot stores it. Wraps the run's writer for the extract layer rather
 * than reaching into every stream; inert unless PAYEXPORT_FAULT_AT names the point.
 */
import type { SnapshotWriter } from '../model/ports.js';
import { FAULTS_ARMED, faultPoint } from '../util/fault-points.js';

// Bill pages are left out on purpose: they are written alongside the summaries, so counting them
// would move every numbered kill point of the fault tests into the first, all-parallel phase.
const PAGE_WRITES: ReadonlySet<PropertyKey> = new Set(['writePaymentsPage', 'writeLedgerPage', 'writeSummaries']);

export function withPageFaultPoint(writer: SnapshotWriter): SnapshotWriter {
  if (!FAULTS_ARMED) return writer;
  let pages = 0;
  return new Proxy(writer, {
    get(target, property) {
      const value: unknown = Reflect.get(target, property, target);
      if (typeof value !== 'function') return value;
      const bound = (value as (...args: unknown[]) => unknown).bind(target);
      if (!PAGE_WRITES.has(property)) return bound;
      return (...args: unknown[]) => {
        faultPoint('pull:page', { pages: ++pages, method: String(property) });
        return bound(...args);
      };
    },
  });
}
