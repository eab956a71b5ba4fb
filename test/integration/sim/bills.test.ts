import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CAT_STANDARD, DIR_SEND } from '../../../src/sim/dataset/codes.js';
import { startSimulator, type SimHandle } from '../../../src/sim/start-simulator.js';
import { OpenApiValidator } from '../../support/sim/openapi.js';
import { call, orgPath, type Json } from '../../support/sim/sim-client.js';

/**
 * The simulator's bills (OpenAPI tag Billing): they validate against the document, page by cursor,
 * respect an environment-scoped key, and every clean line item equals the completed payments its
 * wallet created in [start_time, end_time) — summed here from the dataset's own payment cores, not
 * from the wire. The planted bill anomalies are the only departures.
 */

let sim: SimHandle;
let dirty: SimHandle;
let validator: OpenApiValidator;

beforeAll(async () => {
  validator = new OpenApiValidator();
  sim = await startSimulator({ seed: 5, scale: 1_500, wallets: 12, from: '2026-09-01', to: '2026-11-01' });
  dirty = await startSimulator({ seed: 5, scale: 1_500, wallets: 12, from: '2026-09-01', to: '2026-11-01', anomalies: ['bill_processing_fee_overbilled', 'bill_missing_line_item', 'bill_count_off_by_one'] });
});

afterAll(async () => {
  await sim.close();
  await dirty.close();
});

async function allBills(s: SimHandle, key: string | null = s.environments[0]?.apiKey ?? null, limit = 3): Promise<Json[]> {
  const out: Json[] = [];
  let cursor: string | null = null;
  for (let guard = 0; guard < 1_000; guard++) {
    const reply = await call(s, `${orgPath(s)}/bills`, { key, query: { limit, sort_order: 'ASC', ...(cursor ? { cursor } : {}) } });
    expect(reply.status).toBe(200);
    const errors = validator.validateResponse('GET', `${orgPath(s)}/bills`, 200, JSON.parse(reply.text)).errors;
    expect(errors).toBeNull();
    out.push(...(reply.json['items'] as Json[]));
    cursor = reply.json['next_cursor'] as string | null;
    if (!reply.json['has_more']) break;
  }
  return out;
}

interface Figures {
  sent: bigint;
  received: bigint;
  sentCount: number;
  receivedCount: number;
  feeSend: bigint;
  feeReceive: bigint;
  standardSendCount: number;
}

function truth(s: SimHandle, walletId: string, start: string, end: string): Figures {
  const ds = s.dataset;
  const f: Figures = { sent: 0n, received: 0n, sentCount: 0, receivedCount: 0, feeSend: 0n, feeReceive: 0n, standardSendCount: 0 };
  for (const id of ds.iteratePaymentIds({ walletId, from: start, statuses: ['completed'] })) {
    const core = ds.paymentCore(ds.store.handleOf(id) as number);
    if (core.createdUs >= Date.parse(end) * 1000) continue;
    if (core.direction === DIR_SEND) {
      f.sent += core.captureAmount;
      f.sentCount += 1;
      f.feeSend += core.feeSettled ?? 0n;
      if (core.category === CAT_STANDARD) f.standardSendCount += 1;
    } else {
      f.received += core.creditAmount;
      f.receivedCount += 1;
      f.feeReceive += core.feeSettled ?? 0n;
    }
  }
  return f;
}

const big = (a: Json): bigint => BigInt(a['amount'] as number | bigint);

