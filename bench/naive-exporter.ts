/**
 * The naive exporter of issue 29, target 4: what a first script against the payments service
 * looks like, kept so that anyone can rerun the comparison (`bench/naive.ts`). It reads the same
 * endpoints as payexport — the wallets (inactive included), each wallet's policies and payment
 * summary, the environments' summaries, each wallet's payments (cursor pages, window filters) and
 * ledger (offset pages) — one request at a time, at the service's default page size, keeps every
 * JSON item in memory, then writes payments.csv and ledger.csv with csv-stringify's synchronous
 * API and report.xlsx with exceljs's in-memory Workbook. No snapshot, no checkpoints, no retries.
 *
 *   node --import tsx bench/naive-exporter.ts --base-url URL --organization ID --from 2026-09-01 --to 2026-11-21 --out DIR
 *
 * The bearer token comes from PAYEXPORT_BEARER_TOKEN, as for payexport.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { stringify } from 'csv-stringify/sync';
import ExcelJS from 'exceljs';

type Json = Record<string, unknown>;

const { values } = parseArgs({
  options: {
    'base-url': { type: 'string' },
    organization: { type: 'string' },
    from: { type: 'string' },
    to: { type: 'string' },
    out: { type: 'string' },
  },
});
const baseUrl = values['base-url'] as string;
const org = values.organization as string;
const out = values.out as string;
const startDate = `${values.from as string}T00:00:00Z`;
// the last day inclusive, as payexport's --to
const endDate = `${values.to as string}T23:59:59.999999Z`;
const token = process.env.PAYEXPORT_BEARER_TOKEN ?? '';
let requests = 0;

/** One request; `missing` is what a 404 means (a wallet without policies answers 404). */
async function get(pathAndQuery: string, missing?: unknown): Promise<unknown> {
  requests++;
  const response = await fetch(`${baseUrl}${pathAndQuery}`, { headers: { authorization: `Bearer ${token}`, accept: 'application/json' } });
  if (response.status === 404 && missing !== undefined) {
    await response.arrayBuffer();
    return missing;
  }
  if (!response.ok) throw new Error(`GET ${pathAndQuery.split('?')[0]} → ${response.status}`);
  return response.json();
}

const window = `start_date=${encodeURIComponent(startDate)}&end_date=${encodeURIComponent(endDate)}`;
const wallets = (await get(`/organizations/${org}/wallets?inactive=true`)) as Json[];
const environments = [...new Set(wallets.map((w) => w.environment_id as string))];
const payments: Json[] = [];
const ledger: Json[] = [];
const summaries: Json[] = [];
for (const env of environments) summaries.push((await get(`/organizations/${org}/environments/${env}/payments/summary?include_inactive=true&${window}`)) as Json);
for (const wallet of wallets) {
  const id = wallet.id as string;
  wallet.policies = await get(`/organizations/${org}/wallets/${id}/policies`, null);
  summaries.push((await get(`/organizations/${org}/wallets/${id}/payments/summary?include_inactive=true&${window}`)) as Json);
  const list = `/organizations/${org}/environments/${wallet.environment_id as string}/payments?wallet_id=${id}&${window}&sort_key=created_at&sort_order=DESC`;
  let page = (await get(`${list}&pagination=cursor`)) as Json;
  payments.push(...(page.items as Json[]));
  while (page.has_more === true && typeof page.next_cursor === 'string') {
    page = (await get(`${list}&cursor=${encodeURIComponent(page.next_cursor)}`)) as Json;
    payments.push(...(page.items as Json[]));
  }
  for (let offset = 0; ; ) {
    const entries = (await get(`/organizations/${org}/wallets/${id}/ledger?sort_key=effective_time&sort_order=ASC&offset=${offset}`)) as Json;
    const items = entries.items as Json[];
    ledger.push(...items);
    offset += items.length;
    if (items.length === 0 || offset >= (entries.total as number)) break;
  }
}

// Flat rows: every scalar field, nested objects as JSON text (what a quick script does).
const flat = (item: Json): Record<string, string> => Object.fromEntries(Object.entries(item).map(([k, v]) => [k, v !== null && typeof v === 'object' ? JSON.stringify(v) : String(v ?? '')]));
const columns = (rows: Json[]): string[] => [...new Set(rows.flatMap((r) => Object.keys(r)))];
const paymentRows = payments.map(flat);
const ledgerRows = ledger.map(flat);
mkdirSync(out, { recursive: true });
writeFileSync(path.join(out, 'payments.csv'), stringify(paymentRows, { header: true, columns: columns(paymentRows) }));
writeFileSync(path.join(out, 'ledger.csv'), stringify(ledgerRows, { header: true, columns: columns(ledgerRows) }));
writeFileSync(path.join(out, 'summaries.csv'), stringify(summaries.map(flat), { header: true, columns: columns(summaries.map(flat)) }));

const workbook = new ExcelJS.Workbook();
for (const [name, rows] of [
  ['Payments', paymentRows],
  ['Ledger', ledgerRows],
  ['Wallets', wallets.map(flat)],
] as const) {
  const sheet = workbook.addWorksheet(name);
  const keys = columns(rows);
  sheet.columns = keys.map((key) => ({ header: key, key }));
  for (const row of rows) sheet.addRow(row);
}
await workbook.xlsx.writeFile(path.join(out, 'report.xlsx'));
process.stdout.write(`${JSON.stringify({ requests, payments: payments.length, ledger: ledger.length, wallets: wallets.length })}\n`);
