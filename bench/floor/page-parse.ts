/**
 * The JSON floor of issue 41: JSON.parse of the page bodies the pull reads, timed alone. The same
 * endpoints as the export (each wallet's payments in the window, cursor pages, and its ledger,
 * offset pages) at the page the export negotiates (500, the simulator's cap), one request at a
 * time against a fresh simulator child with the bench's seed; only the parse is timed, never the
 * network, so the figure is what the bare parser needs for the bytes the job receives.
 */
import { WINDOW } from '../e2e/export-run.js';
import { startSimChild, stopChild } from '../e2e/sim-child.js';

type Json = Record<string, unknown>;

export interface PageParseFloor {
  pages: number;
  items: number;
  bytes: number;
  /** CPU seconds (user + system of this thread's process while parsing) of JSON.parse over every body */
  seconds: number;
}

const PAGE = 500;

export async function measurePageParse(options: { payments: number; wallets: number; seed: number }): Promise<PageParseFloor> {
  const { child, info } = await startSimChild({ ...options, latencyMs: 0 });
  const floor: PageParseFloor = { pages: 0, items: 0, bytes: 0, seconds: 0 };
  let micros = 0;
  const get = async (pathAndQuery: string): Promise<Json> => {
    const response = await fetch(`${info.baseUrl}${pathAndQuery}`, { headers: { authorization: `Bearer ${info.bearerToken}`, accept: 'application/json' } });
    if (!response.ok) throw new Error(`GET ${pathAndQuery.split('?')[0]} → ${response.status}`);
    const body = await response.text();
    // CPU, not wall: the parse is synchronous on this thread, so the process's CPU delta is the parse's
    const before = process.cpuUsage();
    const page = JSON.parse(body) as Json;
    const spent = process.cpuUsage(before);
    micros += spent.user + spent.system;
    floor.pages++;
    floor.bytes += Buffer.byteLength(body);
    if (Array.isArray(page.items)) floor.items += page.items.length;
    return page;
  };
  try {
    const org = info.organizationId;
    const auth = { headers: { authorization: `Bearer ${info.bearerToken}` } };
    const wallets = (await (await fetch(`${info.baseUrl}/organizations/${org}/wallets?inactive=true`, auth)).json()) as Json[];
    const window = `start_date=${encodeURIComponent(`${WINDOW.from}T00:00:00Z`)}&end_date=${encodeURIComponent(`${WINDOW.to}T23:59:59.999999Z`)}`;
    for (const wallet of wallets) {
      const id = wallet.id as string;
      const list = `/organizations/${org}/environments/${wallet.environment_id as string}/payments?wallet_id=${id}&${window}&limit=${PAGE}`;
      let page = await get(`${list}&pagination=cursor`);
      while (page.has_more === true && typeof page.next_cursor === 'string') page = await get(`${list}&cursor=${encodeURIComponent(page.next_cursor)}`);
      for (let offset = 0; ; ) {
        const entries = await get(`/organizations/${org}/wallets/${id}/ledger?sort_key=effective_time&sort_order=ASC&offset=${offset}&limit=${PAGE}`);
        const items = entries.items as Json[];
        offset += items.length;
        if (items.length === 0 || offset >= (entries.total as number)) break;
      }
    }
  } finally {
    await stopChild(child);
  }
  floor.seconds = micros / 1e6;
  return floor;
}
