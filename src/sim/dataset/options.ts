import { microsOfDateOrInstant, type Micros } from '../core/time.js';
import { ANOMALY_KINDS, type AnomalyKind } from './anomaly-kinds.js';

export type EnvironmentKind = 'production' | 'staging';

/**
 * What kind of organization the payments describe.
 *   `business`  a mid-sized company: treasury-sized balances, customer-sized payments, treasury
 *               transfers as pairs between its own wallets (a send and the matching receive), no
 *               hostile text and no amounts above 2^53 — what `payexport demo` and `payexport sim` serve.
 *   `stress`    every variant at its extreme: single-leg treasury movements to the outside, amounts
 *               above 2^53 msats, hostile memos — what the tests and benchmarks are written against.
 */
export type DatasetProfile = 'business' | 'stress';
export const DATASET_PROFILES: readonly DatasetProfile[] = ['business', 'stress'];

/** What to generate. Every field is optional; the defaults give the demo dataset. */
export interface DatasetOptions {
  /** Same seed (and options) → same data, byte for byte. Default 1. */
  seed?: number;
  /** Number of generated payments. Default 10,000. */
  scale?: number;
  /** Number of wallets (at least 4; the first ones cover BTC, USD, asset, inactive). Default 8. */
  wallets?: number;
  /** Environment kinds, one per environment. Default two `production` environments. */
  environments?: readonly EnvironmentKind[];
  /** First instant of the payment range: `YYYY-MM-DD` (UTC) or RFC 3339. Default `2026-09-01`. */
  from?: string;
  /** End of the payment range, EXCLUSIVE: `YYYY-MM-DD` (UTC midnight) or RFC 3339. Default `2026-11-22`. */
  to?: string;
  /** Planted reconciliation anomalies (off by default): a list of kinds, or `'all'`. */
  anomalies?: readonly AnomalyKind[] | 'all';
  /** Add unknown fields and unknown enum values (e.g. status `settling_v2`) so clients prove tolerance. Default false. */
  unknownFields?: boolean;
  /** Include legacy-only records (deprecated fields, uppercase `BTC`, old ledger events). Default true. */
  legacyRecords?: boolean;
  /** Include hostile text (formula/SQL/control characters) in memos and metadata. Default true (`business`: false). */
  hostileText?: boolean;
  /** Default `stress` (the suite's dataset); the CLI's `sim` and `demo` default to `business`. */
  profile?: DatasetProfile;
}

export interface ResolvedDatasetOptions {
  readonly seed: number;
  readonly scale: number;
  readonly wallets: number;
  readonly environments: readonly EnvironmentKind[];
  readonly fromUs: Micros;
  readonly toUs: Micros;
  readonly anomalies: readonly AnomalyKind[];
  readonly unknownFields: boolean;
  readonly legacyRecords: boolean;
  readonly hostileText: boolean;
  readonly profile: DatasetProfile;
}

const MAX_SCALE = 50_000_000;

export function resolveDatasetOptions(options: DatasetOptions = {}): ResolvedDatasetOptions {
  const seed = options.seed ?? 1;
  const scale = options.scale ?? 10_000;
  const wallets = options.wallets ?? 8;
  const environments = options.environments ?? ['production', 'production'];
  const profile = options.profile ?? 'stress';
  if (!DATASET_PROFILES.includes(profile)) throw new RangeError(`profile must be one of ${DATASET_PROFILES.join(', ')}, got ${JSON.stringify(profile)}`);
  if (!Number.isSafeInteger(seed)) throw new RangeError(`seed must be an integer, got ${seed}`);
  if (!Number.isSafeInteger(scale) || scale < 0 || scale > MAX_SCALE) throw new RangeError(`scale must be an integer in [0, ${MAX_SCALE}], got ${scale}`);
  if (!Number.isSafeInteger(wallets) || wallets < 4 || wallets > 1000) throw new RangeError(`wallets must be an integer in [4, 1000], got ${wallets}`);
  if (environments.length < 1 || environments.length > 16) throw new RangeError('between 1 and 16 environments');
  const fromUs = microsOfDateOrInstant(options.from ?? '2026-09-01');
  const toUs = microsOfDateOrInstant(options.to ?? '2026-11-22');
  if (!(toUs > fromUs)) throw new RangeError('`to` must be after `from`');
  const anomalies = options.anomalies === 'all' ? ANOMALY_KINDS : [...new Set(options.anomalies ?? [])];
  for (const kind of anomalies) {
    if (!(ANOMALY_KINDS as readonly string[]).includes(kind)) throw new RangeError(`unknown anomaly kind ${JSON.stringify(kind)}`);
  }
  return {
    seed: seed >>> 0,
    scale,
    wallets,
    environments: [...environments],
    fromUs,
    toUs,
    anomalies,
    unknownFields: options.unknownFields ?? false,
    legacyRecords: options.legacyRecords ?? true,
    hostileText: options.hostileText ?? profile === 'stress',
    profile,
  };
}
