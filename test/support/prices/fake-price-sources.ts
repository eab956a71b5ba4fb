/**
 * The four price sources on one local server (127.0.0.1:0), each under its own prefix and each
 * answering as its documentation says (the shapes of ./fixtures/*.ts): Coinbase under /coinbase,
 * Kraken under /kraken, Bitstamp under /bitstamp, CoinGecko under /coingecko. Prices come from
 * price-series.ts. A test scripts misbehaviour per source: the next answers (429 with or without
 * Retry-After, 5xx, gone, another currency, an empty range, a hang) and buckets never served (gaps).
 */
import type { ServerResponse } from 'node:http';
import { onTestFinished } from 'vitest';
import { sendJson, startFakeApi, type FakeApiServer, type RecordedRequest } from '../api/fake-api-server.js';
import { closeText } from './price-series.js';
import { COINBASE_NOT_FOUND, COINBASE_PRODUCT_BTC_EUR, COINBASE_PRODUCT_BTC_USD, COINBASE_RATE_LIMITED, COINBASE_TOO_MANY_CANDLES } from './fixtures/coinbase.js';
import { KRAKEN_RATE_LIMITED, KRAKEN_UNAVAILABLE, KRAKEN_UNKNOWN_PAIR } from './fixtures/kraken.js';
import { BITSTAMP_BAD_LIMIT, BITSTAMP_NOT_FOUND, BITSTAMP_RATE_LIMITED } from './fixtures/bitstamp.js';
import { COINGECKO_COIN_NOT_FOUND, COINGECKO_HISTORY_LIMIT, COINGECKO_INVALID_VS_CURRENCY, COINGECKO_RATE_LIMITED } from './fixtures/coingecko.js';

export type FakeSourceName = 'coinbase' | 'kraken' | 'bitstamp' | 'coingecko';
/** `ok` answers normally (to script the Nth answer) */
export type Misbehaviour = 'ok' | 'rate_limited' | 'rate_limited_retry_after' | 'server_error' | 'gone' | 'wrong_currency' | 'empty' | 'hang';

export interface FakePriceSources {
  server: FakeApiServer;
  baseUrl(source: FakeSourceName): string;
  /** the next answers of a source, then normal ones */
  script(source: FakeSourceName, ...next: Misbehaviour[]): void;
  /** bucket starts a source has no data for */
  withhold(source: FakeSourceName, starts: Iterable<number>): void;
  requests(source: FakeSourceName): RecordedRequest[];
  close(): Promise<void>;
}

export interface FakePriceOptions {
  /** the sources' clock (Unix seconds): unfinished buckets and history limits follow it */
  nowSec: () => number;
}

export async function startFakePriceSources(options: FakePriceOptions): Promise<FakePriceSources> {
  const scripts = new Map<FakeSourceName, Misbehaviour[]>();
  const withheld = new Map<FakeSourceName, Set<number>>();
  const hanging: ServerResponse[] = [];
  const server = await startFakeApi((_req, res, { request }) => {
    const source = request.path.split('/')[1] as FakeSourceName;
    // an empty range is an answer about candles: Coinbase's product check does not take it
    const productCheck = source === 'coinbase' && !request.path.endsWith('/candles');
    const next = productCheck && scripts.get(source)?.[0] === 'empty' ? undefined : scripts.get(source)?.shift();
    if (next === 'hang') {
      hanging.push(res);
      return;
    }
    const gaps = withheld.get(source) ?? new Set<number>();
    const ctx = { request, res, next, gaps, nowSec: options.nowSec() };
    if (source === 'coinbase') return coinbase(ctx);
    if (source === 'kraken') return kraken(ctx);
    if (source === 'bitstamp') return bitstamp(ctx);
    if (source === 'coingecko') return coingecko(ctx);
    sendJson(res, 404, { message: 'no such fake source' });
  });
  return {
    server,
    baseUrl: (source) => `${server.origin}/${source}${source === 'coingecko' ? '/api/v3' : ''}`,
    script: (source, ...next) => scripts.set(source, [...(scripts.get(source) ?? []), ...next]),
    withhold: (source, starts) => withheld.set(source, new Set([...(withheld.get(source) ?? []), ...starts])),
    requests: (source) => server.requests.filter((r) => r.path.startsWith(`/${source}/`)),
    close: async () => {
      for (const res of hanging) res.destroy();
      await server.close();
    },
  };
}

