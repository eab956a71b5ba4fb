/**
 * The one contract every stream of the pull keeps, after the streams of an Airbyte source (stream
 * slices, read records, state):
 *
 * - `slices`: the independent chains the stream reads, each with its estimated size in requests
 *   (the scheduler starts the longest first) — a wallet's payments, its time slices, a line of
 *   credit's bills;
 * - `read`: one slice, strictly sequential, every page written through the snapshot writer with
 *   its checkpoint in one step;
 * - state: the checkpoint's position (positions.ts) is where a slice resumes; a resumed run finds
 *   it in `ctx.resume`, under the slice's stream name.
 *
 * `stage` says when the scheduler (pull.ts) asks for the slices; it knows nothing else of any kind
 * of stream, so a new stream is one file in streams/ and one line in streams/index.ts.
 */
import type { WalletRow } from '../model/rows.js';
import type { ExtractContext, StreamProgress } from './context.js';
import type { PullScope } from './pull-plan.js';

/**
 * - `sizing`: once per run, before any other: summaries (their counts size the chains) and the
 *   short bill chains read alongside them;
 * - `environment`: once per run, after the sizing stage and before any wallet's chains: the
 *   environments whose payments are read whole (one environment-level read instead of one per
 *   wallet, when that takes fewer requests);
 * - `wallet`: once per wallet, after the sizing stage: the wallet's chains (payments, ledger);
 * - `wallet-done`: once per wallet, as soon as every `wallet` slice of that wallet is done (the
 *   reads by id, which need the wallet's lists in the snapshot).
 */
export type StreamStage = 'sizing' | 'environment' | 'wallet' | 'wallet-done';

/** One slice and its estimated requests: larger runs first, equal sizes first come first served. */
export interface SizedSlice<S> {
  slice: S;
  size: number;
}

export interface SliceSet<S> {
  slices: Array<SizedSlice<S>>;
  /** the slices are parts of one split stream: this marks it done once the last slice is */
  finish?: () => Promise<StreamProgress>;
}

export interface ReadOutcome<S> {
  /** the progress of every stream the slice finished (none when it split) */
  progress: StreamProgress[];
  /** the slice split while it read (the ledger, after its first page): the parts run as slices of their own */
  split?: SliceSet<S>;
  /** payment ids the service answered 404 for */
  missingPaymentIds?: string[];
}

interface StreamBase<S> {
  /** what it reads, for logs and tests (checkpoint names come from positions.ts `streamName`) */
  readonly name: string;
  read(ctx: ExtractContext, scope: PullScope, slice: S): Promise<ReadOutcome<S>>;
}

/** A stream of the whole run: its slices are asked for once. */
export interface RunStream<S> extends StreamBase<S> {
  readonly stage: 'sizing' | 'environment';
  slices(ctx: ExtractContext, scope: PullScope): Promise<SliceSet<S>>;
}

/** A stream of each wallet: its slices are asked for once per wallet. */
export interface WalletStream<S> extends StreamBase<S> {
  readonly stage: 'wallet' | 'wallet-done';
  slices(ctx: ExtractContext, scope: PullScope, wallet: WalletRow): Promise<SliceSet<S>>;
}

export type Stream<S> = RunStream<S> | WalletStream<S>;
