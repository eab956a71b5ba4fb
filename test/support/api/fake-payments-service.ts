/**
 * A tiny stand-in for the payments service's list endpoints (the real simulator lives in src/sim/):
 * cursor pages whose cursor encodes the offset AND a fingerprint of the filters (a follow with
 * other filters gets 400 invalid_cursor, as the service documents), offset pages with a total,
 * and scripted faults per request number.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { sendError, sendJson, type Handler, type RecordedRequest } from './fake-api-server.js';

export type Fault = 'reset' | 'truncate' | '503' | '429' | 'hang-up-before-headers';

export interface FakeListOptions {
  items: ReadonlyArray<Record<string, unknown>>;
  /** false: a server that ignores pagination=cursor and never sends a next_cursor field */
  cursorMode?: boolean;
  /** fault to inject on the n-th request (1-based) */
  fault?: (n: number, request: RecordedRequest) => Fault | undefined;
  /** extra items appended to the page served for this offset (duplicates on purpose) */
  extraAt?: (offset: number) => ReadonlyArray<Record<string, unknown>>;
}

const PAGING_KEYS = new Set(['cursor', 'pagination', 'offset', 'limit']);

function fingerprint(query: URLSearchParams): string {
  return [...query.entries()]
    .filter(([key]) => !PAGING_KEYS.has(key))
    .map(([k, v]) => `${k}=${v}`)
    .join('&');
}

export function listHandler(options: FakeListOptions): Handler {
  return (req, res, { n, request }) => {
    const fault = options.fault?.(n, request);
    if (fault !== undefined && applyFault(fault, req, res)) return;
    const query = request.query;
    const limit = Number(query.get('limit') ?? 100);
    const cursorMode = (options.cursorMode ?? true) && (query.get('pagination') === 'cursor' || query.has('cursor'));
    let offset = Number(query.get('offset') ?? 0);
    if (cursorMode && query.has('cursor')) {
      const [tag, at, print] = Buffer.from(query.get('cursor') ?? '', 'base64url').toString().split('|');
      if (tag !== 'c' || print !== fingerprint(query)) {
        return sendError(res, 400, 'invalid_cursor', 'cursor does not match the query', { context: { field: 'cursor', recovery: 'restart without cursor' } });
      }
      offset = Number(at);
    }
    const page = [...options.items.slice(offset, offset + limit), ...(options.extraAt?.(offset) ?? [])];
    const end = offset + Math.min(limit, options.items.length - offset);
    const body: Record<string, unknown> = { items: page, offset: cursorMode ? 0 : offset, limit };
    if (cursorMode) {
      const more = end < options.items.length;
      body.next_cursor = more ? Buffer.from(`c|${end}|${fingerprint(query)}`).toString('base64url') : null;
      body.has_more = more;
    } else {
      body.total = options.items.length;
    }
    sendJson(res, 200, body);
  };
}

/** Returns true when the fault answered the request. */
function applyFault(fault: Fault, _req: IncomingMessage, res: ServerResponse): boolean {
  switch (fault) {
    case '503':
      sendError(res, 503, 'read_temporarily_unavailable');
      return true;
    case '429':
      sendError(res, 429, 'rate_limited', 'slow down', {}, { 'retry-after': '1' });
      return true;
    case 'reset':
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': 10_000 });
      res.write('{"items":[{"id":');
      setTimeout(() => res.socket?.destroy(), 5);
      return true;
    case 'truncate':
      sendJson(res, 200, '{"items":[{"id":"x"}],"next_cur');
      return true;
    case 'hang-up-before-headers':
      res.socket?.destroy();
      return true;
  }
}
