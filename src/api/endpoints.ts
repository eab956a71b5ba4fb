/**
 * The read endpoints the job uses (docs/service-facts.md#endpoints 1, 2, 4, 7, 8, 10, 14, 15, 16), with typed
 * query builders. Path parameters are validated as UUIDs before they are interpolated, so no raw
 * user text ever reaches a URL (docs/reliability.md#user-input-input, INPUT-05). Response shapes are checked only as
 * far as pagination and the callers need; normalize/ treats every field defensively.
 */
import { usageError } from '../util/errors.js';
import { toUtcInstant } from '../model/instant.js';
import type { GetOptions, QueryPairs } from './client.js';
import { ApiError, ApiProtocolError } from './errors.js';
import type { LosslessJson } from './json.js';
import { negotiatedRequest, PageSize, SERVICE_DEFAULT_PAGE_SIZE } from './page-size.js';
import { cursorPages, offsetPages, readListPage, sweepPages, type Page, type PageGuards, type SweepPosition, type SweepRequest } from './paginate.js';
import type { WireBill, WireBillSummary } from './wire/bills.js';
import type { WireLedgerSortKey, WireNetwork, WirePaymentCategory, WirePaymentDirection, WirePaymentKind, WirePaymentStatus, WireSortKey, WireSortOrder } from './wire/enums.js';
import type { WireLedgerEvent } from './wire/ledger.js';
import type { WirePayment } from './wire/payments.js';
import type { WireWalletPolicies } from './wire/policies.js';
import type { WireEnvironmentSummary, WireWalletSummary } from './wire/summaries.js';
import type { WireSupportedAssets, WireWallet } from './wire/wallets.js';