describe('simulated bills', () => {
  it('page by cursor, validate against the OpenAPI document, and cover monthly and weekly periods in btc and usd', async () => {
    const bills = await allBills(sim);
    const other = await allBills(sim, sim.environments[1]?.apiKey ?? null);
    expect(bills.length).toBeGreaterThan(8);
    for (const b of other) bills.push(b);
    expect(new Set(bills.map((b) => b['id'])).size).toBe(bills.length);
    expect(new Set(bills.map((b) => b['period_length']))).toEqual(new Set(['monthly', 'weekly']));
    expect(new Set(bills.map((b) => b['amt_due']['currency']))).toEqual(new Set(['btc', 'usd']));
    // historical invoices (the dataset's first week) carry no payment_activity; later ones do
    const items = bills.flatMap((b) => b['invoice']['line_items'] as Json[]);
    expect(items.some((i) => i['payment_activity'] === undefined)).toBe(true);
    expect(items.some((i) => i['payment_activity'] !== undefined)).toBe(true);
    // the same list in one page
    const whole = await allBills(sim, sim.environments[0]?.apiKey ?? null, 500);
    expect(whole.map((b) => b['id'])).toEqual(bills.slice(0, whole.length).map((b) => b['id']));
    for (const path of [`${orgPath(sim)}/bills/summary`, `${orgPath(sim)}/bills/${bills[0]?.['id']}`]) {
      const reply = await call(sim, path);
      expect(validator.validateResponse('GET', path, reply.status, JSON.parse(reply.text)).errors).toBeNull();
    }
    const summary = (await call(sim, `${orgPath(sim)}/bills/summary`)).json as Json;
    expect(Number(summary['bill_total_count'])).toBe(whole.length);
  });

  it('an environment-scoped key sees its own lines of credit only', async () => {
    const all = await allBills(sim, sim.environments[0]?.apiKey ?? null, 500);
    const locs = new Set(sim.wallets.filter((w) => w.environmentId === sim.environments[0]?.id && w.lineOfCreditId).map((w) => w.lineOfCreditId));
    expect(all.every((b) => locs.has(b['line_of_credit_id']))).toBe(true);
  });

  it('every line item equals the payments its wallet created in the period', async () => {
    const bills = [...(await allBills(sim, sim.environments[0]?.apiKey ?? null, 500)), ...(await allBills(sim, sim.environments[1]?.apiKey ?? null, 500))];
    let checked = 0;
    for (const bill of bills) {
      for (const item of bill['invoice']['line_items'] as Json[]) {
        const f = truth(sim, item['wallet_id'], bill['start_time'], bill['end_time']);
        expect({ sent: big(item['amount_sent']), received: big(item['amount_received']), sentCount: Number(item['total_transactions_sent']), receivedCount: Number(item['total_transactions_received']), feeSend: big(item['processing_fees']['send']), feeReceive: big(item['processing_fees']['receive']) }).toEqual({
          sent: f.sent,
          received: f.received,
          sentCount: f.sentCount,
          receivedCount: f.receivedCount,
          feeSend: f.feeSend,
          feeReceive: f.feeReceive,
        });
        if (item['payment_activity']) expect(Number(item['payment_activity']['standard']['send']['count'])).toBe(f.standardSendCount);
        checked++;
      }
    }
    expect(checked).toBeGreaterThan(20);
  });

  it('plants the three bill anomalies on bills inside one month, and records them', async () => {
    const planted = dirty.dataset.anomalies;
    expect(planted.map((a) => a.kind).sort()).toEqual(['bill_count_off_by_one', 'bill_missing_line_item', 'bill_processing_fee_overbilled']);
    const bills = [...(await allBills(dirty, dirty.environments[0]?.apiKey ?? null, 500)), ...(await allBills(dirty, dirty.environments[1]?.apiKey ?? null, 500))];
    for (const a of planted) {
      const [billId, walletId] = a.subjectId.split(':') as [string, string];
      const bill = bills.find((b) => b['id'] === billId) as Json;
      expect(bill, a.kind).toBeDefined();
      const item = (bill['invoice']['line_items'] as Json[]).find((i) => i['wallet_id'] === walletId);
      const f = truth(dirty, walletId, bill['start_time'], bill['end_time']);
      if (a.kind === 'bill_missing_line_item') {
        expect(item).toBeUndefined();
        expect(f.sentCount + f.receivedCount).toBeGreaterThan(0);
      } else if (a.kind === 'bill_count_off_by_one') {
        expect(Number(item?.['total_transactions_sent'])).toBe(f.sentCount + 1);
      } else {
        expect(big(item?.['processing_fees']['send'])).toBeGreaterThan(f.feeSend);
      }
    }
  });
});
