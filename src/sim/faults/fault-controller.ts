import { hash32, hashString } from '../core/prng.js';
import { FAULT_NAMES, globToRegExp, type FaultConfig, type FaultName, type ScheduledFault } from './fault-config.js';
import { parseFaultSpec } from './fault-spec.js';

export interface FaultDecision {
  latencyMs: number;
  fault: FaultName | null;
}

interface CompiledSchedule {
  entry: ScheduledFault;
  path: RegExp | null;
  matched: number;
}

const SALTS = new Map(FAULT_NAMES.map((name) => [name, hashString(`fault:${name}`)]));
const LATENCY_SALT = hashString('fault:latency');

/**
 * Decides, per request, the added latency and at most one fault. Scheduled faults win over random
 * ones. The n-th request (in arrival order) draws from hash(seed, n), so a run with the same
 * arrival order sees the same faults. Swap the configuration at any time with `set()`.
 */
export class FaultController {
  private config: FaultConfig = {};
  private schedule: CompiledSchedule[] = [];
  private paths: RegExp[] | null = null;
  private sequence = 0;
  private readonly injected = new Map<FaultName, number>();

  constructor(initial?: FaultConfig | string | null) {
    this.set(initial ?? null);
  }

  /** Replace the configuration (a spec string, a config, or null for none); schedules restart. */
  set(config: FaultConfig | string | null): void {
    this.config = config === null ? {} : typeof config === 'string' ? parseFaultSpec(config) : config;
    this.schedule = (this.config.schedule ?? []).map((entry) => ({ entry, path: entry.path === undefined ? null : globToRegExp(entry.path), matched: 0 }));
    this.paths = this.config.paths ? this.config.paths.map(globToRegExp) : null;
    this.sequence = 0;
  }

  get current(): FaultConfig {
    return this.config;
  }

  get retryAfterSeconds(): number {
    return this.config.retryAfterSeconds ?? 1;
  }

  get dripIntervalMs(): number {
    return this.config.dripIntervalMs ?? 1000;
  }

  get dripChunkBytes(): number {
    return this.config.dripChunkBytes ?? 1;
  }

  /** How many times each fault was injected since start. */
  counts(): Readonly<Record<string, number>> {
    return Object.fromEntries(this.injected);
  }

  noteInjected(fault: FaultName): void {
    this.injected.set(fault, (this.injected.get(fault) ?? 0) + 1);
  }

  decide(method: string, path: string): FaultDecision {
    const n = this.sequence++;
    const seed = this.config.seed ?? 0;
    let latencyMs = 0;
    const latency = this.config.latencyMs;
    if (typeof latency === 'number') latencyMs = latency;
    else if (latency) latencyMs = latency[0] + (hash32(seed, n, LATENCY_SALT) / 0x1_0000_0000) * (latency[1] - latency[0]);

    // every rule counts every request it matches, whether or not an earlier rule fired
    let scheduled: FaultName | null = null;
    for (const s of this.schedule) {
      if (s.entry.method !== undefined && s.entry.method.toUpperCase() !== method) continue;
      if (s.path && !s.path.test(path)) continue;
      s.matched++;
      const hit = s.entry.first !== undefined ? s.matched <= s.entry.first : s.entry.nth !== undefined && s.matched === s.entry.nth;
      if (hit && scheduled === null) scheduled = s.entry.fault;
    }
    if (scheduled !== null) return { latencyMs, fault: scheduled };
    const rates = this.config.rates;
    if (rates && (this.paths === null || this.paths.some((re) => re.test(path)))) {
      for (const name of FAULT_NAMES) {
        const p = rates[name];
        if (p === undefined || p <= 0) continue;
        if (hash32(seed, n, SALTS.get(name) as number) / 0x1_0000_0000 < p) return { latencyMs, fault: name };
      }
    }
    return { latencyMs, fault: null };
  }
}
