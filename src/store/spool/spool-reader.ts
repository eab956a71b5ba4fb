/**
 * The spool read back as the report's source (src/model/ports.ts `ReportSource`) and as what the
 * pull asks (orphan checks): the base of SpoolStore (spool-store.ts), which owns the state it reads.
 * Reads de-duplicate by natural key (last write wins, streams in name order, then file order),
 * which is what the database's upsert does, and hold one wallet's rows at a time.
 */
import { join } from 'node:path';
import type { BillRecord, BillSummaryRow, LedgerRow, PaymentRow, SummaryBucketRow, WalletRow, AssetRow, UtcInstant } from '../../model/rows.js';
import type { LedgerQuery, PaymentQuery, ReportSource } from '../../model/ports.js';
import type { Window } from '../../model/window.js';
import { windowContains } from '../../model/window.js';
import { IdSet } from '../../util/id-set.js';
import { readKeyed } from './keyed-files.js';
import type { SpoolState, StreamState } from './spool-state.js';
import type { LineFilter } from './stream-line.js';
import { cmp, latestRows, namedPaymentIds, streamFileRows, streamRows } from './stream-reader.js';
import { readsOnTheirTurn } from '../../util/read-ahead.js';

const BATCH = 1000;
/** the Open items sheet's payments: not yet settled */
const OPEN_STATUSES: ReadonlySet<string> = new Set(['open', 'unknown']);

export abstract class SpoolReader implements ReportSource {
  protected state: SpoolState = { run_key: null, run_id: null, status: null, window: null, streams: {}, summaries_window: null };
  /** every payment id of the run, once an orphan check asked (off the heap: util/id-set.ts says why) */
  protected knownIds: IdSet | undefined;
  constructor(protected readonly dir: string) {
    // reads are synchronous decoding: nothing to overlap (util/read-ahead.ts)
    readsOnTheirTurn(this);
  }

  async wallets(_organization_id: string, wallet_ids?: readonly string[]): Promise<WalletRow[]> {
    const all = readKeyed<WalletRow>(join(this.dir, 'wallets.jsonl'), (r) => r.wallet_id);
    const wanted = wallet_ids && wallet_ids.length > 0 ? new Set(wallet_ids) : undefined;
    return [...all.values()].filter((w) => !wanted || wanted.has(w.wallet_id)).sort((a, b) => cmp(a.wallet_id, b.wallet_id));
  }

  async assets(): Promise<AssetRow[]> {
    return [...readKeyed<AssetRow>(join(this.dir, 'assets.jsonl'), (r) => r.currency).values()].sort((a, b) => cmp(a.currency, b.currency));
  }

  async summaries(_organization_id: string, window: Window): Promise<SummaryBucketRow[]> {
    const w = this.state.summaries_window;
    if (!w || w.from !== window.from || w.to !== window.to) return [];
    const rows = this.streamRows<SummaryBucketRow>((s) => s.checkpoint.stream.startsWith('summary:'));
    return rows;
  }

  async bills(_organization_id: string, window: Window): Promise<BillRecord[]> {
    const byId = new Map<string, BillRecord>();
    for (const record of this.streamRows<BillRecord>((s) => s.checkpoint.stream.startsWith('bills:'))) byId.set(record.bill.bill_id, record);
    return [...byId.values()]
      .filter((r) => r.bill.start_time < window.to && r.bill.end_time > window.from)
      .sort((a, b) => cmp(a.bill.line_of_credit_id, b.bill.line_of_credit_id) || cmp(a.bill.start_time, b.bill.start_time) || cmp(a.bill.bill_id, b.bill.bill_id));
  }

  /** The spool holds one run: its summaries are this window's when the run's window is. */
  async billSummaries(_organization_id: string, window: Window): Promise<BillSummaryRow[]> {
    const w = this.state.window;
    if (!w || w.from !== window.from || w.to !== window.to) return [];
    const byLoc = new Map<string, BillSummaryRow>();
    for (const row of this.streamRows<BillSummaryRow>((s) => s.checkpoint.stream.startsWith('bills-summary:'))) byLoc.set(row.line_of_credit_id, row);
    return [...byLoc.values()].sort((a, b) => cmp(a.line_of_credit_id, b.line_of_credit_id));
  }

