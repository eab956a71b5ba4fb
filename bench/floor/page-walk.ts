/**
 * The pages the export reads, requested one at a time against a simulator child: each wallet's
 * payments in the bench's window (cursor pages) and its ledger (offset pages), at the page the
 * export negotiates (500, the simulator's cap). The floors that stand for the pull's work
 * (page-parse.ts, required-work.ts) walk these pages; `get` fetches one and returns it parsed.
 */
import { WINDOW } from '../e2e/export-run.js';
import type { SimInfo } from '../e2e/sim-child.js';

export type Json = Record<string, unknown>;

export const PAGE = 500;

export async function walkExportPages(info: SimInfo, get: (pathAndQuery: string) => Promise<Json>): Promise<void> {
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
}
