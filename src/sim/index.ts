/**
 * The payments-service simulator (docs/simulator.md): a local HTTP server shaped like the real
 * service's OpenAPI document, a seeded dataset at any scale, faults on request, and ground truth
 * for tests.
 */
export { startSimulator, type SimHandle, type SimulatorOptions, type SimEnvironmentInfo, type SimWalletInfo } from './start-simulator.js';
export { Dataset, type TruthFilter, type TruthLedgerEntry } from './dataset/dataset.js';
export type { DatasetOptions, EnvironmentKind } from './dataset/options.js';
export { ANOMALY_KINDS, type AnomalyKind, type PlantedAnomaly } from './dataset/anomaly-kinds.js';
export { processingFeeOf } from './dataset/fees.js';
export type { FaultConfig, FaultName, ScheduledFault } from './faults/fault-config.js';
export { parseFaultSpec, FaultSpecError } from './faults/fault-spec.js';
export type { RequestLog, RequestLogEntry, RequestLogOptions } from './request-log.js';
export { signWebhook, type WebhookDelivery } from './writes/webhooks.js';
export { parseJsonLossless, stringifyJson } from './core/json.js';