/** The fake sources for the running test, closed when it finishes. */
export async function serveFakePriceSources(options: FakePriceOptions): Promise<FakePriceSources> {
  const sources = await startFakePriceSources(options);
  onTestFinished(() => sources.close());
  return sources;
}

interface Ctx {
  request: RecordedRequest;
  res: ServerResponse;
  next: Misbehaviour | undefined;
  gaps: Set<number>;
  nowSec: number;
}

function common(ctx: Ctx, rateLimited: unknown, gone: unknown, retryAfterSeconds = '1'): boolean {
  if (ctx.next === 'rate_limited') sendJson(ctx.res, 429, rateLimited);
  else if (ctx.next === 'rate_limited_retry_after') sendJson(ctx.res, 429, rateLimited, { 'retry-after': retryAfterSeconds });
  else if (ctx.next === 'server_error') sendJson(ctx.res, 503, { message: 'service unavailable' });
  else if (ctx.next === 'gone') sendJson(ctx.res, 404, gone);
  else return false;
  return true;
}

/** Finished buckets in [first, last] the source has (not withheld). */
function buckets(ctx: Ctx, first: number, last: number, length: number): number[] {
  const out: number[] = [];
  for (let s = Math.ceil(first / length) * length; s <= last; s += length) if (s + length <= ctx.nowSec && !ctx.gaps.has(s)) out.push(s);
  return out;
}

function coinbase(ctx: Ctx): void {
  const parts = ctx.request.path.split('/');
  const product = parts[3] ?? '';
  if (common(ctx, ctx.request.path.endsWith('/candles') ? { message: COINBASE_RATE_LIMITED.message } : COINBASE_RATE_LIMITED, COINBASE_NOT_FOUND)) return;
  if (parts[4] !== 'candles') {
    if (product !== 'BTC-USD') return sendJson(ctx.res, 404, COINBASE_NOT_FOUND);
    return sendJson(ctx.res, 200, ctx.next === 'wrong_currency' ? COINBASE_PRODUCT_BTC_EUR : COINBASE_PRODUCT_BTC_USD);
  }
  const granularity = Number(ctx.request.query.get('granularity'));
  const start = Date.parse(ctx.request.query.get('start') ?? '') / 1000;
  const end = Date.parse(ctx.request.query.get('end') ?? '') / 1000;
  if (![60, 300, 900, 3600, 21600, 86400].includes(granularity)) return sendJson(ctx.res, 400, { message: 'Unsupported granularity' });
  if ((end - start) / granularity + 1 > 300) return sendJson(ctx.res, 400, COINBASE_TOO_MANY_CANDLES);
  if (ctx.next === 'empty') return sendJson(ctx.res, 200, []);
  // newest first; numbers; [time, low, high, open, close, volume]
  const rows = buckets(ctx, start, end, granularity).reverse().map((s) => {
    const close = Number(closeText('coinbase', s, granularity));
    return [s, close - 50, close + 50, close - 10, close, 12.5];
  });
  sendJson(ctx.res, 200, rows);
}