/** What the endpoints need from the client (ApiClient implements it; tests may fake it). */
export interface ApiReader {
  get(path: string, options?: GetOptions): Promise<LosslessJson>;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A path or filter parameter that must be a UUID (docs/service-facts.md#conventions); exit 64 otherwise. */
export function uuidParam(name: string, value: string): string {
  if (typeof value !== 'string' || !UUID.test(value)) {
    const shown = typeof value === 'string' ? JSON.stringify(value.slice(0, 40)) : typeof value;
    throw usageError('invalid_uuid', `${name} must be a UUID, got ${shown}`, { parameter: name });
  }
  return value.toLowerCase();
}

/** RFC 3339 date-time filter → canonical UTC (microseconds) as the service documents it. */
export function dateParam(name: string, value: string | Date): string {
  const instant = value instanceof Date ? (Number.isNaN(value.getTime()) ? null : toUtcInstant(value.toISOString())) : toUtcInstant(value);
  if (instant === null) throw usageError('invalid_date_time', `${name} must be an RFC 3339 date-time with an offset`, { parameter: name });
  return instant;
}

/**
 * A fixed size is a negotiation of its own (it may still be capped or refused); a shared
 * `PageSize` carries what one chain learned to the others (api/page-size.ts).
 */
function pageSizeOf(limit: number | PageSize | undefined): PageSize {
  if (limit instanceof PageSize) return limit;
  limitParam(limit ?? SERVICE_DEFAULT_PAGE_SIZE);
  return new PageSize(limit ?? SERVICE_DEFAULT_PAGE_SIZE);
}

function limitParam(value: number): string {
  if (!Number.isSafeInteger(value) || value < 1 || value > 0xffff_ffff) throw usageError('invalid_limit', `page limit must be an integer ≥ 1, got ${value}`);
  return String(value);
}

function metadataPairs(metadata: Readonly<Record<string, string>> | undefined): Array<[string, string]> {
  if (metadata === undefined) return [];
  return Object.keys(metadata)
    .sort()
    .map((key): [string, string] => {
      if (key === '' || /[[\]]/.test(key)) throw usageError('invalid_metadata_filter', `metadata filter key ${JSON.stringify(key.slice(0, 40))} is empty or holds a bracket`);
      const value = metadata[key];
      if (typeof value !== 'string') throw usageError('invalid_metadata_filter', `metadata filter ${JSON.stringify(key.slice(0, 40))} must be a string`);
      return [`metadata[${key}]`, value];
    });
}

// ---------------------------------------------------------------------------------------------
// Query builders (pure; deterministic order, so the same filters produce the same query string)

/** Filters of endpoint 10 (list payments), pagination excluded. */
export interface PaymentFilters {
  walletId?: string;
  lineOfCreditId?: string;
  paymentCategory?: WirePaymentCategory;
  /** `metadata[k]=v`; a payment must match every pair */
  metadata?: Readonly<Record<string, string>>;
  statuses?: readonly WirePaymentStatus[];
  sortKey?: WireSortKey;
  sortOrder?: WireSortOrder;
  kind?: WirePaymentKind;
  direction?: WirePaymentDirection;
  /** inclusive lower bound on creation time */
  startDate?: string | Date;
  /** inclusive upper bound on creation time */
  endDate?: string | Date;
}

export function paymentFilterQuery(filters: PaymentFilters): QueryPairs {
  const pairs: Array<[string, string]> = [];
  if (filters.walletId !== undefined) pairs.push(['wallet_id', uuidParam('wallet_id', filters.walletId)]);
  if (filters.lineOfCreditId !== undefined) pairs.push(['line_of_credit_id', uuidParam('line_of_credit_id', filters.lineOfCreditId)]);
  if (filters.paymentCategory !== undefined) pairs.push(['payment_category', filters.paymentCategory]);
  pairs.push(...metadataPairs(filters.metadata));
  for (const status of filters.statuses ?? []) pairs.push(['statuses[]', status]);
  if (filters.sortKey !== undefined) pairs.push(['sort_key', filters.sortKey]);
  if (filters.sortOrder !== undefined) pairs.push(['sort_order', filters.sortOrder]);
  if (filters.kind !== undefined) pairs.push(['kind', filters.kind]);
  if (filters.direction !== undefined) pairs.push(['direction', filters.direction]);
  if (filters.startDate !== undefined) pairs.push(['start_date', dateParam('start_date', filters.startDate)]);
  if (filters.endDate !== undefined) pairs.push(['end_date', dateParam('end_date', filters.endDate)]);
  return pairs;
}

/** Filters of endpoints 14-15 (payment summaries). `lineOfCreditId` is environment-only. */
export interface SummaryFilters {
  includeInactive?: boolean;
  metadata?: Readonly<Record<string, string>>;
  statuses?: readonly WirePaymentStatus[];
  kind?: WirePaymentKind;
  direction?: WirePaymentDirection;
  startDate?: string | Date;
  endDate?: string | Date;
}

export function summaryFilterQuery(filters: SummaryFilters & { lineOfCreditId?: string }): QueryPairs {
  const pairs: Array<[string, string]> = [];
  if (filters.lineOfCreditId !== undefined) pairs.push(['line_of_credit_id', uuidParam('line_of_credit_id', filters.lineOfCreditId)]);
  if (filters.includeInactive !== undefined) pairs.push(['include_inactive', String(filters.includeInactive)]);
  pairs.push(...metadataPairs(filters.metadata));
  for (const status of filters.statuses ?? []) pairs.push(['statuses[]', status]);
  if (filters.kind !== undefined) pairs.push(['kind', filters.kind]);
  if (filters.direction !== undefined) pairs.push(['direction', filters.direction]);
  if (filters.startDate !== undefined) pairs.push(['start_date', dateParam('start_date', filters.startDate)]);
  if (filters.endDate !== undefined) pairs.push(['end_date', dateParam('end_date', filters.endDate)]);
  return pairs;
}

/** Filters of endpoint 7 (wallet ledger), pagination excluded. */
export interface LedgerFilters {
  paymentId?: string;
  startDate?: string | Date;
  endDate?: string | Date;
  sortKey?: WireLedgerSortKey;
  sortOrder?: WireSortOrder;
}

export function ledgerFilterQuery(filters: LedgerFilters): QueryPairs {
  const pairs: Array<[string, string]> = [];
  if (filters.paymentId !== undefined) pairs.push(['payment_id', uuidParam('payment_id', filters.paymentId)]);
  if (filters.startDate !== undefined) pairs.push(['start_date', dateParam('start_date', filters.startDate)]);
  if (filters.endDate !== undefined) pairs.push(['end_date', dateParam('end_date', filters.endDate)]);
  if (filters.sortKey !== undefined) pairs.push(['sort_key', filters.sortKey]);
  if (filters.sortOrder !== undefined) pairs.push(['sort_order', filters.sortOrder]);
  return pairs;
}

// ---------------------------------------------------------------------------------------------
// Paths

const orgPath = (organizationId: string): string => `/organizations/${uuidParam('organization_id', organizationId)}`;
const walletPath = (organizationId: string, walletId: string): string => `${orgPath(organizationId)}/wallets/${uuidParam('wallet_id', walletId)}`;
const environmentPath = (organizationId: string, environmentId: string): string =>
  `${orgPath(organizationId)}/environments/${uuidParam('environment_id', environmentId)}`;

// ---------------------------------------------------------------------------------------------
// Endpoints

/** 2. List wallets: a BARE array (no envelope). Inactive wallets included by default: the books need them. */
export async function listWallets(api: ApiReader, params: { organizationId: string; environmentId?: string; inactive?: boolean }): Promise<WireWallet[]> {
  const query: Array<[string, string]> = [];
  if (params.environmentId !== undefined) query.push(['environment_id', uuidParam('environment_id', params.environmentId)]);
  query.push(['inactive', String(params.inactive ?? true)]);
  const path = `${orgPath(params.organizationId)}/wallets`;
  const body = await api.get(path, { query });
  if (!Array.isArray(body) || !body.every(isRecord)) throw new ApiProtocolError('api_malformed_response', `GET ${path}: expected an array of wallets`, { path });
  return body as unknown as WireWallet[];
}

/** 4. Get wallet. */
export async function getWallet(api: ApiReader, organizationId: string, walletId: string): Promise<WireWallet> {
  return expectObject<WireWallet>(api, walletPath(organizationId, walletId));
}

/**
 * 8. A wallet's policies (`WalletPolicies`), or null when it has none: the service answers 404
 * `wallet_policies_not_found` for such a wallet (docs/simulator.md), which is a fact, not a failure.
 */
export async function getWalletPolicies(api: ApiReader, organizationId: string, walletId: string): Promise<Record<string, unknown> | null> {
  try {
    return await expectObject<Record<string, unknown>>(api, `${walletPath(organizationId, walletId)}/policies`);
  } catch (error) {
    if (error instanceof ApiError && error.status === 404) return null;
    throw error;
  }
}

/** 1. Supported assets. */
export async function listAssets(api: ApiReader, organizationId: string, params: { network?: WireNetwork } = {}): Promise<WireSupportedAssets> {
  const path = `${orgPath(organizationId)}/assets`;
  const body = await api.get(path, { query: params.network === undefined ? [] : [['network', params.network]] });
  if (!isRecord(body) || !Array.isArray(body.assets)) throw new ApiProtocolError('api_malformed_response', `GET ${path}: expected {assets: [...]}`, { path });
  return body as unknown as WireSupportedAssets;
}

/** Default payments order: the service's own completeness advice (docs/service-facts.md#lists-and-pagination). */
export const DEFAULT_PAYMENT_SORT = { sortKey: 'created_at', sortOrder: 'DESC' } as const satisfies Pick<PaymentFilters, 'sortKey' | 'sortOrder'>;

export interface PaymentPagesParams {
  organizationId: string;
  environmentId: string;
  /** repeated unchanged on every follow; sort defaults to created_at DESC */
  filters?: PaymentFilters;
  /** page size, or the run's negotiated size of this list (api/page-size.ts); the service's default is 100 */
  limit?: number | PageSize;
  /** resume after a saved page */
  start?: SweepPosition;
  guards?: Partial<PageGuards>;
}

/**
 * 10. List payments as pages: `pagination=cursor`, the same filters and sort on every follow;
 * offset mode only when the server sends no cursor field at all (paginate.ts `sweepPages`).
 */
export function paymentPages(api: ApiReader, params: PaymentPagesParams): AsyncGenerator<Page<WirePayment, SweepPosition>> {
  const path = `${environmentPath(params.organizationId, params.environmentId)}/payments`;
  const sizes = pageSizeOf(params.limit);
  const filters = paymentFilterQuery({ ...DEFAULT_PAYMENT_SORT, ...params.filters });
  const label = `GET ${path}`;
  const fetchPage = (request: SweepRequest) =>
    negotiatedRequest(sizes, async (asked) => {
      const limit = limitParam(asked);
      const paging: Array<[string, string]> =
        request.mode === 'cursor'
          ? [['pagination', 'cursor'], ['limit', limit], ...(request.cursor === null ? [] : [['cursor', request.cursor] as [string, string]])]
          : [['offset', String(request.offset)], ['limit', limit]];
      const page = readListPage(await api.get(path, { query: [...filters, ...paging] }), label);
      return { ...page, items: page.items as unknown as WirePayment[] };
    });
  return sweepPages(fetchPage, { limit: sizes.largest, label, ...(params.start ? { start: params.start } : {}), ...(params.guards ? { guards: params.guards } : {}) });
}

/**
 * 16. Get payment. `justCreated`: the job learned of this payment moments ago (a webhook, its own
 * create), so a 404 means "still processing" and is retried briefly (docs/service-facts.md#endpoints).
 */
export async function getPayment(
  api: ApiReader,
  params: { organizationId: string; environmentId: string; paymentId: string; justCreated?: boolean },
): Promise<WirePayment> {
  const path = `${environmentPath(params.organizationId, params.environmentId)}/payments/${uuidParam('payment_id', params.paymentId)}`;
  return expectObject<WirePayment>(api, path, { retry: { notFoundIsProcessing: params.justCreated === true } });
}

/** Default ledger order: effective time ascending, so new events append at the end of the offset range. */
export const DEFAULT_LEDGER_SORT = { sortKey: 'effective_time', sortOrder: 'ASC' } as const satisfies Pick<LedgerFilters, 'sortKey' | 'sortOrder'>;

export interface LedgerPagesParams {
  organizationId: string;
  walletId: string;
  filters?: LedgerFilters;
  /** page size, or the run's negotiated size of this list (api/page-size.ts) */
  limit?: number | PageSize;
  /** resume: the offset saved with an earlier page */
  start?: number;
  guards?: Partial<PageGuards>;
}

/** 7. Wallet ledger as offset pages over a stable sort; stops at offset ≥ total (or a short page). */
export function ledgerPages(api: ApiReader, params: LedgerPagesParams): AsyncGenerator<Page<WireLedgerEvent, number>> {
  const path = `${walletPath(params.organizationId, params.walletId)}/ledger`;
  const sizes = pageSizeOf(params.limit);
  const filters = ledgerFilterQuery({ ...DEFAULT_LEDGER_SORT, ...params.filters });
  const label = `GET ${path}`;
  const fetchPage = (offset: number) =>
    negotiatedRequest(sizes, async (asked) => {
      const page = readListPage(await api.get(path, { query: [...filters, ['offset', String(offset)], ['limit', limitParam(asked)]] }), label);
      return { ...page, items: page.items as unknown as WireLedgerEvent[] };
    });
  return offsetPages(fetchPage, { limit: sizes.largest, label, ...(params.start !== undefined ? { start: params.start } : {}), ...(params.guards ? { guards: params.guards } : {}) });
}

/** 14. Environment payment summary (counts, not money). */
export async function environmentSummary(
  api: ApiReader,
  params: { organizationId: string; environmentId: string; filters?: SummaryFilters & { lineOfCreditId?: string } },
): Promise<WireEnvironmentSummary> {
  const path = `${environmentPath(params.organizationId, params.environmentId)}/payments/summary`;
  return expectObject<WireEnvironmentSummary>(api, path, { query: summaryFilterQuery(params.filters ?? {}) });
}

/** 15. Wallet payment summary. */
export async function walletSummary(api: ApiReader, params: { organizationId: string; walletId: string; filters?: SummaryFilters }): Promise<WireWalletSummary> {
  const path = `${walletPath(params.organizationId, params.walletId)}/payments/summary`;
  return expectObject<WireWalletSummary>(api, path, { query: summaryFilterQuery(params.filters ?? {}) });
}

/** 8. Wallet policies. */
export async function walletPolicies(api: ApiReader, organizationId: string, walletId: string): Promise<WireWalletPolicies> {
  return expectObject<WireWalletPolicies>(api, `${walletPath(organizationId, walletId)}/policies`);
}

export interface BillPagesParams {
  organizationId: string;
  /** one line of credit's bills (the list is not filterable by time: the caller keeps the periods it needs) */
  lineOfCreditId: string;
  /** page size; the service's default is 25, capped at 500 */
  limit?: number;
  /** resume: a `next_cursor` saved with an earlier page */
  start?: string;
  guards?: Partial<PageGuards>;
}

/** Billing: GET /organizations/{org}/bills as cursor pages, oldest first, the same query on every follow. */
export function billPages(api: ApiReader, params: BillPagesParams): AsyncGenerator<Page<WireBill, string>> {
  const path = `${orgPath(params.organizationId)}/bills`;
  const limit = limitParam(params.limit ?? 100);
  const filters: Array<[string, string]> = [
    ['line_of_credit_id', uuidParam('line_of_credit_id', params.lineOfCreditId)],
    ['sort_key', 'created_at'],
    ['sort_order', 'ASC'],
    ['limit', limit],
  ];
  const label = `GET ${path}`;
  const fetchPage = async (cursor: string | null) => {
    const page = readListPage(await api.get(path, { query: [...filters, ...(cursor === null ? [] : [['cursor', cursor] as [string, string]])] }), label);
    return { ...page, items: page.items as unknown as WireBill[] };
  };
  return cursorPages(fetchPage, { label, ...(params.start !== undefined ? { start: params.start } : {}), ...(params.guards ? { guards: params.guards } : {}) });
}

/** Billing: GET /organizations/{org}/bills/summary for one line of credit. */
export async function billSummary(api: ApiReader, params: { organizationId: string; lineOfCreditId: string }): Promise<WireBillSummary> {
  const path = `${orgPath(params.organizationId)}/bills/summary`;
  return expectObject<WireBillSummary>(api, path, { query: [['line_of_credit_id', uuidParam('line_of_credit_id', params.lineOfCreditId)]] });
}

// ---------------------------------------------------------------------------------------------
// Natural keys for de-duplication within a sweep (paginate.ts SweepDeduper)

export const paymentKey = (payment: WirePayment): string => String(payment.id);
export const billKey = (bill: WireBill): string => String(bill.id);

/** A hold id is shared by held, captured and released: the event type is part of the key. */
export function ledgerEventKey(event: WireLedgerEvent): string {
  const raw = event as unknown as Record<string, unknown>;
  const id = raw.credit_id ?? raw.hold_id ?? raw.deposit_id ?? raw.withdraw_id ?? raw.id;
  return `${String(raw.type)}:${String(id)}`;
}

async function expectObject<T>(api: ApiReader, path: string, options?: GetOptions): Promise<T> {
  const body = await api.get(path, options);
  if (!isRecord(body)) throw new ApiProtocolError('api_malformed_response', `GET ${path}: expected a JSON object`, { path });
  return body as unknown as T;
}

function isRecord(value: unknown): value is Record<string, LosslessJson> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
