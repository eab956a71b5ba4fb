/**
 * Named fault points for the fault-and-abuse suite (test/faults, docs/reliability.md): a crash or
 * an I/O failure at an exact stage of a run, so "killed while writing the workbook, then run again"
 * is a deterministic test rather than a race (docs/reliability.md#fault-injection, PROC-01/PROC-08).
 *
 * Inert unless `PAYEXPORT_FAULT_AT` is set — then ONE point is armed:
 *
 *   PAYEXPORT_FAULT_AT = POINT (":" FACT "=" VALUE)* ["@" ACTION]
 *
 *   pull:page:pages=3              SIGKILL when the 3rd page of the run is fetched, before it is stored
 *   store:commit:pages=2           SIGKILL inside the 2nd page's database transaction (rows in, not committed)
 *   report:xlsx:rows=500           SIGKILL when a sheet gets its 500th row
 *   report:open:file=payments.csv@full   payments.csv is opened on /dev/full: every write fails with ENOSPC
 *
 * A numeric VALUE matches once the point's fact reaches it (>=); any other VALUE matches exactly.
 * ACTION: `kill` (default; SIGKILL, so nothing gets to clean up), `enospc`, `eacces`, `eio` (the
 * point throws that errno error once), `full` (for a file point: the file is opened on /dev/full).
 */

export type FaultFacts = Readonly<Record<string, number | string>>;

type Action = 'kill' | 'enospc' | 'eacces' | 'eio' | 'full';
const ACTIONS: readonly Action[] = ['kill', 'enospc', 'eacces', 'eio', 'full'];

interface Armed {
  point: string;
  facts: ReadonlyMap<string, string>;
  action: Action;
  fired: boolean;
}

const VARIABLE = 'PAYEXPORT_FAULT_AT';
let armed: Armed | null | undefined;

/** False in every ordinary run: hot paths (a point per written row) test this before calling. */
export const FAULTS_ARMED = (process.env[VARIABLE] ?? '') !== '';

/** Parses the variable's value; exported for its unit test. */
export function parseFaultAt(spec: string): Omit<Armed, 'fired'> {
  const [target = '', action = 'kill', ...rest] = spec.trim().split('@');
  if (rest.length > 0 || !(ACTIONS as readonly string[]).includes(action)) throw new Error(`${VARIABLE}: bad action in '${spec}' (one of ${ACTIONS.join(', ')})`);
  const parts = target.split(':');
  const names: string[] = [];
  const facts = new Map<string, string>();
  for (const part of parts) {
    const eq = part.indexOf('=');
    if (eq < 0) {
      if (facts.size > 0 || !/^[a-z][a-z0-9-]*$/.test(part)) throw new Error(`${VARIABLE}: bad point name '${part}' in '${spec}'`);
      names.push(part);
    } else {
      facts.set(part.slice(0, eq), part.slice(eq + 1));
    }
  }
  if (names.length === 0) throw new Error(`${VARIABLE}: no point named in '${spec}'`);
  return { point: names.join(':'), facts, action: action as Action };
}

function current(): Armed | null {
  if (armed === undefined) {
    const spec = process.env[VARIABLE];
    armed = spec === undefined || spec === '' ? null : { ...parseFaultAt(spec), fired: false };
  }
  return armed;
}

function matches(at: Armed, point: string, facts: FaultFacts): boolean {
  if (at.fired || at.point !== point) return false;
  for (const [name, wanted] of at.facts) {
    const actual = facts[name];
    if (actual === undefined) return false;
    const threshold = Number(wanted);
    if (typeof actual === 'number' && wanted !== '' && Number.isFinite(threshold) ? actual < threshold : String(actual) !== wanted) return false;
  }
  return true;
}

/** Fires the armed fault when this point and its facts match it; returns at once otherwise. */
export function faultPoint(point: string, facts: FaultFacts = {}): void {
  const at = current();
  if (at === null || at.action === 'full' || !matches(at, point, facts)) return;
  at.fired = true;
  if (at.action === 'kill') {
    process.kill(process.pid, 'SIGKILL');
    return;
  }
  const code = at.action.toUpperCase();
  throw Object.assign(new Error(`${code}: injected at fault point ${point} (${VARIABLE})`), { code, syscall: 'write' });
}

/** For a file the run is about to create: `/dev/full` when a `full` fault is armed here, else null. */
export function diskFullTarget(point: string, facts: FaultFacts = {}): string | null {
  const at = current();
  if (at === null || at.action !== 'full' || !matches(at, point, facts)) return null;
  at.fired = true;
  return '/dev/full';
}