  /** `raw` is always null, as for the ledger. */
  async *payments(query: PaymentQuery): AsyncIterable<PaymentRow[]> {
    const select = (s: StreamState): boolean => s.checkpoint.stream.startsWith('payments') && s.wallets.includes(query.wallet_id);
    // open items: a later copy of a payment (settled since) must replace an open one before the
    // status filter, so the last copy of each is found on the lines' hints, then only open ones decode
    const found = query.openOnly
      ? latestRows<PaymentRow>(join(this.dir, 'streams'), Object.values(this.state.streams).filter(select), query.wallet_id, (status) => OPEN_STATUSES.has(status))
      : this.streamRows<PaymentRow>(select, { wallet: query.wallet_id });
    const byId = new Map<string, PaymentRow>();
    for (const row of found) if (row.wallet_id === query.wallet_id) byId.set(row.payment_id, row);
    const rows = [...byId.values()]
      .filter((p) => windowContains(query.window, p.created_at) && (!query.openOnly || OPEN_STATUSES.has(p.status_class)))
      .sort((a, b) => cmp(a.created_at, b.created_at) || cmp(a.payment_id, b.payment_id));
    yield* batches(rows);
  }

  /** `raw` is always null: the spool keeps no raw payload (stream-line.ts), as every reader asks `withoutRaw`. */
  async *ledger(_organization_id: string, wallet_id: string, _options?: LedgerQuery): AsyncIterable<LedgerRow[]> {
    const byKey = new Map<string, LedgerRow>();
    for (const row of this.streamRows<LedgerRow>((s) => s.checkpoint.stream.startsWith('ledger') && s.wallets.includes(wallet_id), { wallet: wallet_id })) {
      if (row.wallet_id === wallet_id) byKey.set(`${row.entry_type}\u0000${row.entry_id}`, row);
    }
    const rows = [...byKey.values()].sort(
      (a, b) => cmp(a.effective_time, b.effective_time) || cmp(a.entry_type, b.entry_type) || cmp(a.entry_id, b.entry_id),
    );
    yield* batches(rows);
  }

  async knownPaymentIds(_organization_id: string, payment_ids: readonly string[]): Promise<Set<string>> {
    if (!this.knownIds) {
      // every payment of the spool passes through here: one stream file at a time, only its ids kept
      this.knownIds = new IdSet();
      for (const rows of this.eachStreamRows<PaymentRow>((s) => s.checkpoint.stream.startsWith('payments'))) for (const row of rows) this.knownIds.add(row.payment_id);
    }
    return new Set(payment_ids.filter((id) => this.knownIds!.has(id)));
  }

  // --- what the pull asks (see ../sql/ledger-queries.ts for the database versions) -------------------

  /** In-window ledger entries of the wallet that name a payment the spool does not hold. */
  async orphanPaymentIds(organization_id: string, wallet_id: string, window: Window): Promise<string[]> {
    // from the ledger lines' hints: the check runs once per wallet in the pull, and decoding the
    // wallet's whole ledger for it was a large share of the spool's ledger reads
    const ledgers = Object.values(this.state.streams).filter((s) => s.checkpoint.stream.startsWith('ledger') && s.wallets.includes(wallet_id));
    const named = namedPaymentIds(join(this.dir, 'streams'), ledgers, wallet_id, (instant) => windowContains(window, instant as UtcInstant));
    const known = await this.knownPaymentIds(organization_id, [...named]);
    return [...named].filter((id) => !known.has(id)).sort();
  }

  protected streamRows<T>(select: (s: StreamState) => boolean, filter?: LineFilter): T[] {
    return streamRows<T>(join(this.dir, 'streams'), Object.values(this.state.streams).filter(select), filter);
  }

  protected eachStreamRows<T>(select: (s: StreamState) => boolean, filter?: LineFilter): Generator<T[]> {
    return streamFileRows<T>(join(this.dir, 'streams'), Object.values(this.state.streams).filter(select), filter);
  }
}

function* batches<T>(rows: T[]): Generator<T[]> {
  for (let i = 0; i < rows.length; i += BATCH) yield rows.slice(i, i + BATCH);
}
