import type { AnomalyKind, PlantedAnomaly } from './anomaly-kinds.js';

/**
 * What the anomaly planners decided (anomalies.ts for payments, ledgers and summaries,
 * bill-anomalies.ts for bills): its own file so both planners can share it without importing
 * each other.
 */

export interface OrphanEvent {
  walletIndex: number;
  holdId: string;
  paymentId: string;
  amount: bigint;
  effectiveUs: number;
}

/** One bill anomaly on one wallet of a line of credit (planned by bill-anomalies.ts). */
export interface BillAnomaly {
  kind: AnomalyKind;
  walletIndex: number;
}

export interface AnomalyPlan {
  byHandle: Map<number, { kind: AnomalyKind; malformed?: unknown }>;
  orphans: OrphanEvent[];
  balanceDelta: Map<number, bigint>;
  summaryBump: { handle: number; walletIndex: number; bucketKey: string } | null;
  /** bill anomalies by bill id (bill-anomalies.ts) */
  bills: Map<string, BillAnomaly[]>;
  planted: PlantedAnomaly[];
}
