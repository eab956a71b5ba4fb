import { FAULT_NAMES, type FaultConfig, type FaultName, type ScheduledFault } from './fault-config.js';

/**
 * The `--faults SPEC` grammar (docs/simulator.md "Fault grammar"):
 *
 *   SPEC  := RULE ("," RULE)*
 *   RULE  := "latency=" DUR ["-" DUR]              fixed or uniform delay per request
 *          | STATUS "=" P [":retry-after=" SECS]    STATUS ∈ 500 502 503 504 429
 *          | ("reset"|"truncate"|"dup"|"repeat"|"gap") "=" P
 *          | "drip=" P [":" DUR [":" BYTES]]        a chunk of BYTES (default 1) every DUR (default 1s)
 *          | "seed=" INT
 *          | "paths=" GLOB ("|" GLOB)*              scope of the random faults
 *          | "first=" N ":" FAULT ["@" GLOB]        the first N matching requests get FAULT
 *          | "nth=" N ":" FAULT ["@" GLOB]          the N-th matching request gets FAULT
 *   DUR   := digits ["ms" | "s"]                   (bare digits are ms)
 *   P     := probability in [0, 1]
 *
 * Example: `latency=50ms,503=0.05,500=0.02,429=0.02:retry-after=1,reset=0.01,truncate=0.01,dup=0.05,drip=0.01:2s`.
 */
export class FaultSpecError extends Error {
  override readonly name = 'FaultSpecError';
}

function duration(text: string, rule: string): number {
  const m = /^(\d+(?:\.\d+)?)(ms|s)?$/.exec(text.trim());
  if (!m) throw new FaultSpecError(`bad duration ${JSON.stringify(text)} in ${JSON.stringify(rule)}`);
  const value = Number(m[1]);
  return m[2] === 's' ? value * 1000 : value;
}

function probability(text: string, rule: string): number {
  const p = Number(text);
  if (text.trim() === '' || !Number.isFinite(p) || p < 0 || p > 1) throw new FaultSpecError(`bad probability ${JSON.stringify(text)} in ${JSON.stringify(rule)} (expected 0..1)`);
  return p;
}

function count(text: string, rule: string): number {
  if (!/^\d+$/.test(text) || Number(text) < 1) throw new FaultSpecError(`bad count ${JSON.stringify(text)} in ${JSON.stringify(rule)}`);
  return Number(text);
}

function faultName(text: string, rule: string): FaultName {
  if (!(FAULT_NAMES as readonly string[]).includes(text)) throw new FaultSpecError(`unknown fault ${JSON.stringify(text)} in ${JSON.stringify(rule)} (one of ${FAULT_NAMES.join(', ')})`);
  return text as FaultName;
}

export function parseFaultSpec(spec: string): FaultConfig {
  const config: { -readonly [K in keyof FaultConfig]: FaultConfig[K] } & { rates: Partial<Record<FaultName, number>>; schedule: ScheduledFault[] } = { rates: {}, schedule: [] };
  for (const raw of spec.split(',')) {
    const rule = raw.trim();
    if (rule === '') continue;
    const eq = rule.indexOf('=');
    if (eq < 0) throw new FaultSpecError(`expected NAME=VALUE, got ${JSON.stringify(rule)}`);
    const name = rule.slice(0, eq).trim();
    const value = rule.slice(eq + 1).trim();
    switch (name) {
      case 'latency': {
        const [lo, hi] = value.split('-');
        config.latencyMs = hi === undefined ? duration(lo ?? '', rule) : [duration(lo ?? '', rule), duration(hi, rule)];
        break;
      }
      case 'seed':
        if (!/^\d+$/.test(value)) throw new FaultSpecError(`bad seed in ${JSON.stringify(rule)}`);
        config.seed = Number(value);
        break;
      case 'paths':
        config.paths = value.split('|').filter((g) => g !== '');
        break;
      case 'first':
      case 'nth': {
        const at = value.indexOf('@');
        const head = at < 0 ? value : value.slice(0, at);
        const path = at < 0 ? undefined : value.slice(at + 1);
        const [n, fault] = head.split(':');
        const entry: ScheduledFault = { fault: faultName(fault ?? '', rule), [name]: count(n ?? '', rule), ...(path !== undefined ? { path } : {}) };
        config.schedule.push(entry);
        break;
      }
      case 'drip': {
        const [p, interval, bytes] = value.split(':');
        config.rates.drip = probability(p ?? '', rule);
        if (interval !== undefined) config.dripIntervalMs = duration(interval, rule);
        if (bytes !== undefined) config.dripChunkBytes = count(bytes, rule);
        break;
      }
      default: {
        const fault = faultName(name, rule);
        const [p, ...options] = value.split(':');
        config.rates[fault] = probability(p ?? '', rule);
        for (const option of options) {
          const m = /^retry-after=(\d+)$/.exec(option);
          if (!m || (fault !== '429' && fault !== '503')) throw new FaultSpecError(`unknown option ${JSON.stringify(option)} in ${JSON.stringify(rule)}`);
          config.retryAfterSeconds = Number(m[1]);
        }
      }
    }
  }
  return config;
}
