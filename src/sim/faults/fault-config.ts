/**
 * Faults the simulator injects on request (docs/simulator.md "Faults"). Random faults are drawn
 * per request from a seeded counter-based RNG; scheduled faults hit exact requests ("the first 3
 * requests to any payments path get 503"), so tests are deterministic.
 */

/** A fault that replaces or damages one response. */
export type FaultKind = 'status' | 'reset' | 'truncate' | 'drip' | 'dup' | 'repeat' | 'gap';

/** `500`, `502`, `503`, `504` or `429`, or a damage kind. */
export type FaultName = '500' | '502' | '503' | '504' | '429' | 'reset' | 'truncate' | 'drip' | 'dup' | 'repeat' | 'gap';

export const FAULT_NAMES: readonly FaultName[] = ['500', '502', '503', '504', '429', 'reset', 'truncate', 'drip', 'dup', 'repeat', 'gap'];

export interface ScheduledFault {
  fault: FaultName;
  /** hit the first `first` matching requests … */
  first?: number;
  /** … or exactly the `nth` matching request (1-based) */
  nth?: number;
  /** glob over the request path (`*` = any characters), e.g. `*` + `/payments`; default every path */
  path?: string;
  /** only requests with this method */
  method?: string;
}

export interface FaultConfig {
  /** seed of the random draws (default 0) */
  seed?: number;
  /** added before every response: a fixed delay or a [min, max] range in ms */
  latencyMs?: number | readonly [number, number];
  /** probability per request of each random fault (0..1) */
  rates?: Partial<Record<FaultName, number>>;
  /** Retry-After seconds sent with 429 (and 503) responses; default 1 */
  retryAfterSeconds?: number;
  /** drip: one chunk every `dripIntervalMs` (default 1000) of `dripChunkBytes` bytes (default 1) */
  dripIntervalMs?: number;
  dripChunkBytes?: number;
  /** restrict the RANDOM faults to paths matching one of these globs (latency still applies everywhere) */
  paths?: readonly string[];
  schedule?: readonly ScheduledFault[];
}

export function globToRegExp(glob: string): RegExp {
  const escaped = glob.replace(/[.+?^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '.*');
  return new RegExp(`^${escaped}$`);
}
