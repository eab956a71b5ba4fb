/**
 * A resumed pull reads each wallet's ledger past the window's end again when an earlier attempt
 * had read it to the end (src/extract/streams/ledger-tail.ts): entries that arrived meanwhile reach
 * the snapshot, as the balance read afresh counts them (the bridge, PROC-18) — for a whole ledger
 * and for the open last slice of a split one — while nothing before the window's end is read again.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SimHandle } from '../../../src/sim/index.js';
import { instantFromDate } from '../../../src/model/instant.js';
import { expectedLedgerKeys, OCTOBER, pullHarness, RecordingWriter, startSim } from '../../support/extract/harness.js';
import { makePayments } from '../../support/listen/harness.js';

let sim: SimHandle;

beforeAll(async () => {
  sim = await startSim();
});
afterAll(async () => {
  await sim.close();
});

const ledgerKeysOf = (writer: RecordingWriter, walletId: string): string[] =>
  [...writer.ledger.values()]
    .filter((r) => r.wallet_id === walletId)
    .map((r) => `${r.entry_type}:${r.entry_id}`)
    .sort();

describe('a resumed pull re-reads the ledger past the window end', () => {
  it('brings in entries that arrived after the first attempt, for whole and split ledgers, and nothing before the window end', async () => {
    const writer = new RecordingWriter();
    const first = await pullHarness(sim, { pageSize: 40, writer });
    const now = instantFromDate(new Date());
    try {
      await first.run({ maxChainPages: 3, now });
    } finally {
      await first.close();
    }
    // the first attempt read every ledger to the end; the largest split into time slices
    const ledgerStreams = [...writer.checkpoints.values()].filter((c) => c.stream.startsWith('ledger:wallet:'));
    expect(ledgerStreams.every((c) => c.done)).toBe(true);
    const split = ledgerStreams.filter((c) => c.stream.includes(':slice-'));
    expect(split.length, 'a ledger split into slices').toBeGreaterThan(0);

    // Payments land in two active BTC wallets whose ledgers were split: for the first, the run is
    // made to have died before the split stream was marked done (its slices all done, the open last
    // one included: the slice path); the second is done whole (the whole-ledger path).
    const btc = sim.dataset.wallets.filter((w) => w.currencyKind === 'btc' && w.deactivatedUs === null && split.some((c) => c.stream.startsWith(`ledger:wallet:${w.id}:`)));
    expect(btc.length, 'two active BTC wallets with a split ledger').toBeGreaterThanOrEqual(2);
    const [sliced, whole] = [btc[0]!.id, btc[1]!.id];
    const parent = writer.checkpoints.get(`ledger:wallet:${sliced}`)!;
    writer.checkpoints.set(parent.stream, { ...parent, done: false });
    for (const wallet of [sliced, whole]) {
      expect(ledgerKeysOf(writer, wallet)).toEqual(expectedLedgerKeys(sim, wallet));
      await makePayments(sim, 4, wallet);
    }
    await sim.settle();
    for (const wallet of [sliced, whole]) expect(expectedLedgerKeys(sim, wallet).length).toBeGreaterThan(ledgerKeysOf(writer, wallet).length);

    // the same run again, from the first attempt's checkpoints
    const resumed = await pullHarness(sim, { pageSize: 40, writer });
    for (const checkpoint of writer.checkpoints.values()) (resumed.ctx.resume as Map<string, typeof checkpoint>).set(checkpoint.stream, checkpoint);
    sim.requestLog.clear();
    try {
      const result = await resumed.run({ maxChainPages: 3, now });
      expect(result.streams.every((s) => s.done)).toBe(true);
    } finally {
      await resumed.close();
    }
    for (const wallet of resumed.discovery.wallets) expect(ledgerKeysOf(writer, wallet.wallet_id), wallet.wallet_id).toEqual(expectedLedgerKeys(sim, wallet.wallet_id));

    // only the tail: every ledger request starts at the window's end, and nothing else is swept again
    const ledgerRequests = sim.requestLog.entries().filter((e) => e.path.endsWith('/ledger'));
    expect(ledgerRequests.length).toBeGreaterThan(0);
    for (const e of ledgerRequests) expect(new URLSearchParams(e.query).get('start_date'), e.query).toBe(OCTOBER.to);
    expect(sim.requestLog.entries().filter((e) => e.path.endsWith('/payments'))).toEqual([]);
    // the checkpoints stay done: a kill during the tail resumes as before
    expect([...writer.checkpoints.values()].filter((c) => c.stream.startsWith('ledger:wallet:')).every((c) => c.done)).toBe(true);
  });
});
