import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { Dataset } from './dataset/dataset.js';
import type { DatasetOptions, EnvironmentKind } from './dataset/options.js';
import type { FaultConfig } from './faults/fault-config.js';
import { FaultController } from './faults/fault-controller.js';
import { RequestLog, type RequestLogOptions } from './request-log.js';
import { Credentials } from './server/auth.js';
import type { ServerLimits } from './server/context.js';
import { CursorCodec } from './server/cursor.js';
import { createSimServer } from './server/http-server.js';
import { PaymentWriter } from './writes/payment-writer.js';
import { QuoteBook } from './writes/quotes.js';
import { Scheduler } from './writes/scheduler.js';
import { WalletWriter } from './writes/wallet-writer.js';
import { Webhooks, type WebhookOptions } from './writes/webhooks.js';

/** The simulator's payments and ledger page cap: the one page cap the service publishes (the bills list's). */
export const DEFAULT_MAX_PAGE_SIZE = 500;

export interface SimulatorOptions extends DatasetOptions {
  /** TCP port on 127.0.0.1; default 0 (any free port) */
  port?: number;
  /** faults from the start: a `--faults` spec string or a config (see faults/fault-spec.ts) */
  faults?: string | FaultConfig;
  /** JSON-lines request log: always in memory; optionally a file or a stream too */
  requestLog?: RequestLogOptions;
  limits?: Partial<ServerLimits>;
  /** state machines of written payments */
  timing?: { stepMs?: number; readableAfterMs?: number; autoPayReceives?: boolean };
  /** treasury movements enabled for the organization (default true) */
  treasuryEnabled?: boolean;
  /** fix the API keys (one per environment) or the bearer token instead of random ones */
  apiKeys?: readonly string[];
  bearerToken?: string;
  webhooks?: WebhookOptions;
  /** reuse an already built dataset (its options win over the dataset options here) */
  dataset?: Dataset;
  /** unexpected server errors (simulator bugs); default console.error */
  onError?: (error: unknown) => void;
  /** the service's clock, as its `Date` header shows it, is this far ahead of ours (negative: behind) */
  clockOffsetMs?: number;
}

export interface SimEnvironmentInfo {
  id: string;
  kind: EnvironmentKind;
  name: string;
  /** full-access key scoped to this environment (`vltg_…`) */
  apiKey: string;
  /** READ-only key scoped to this environment */
  readOnlyApiKey: string;
}

export interface SimWalletInfo {
  id: string;
  name: string;
  environmentId: string;
  currency: string;
  backing: 'node' | 'credit';
  lineOfCreditId: string | null;
  active: boolean;
  network: string;
}

export interface SimHandle {
  /** `http://127.0.0.1:<port>/v1` */
  baseUrl: string;
  port: number;
  organizationId: string;
  environments: SimEnvironmentInfo[];
  /** organization-wide bearer token (every environment) */
  bearerToken: string;
  wallets: SimWalletInfo[];
  /** the generated data and the ground truth (paymentIds, ledgerEntries, anomalies, …) */
  dataset: Dataset;
  requestLog: RequestLog;
  /** webhook registrations and the deliveries made (`deliveries`, `idle()`) */
  webhooks: Webhooks;
  faults: FaultController;
  /** replace the faults at runtime (a spec string, a config, or null for none) */
  setFaults(faults: string | FaultConfig | null): void;
  /**
   * Let time pass for writes: end the brief 404 window of new payments and wallets, run pending state
   * transitions now instead of waiting for the timers — all (default) or the next `steps` — and
   * wait for the webhook deliveries they caused.
   */
  settle(steps?: number): Promise<void>;
  close(): Promise<void>;
}

/** Start the payments-service simulator on 127.0.0.1. */
export async function startSimulator(options: SimulatorOptions = {}): Promise<SimHandle> {
  const dataset = options.dataset ?? new Dataset(options);
  const credentials = new Credentials(dataset.environments.length, { ...(options.apiKeys ? { apiKeys: options.apiKeys } : {}), ...(options.bearerToken ? { bearerToken: options.bearerToken } : {}) });
  const scheduler = new Scheduler();
  const webhooks = new Webhooks(options.webhooks);
  const quotes = new QuoteBook(dataset.options.seed);
  const readableAfterMs = options.timing?.readableAfterMs ?? 50;
  const payments = new PaymentWriter(dataset, quotes, scheduler, webhooks, {
    stepMs: options.timing?.stepMs ?? 100,
    readableAfterMs,
    autoPayReceives: options.timing?.autoPayReceives ?? true,
    treasuryEnabled: options.treasuryEnabled ?? true,
  });
  const wallets = new WalletWriter(dataset, readableAfterMs);
  const faults = new FaultController(options.faults ?? null);
  const requestLog = new RequestLog(options.requestLog);
  const server = createSimServer({
    state: {
      dataset,
      credentials,
      cursors: new CursorCodec(dataset.options.seed),
      payments,
      wallets,
      quotes,
      webhooks,
      limits: { defaultPageSize: 100, maxPageSize: DEFAULT_MAX_PAGE_SIZE, oversizedLimit: 'clamp', maxBodyBytes: 256 * 1024, ...options.limits },
    },
    faults,
    log: requestLog,
    ...(options.onError ? { onError: options.onError } : {}),
    ...(options.clockOffsetMs ? { clockOffsetMs: options.clockOffsetMs } : {}),
  });
  const port = await listenOnLoopback(server, options.port ?? 0);
  const environments = dataset.environments.map((e) => ({ id: e.id, kind: e.kind, name: e.name, apiKey: credentials.issued.apiKeys[e.index] as string, readOnlyApiKey: credentials.issued.readOnlyApiKeys[e.index] as string }));

  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    port,
    organizationId: dataset.organizationId,
    environments,
    bearerToken: credentials.issued.bearerToken,
    get wallets(): SimWalletInfo[] {
      return walletInfos(dataset);
    },
    dataset,
    requestLog,
    webhooks,
    faults,
    setFaults: (f) => faults.set(f),
    async settle(steps?: number) {
      payments.makeAllReadable();
      wallets.makeAllReadable();
      scheduler.flush(steps);
      await webhooks.idle();
    },
    async close() {
      scheduler.close();
      webhooks.close();
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
      await requestLog.close();
    },
  };
}

/** The wallets as they are now (writes add and deactivate them), in the shape tests read. */
function walletInfos(dataset: Dataset): SimWalletInfo[] {
  return dataset.wallets.map((w) => ({
    id: w.id,
    name: w.name,
    environmentId: dataset.environments[w.environmentIndex]?.id ?? '',
    currency: w.currency,
    backing: w.backing,
    lineOfCreditId: w.lineOfCreditIndex === null ? null : (dataset.linesOfCredit[w.lineOfCreditIndex]?.id ?? null),
    active: w.deactivatedUs === null,
    network: w.network,
  }));
}

async function listenOnLoopback(server: Server, port: number): Promise<number> {
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  return (server.address() as AddressInfo).port;
}
