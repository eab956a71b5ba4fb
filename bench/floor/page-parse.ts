/**
 * The JSON floor of issue 41: JSON.parse of the page bodies the pull reads, timed alone. The same
 * endpoints as the export (each wallet's payments in the window, cursor pages, and its ledger,
 * offset pages) at the page the export negotiates (500, the simulator's cap), one request at a
 * time against a fresh simulator child with the bench's seed; only the parse is timed, never the
 * network, so the figure is what the bare parser needs for the bytes the job receives.
 */
import { startSimChild, stopChild } from '../e2e/sim-child.js';
import { walkExportPages, type Json } from './page-walk.js';

export interface PageParseFloor {
  pages: number;
  items: number;
  bytes: number;
  /** CPU seconds (user + system of this thread's process while parsing) of JSON.parse over every body */
  seconds: number;
}

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
    await walkExportPages(info, get);
  } finally {
    await stopChild(child);
  }
  floor.seconds = micros / 1e6;
  return floor;
}