function kraken(ctx: Ctx): void {
  // Kraken answers errors with HTTP 200 and an `error` list
  if (ctx.next === 'rate_limited' || ctx.next === 'rate_limited_retry_after') return sendJson(ctx.res, 200, KRAKEN_RATE_LIMITED);
  if (ctx.next === 'server_error') return sendJson(ctx.res, 200, KRAKEN_UNAVAILABLE);
  const pair = ctx.request.query.get('pair');
  if (ctx.next === 'gone' || pair !== 'XBTUSD') return sendJson(ctx.res, 200, KRAKEN_UNKNOWN_PAIR);
  const length = Number(ctx.request.query.get('interval')) * 60;
  const since = Number(ctx.request.query.get('since') ?? 0);
  const current = Math.floor(ctx.nowSec / length) * length;
  const oldest = current - 719 * length;
  const key = ctx.next === 'wrong_currency' ? 'XXBTZEUR' : 'XXBTZUSD';
  const finished = ctx.next === 'empty' ? [] : buckets(ctx, Math.max(since + 1, oldest), current - length, length);
  const rows = [...finished, current].map((s) => {
    const close = closeText('kraken', s, length);
    return [s, close, close, close, close, close, '1.00000000', 10];
  });
  sendJson(ctx.res, 200, { error: [], result: { [key]: rows, last: finished[finished.length - 1] ?? since } });
}

function bitstamp(ctx: Ctx): void {
  if (common(ctx, BITSTAMP_RATE_LIMITED, BITSTAMP_NOT_FOUND)) return;
  const pair = ctx.request.path.split('/')[5];
  if (pair !== 'btcusd') return sendJson(ctx.res, 404, BITSTAMP_NOT_FOUND);
  const step = Number(ctx.request.query.get('step'));
  const limit = Number(ctx.request.query.get('limit'));
  const end = Number(ctx.request.query.get('end'));
  if (!(limit >= 1 && limit <= 1000)) return sendJson(ctx.res, 400, BITSTAMP_BAD_LIMIT);
  const rows = ctx.next === 'empty' ? [] : buckets(ctx, end - (limit - 1) * step, end, step).map((s) => {
    const close = closeText('bitstamp', s, step);
    return { timestamp: String(s), open: close, high: close, low: close, close, volume: '1.00000000' };
  });
  sendJson(ctx.res, 200, { data: { pair: ctx.next === 'wrong_currency' ? 'BTC/EUR' : 'BTC/USD', ohlc: rows } });
}

function coingecko(ctx: Ctx): void {
  if (common(ctx, COINGECKO_RATE_LIMITED, COINGECKO_COIN_NOT_FOUND)) return;
  if (!ctx.request.path.endsWith('/coins/bitcoin/market_chart/range')) return sendJson(ctx.res, 404, COINGECKO_COIN_NOT_FOUND);
  if (ctx.next === 'wrong_currency' || ctx.request.query.get('vs_currency') !== 'usd') return sendJson(ctx.res, 400, COINGECKO_INVALID_VS_CURRENCY);
  const from = Number(ctx.request.query.get('from'));
  const to = Number(ctx.request.query.get('to'));
  const keyed = ctx.request.headers['x-cg-pro-api-key'] !== undefined;
  if (!keyed && from < ctx.nowSec - 365 * 86_400) return sendJson(ctx.res, 401, COINGECKO_HISTORY_LIMIT);
  // automatic granularity: 5-minutely within a day, hourly up to 90 days, daily beyond
  const span = to - from;
  const step = span <= 86_400 ? 300 : span <= 90 * 86_400 ? 3600 : 86_400;
  const points: Array<[number, number]> = [];
  if (ctx.next !== 'empty') {
    for (let t = Math.ceil(from / step) * step; t <= Math.min(to, ctx.nowSec); t += step) {
      // an observation at t prices the bucket that ends at t (gaps are withheld by bucket start)
      const bucketStart = t - step;
      if (ctx.gaps.has(bucketStart) || ctx.gaps.has(Math.floor((t - 1) / 86_400) * 86_400)) continue;
      points.push([t * 1000, Number(closeText('coingecko', bucketStart, step))]);
    }
  }
  sendJson(ctx.res, 200, { prices: points, market_caps: points.map(([t, p]) => [t, p * 19_000_000]), total_volumes: points.map(([t]) => [t, 3.1e10]) });
}
