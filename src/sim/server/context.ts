import type { FaultName } from '../faults/fault-config.js';
import type { Dataset } from '../dataset/dataset.js';
import type { PaymentWriter } from '../writes/payment-writer.js';
import type { QuoteBook } from '../writes/quotes.js';
import type { WalletWriter } from '../writes/wallet-writer.js';
import type { Webhooks } from '../writes/webhooks.js';
import type { Credentials, Principal } from './auth.js';
import type { CursorCodec } from './cursor.js';
import type { QueryParams } from './query-params.js';

export interface ServerLimits {
  /** payments and ledger `limit` when absent */
  defaultPageSize: number;
  /**
   * payments and ledger pages above this are clamped to it (the response's `limit` says so), or
   * refused when `oversizedLimit` is 'refuse'. The default, 500, is the one page cap the service
   * publishes (the bills list: "capped at 500"); for payments and ledger it publishes none.
   */
  maxPageSize: number;
  /** what a `limit` above `maxPageSize` gets: clamped (as the bills list documents) or a 400 */
  oversizedLimit: 'clamp' | 'refuse';
  /** request bodies above this are 413 payload_too_large */
  maxBodyBytes: number;
}

/** Everything a handler may touch: the dataset and the write services. */
export interface SimState {
  dataset: Dataset;
  credentials: Credentials;
  cursors: CursorCodec;
  payments: PaymentWriter;
  wallets: WalletWriter;
  quotes: QuoteBook;
  webhooks: Webhooks;
  limits: ServerLimits;
}

export interface RequestContext {
  method: string;
  path: string;
  params: Readonly<Record<string, string>>;
  query: QueryParams;
  principal: Principal;
  state: SimState;
  /** the fault decided for this request; list handlers apply `dup` / `repeat` */
  fault: FaultName | null;
  /** set by a handler when it applied a damage fault (dup, repeat, gap) */
  applied?: FaultName;
  /** the parsed JSON body (415/413/400/422 checks done) */
  body(): Promise<unknown>;
}

export interface Reply {
  status: number;
  /** JSON body; absent (and no `json`) = empty body */
  body?: unknown;
  /** an already serialized JSON body (pages serialize item by item, see core/json.ts stringifyPage) */
  json?: string;
  headers?: Record<string, string>;
}

export type Handler = (ctx: RequestContext) => Reply | Promise<Reply>;
