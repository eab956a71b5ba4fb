/**
 * The crypto subledger's model (docs/lots.md): lots held per wallet, the events that add or
 * relieve them, and the relief lines a disposal produces. Units are base units of the wallet's
 * currency (msats for BTC) and are conserved exactly; cost and proceeds are integer minor units of
 * the books' currency, rounded once per line by the rules in relief.ts. `null` cost means the
 * basis is unknown (an `unknown` lot): it is never a silent zero.
 */

export type LotOrigin = 'receive' | 'swap' | 'transfer_in' | 'deposit' | 'opening' | 'unknown';
export type DisposalPart = 'principal' | 'network_fee' | 'processing_fee' | 'transfer_fee' | 'withdrawal' | 'swap';
export type Term = 'short' | 'long';

export interface Lot {
  lotId: string;
  walletId: string;
  currency: string;
  /** when the units were first acquired (kept across treasury transfers) */
  acquiredAt: string;
  origin: LotOrigin;
  /** what is still held */
  units: bigint;
  /** the cost of what is still held, minor units; null = unknown basis */
  cost: bigint | null;
}

export interface ReliefLine {
  walletId: string;
  currency: string;
  /** the disposing movement: `<entry_type>:<entry_id>` of the ledger */
  disposalRef: string;
  part: DisposalPart;
  disposedAt: string;
  lotId: string;
  acquiredAt: string;
  units: bigint;
  /** fair value received, minor units (null: the movement needs a price) */
  proceeds: bigint | null;
  cost: bigint | null;
  /** proceeds − cost; null when either is unknown */
  gain: bigint | null;
  term: Term;
  /** the closed period (YYYY-MM) a late disposal was effective in; absent for an ordinary one */
  lateFrom?: string;
}

export interface DisposalLeg {
  part: DisposalPart;
  units: bigint;
  /** the journal's books amount of this leg; null when the movement needs a price */
  proceeds: bigint | null;
}

/**
 * What the journal's movements become for the subledger (events.ts builds them). `lateFrom` (on any event): the closed period a late movement was effective in; the event is
 * applied re-dated to the first open instant (docs/lots.md "Closed periods").
 */
export type LotEvent = (
  | { type: 'acquire'; walletId: string; currency: string; at: string; ref: string; origin: 'receive' | 'swap' | 'deposit'; units: bigint; cost: bigint | null }
  | { type: 'dispose'; walletId: string; currency: string; at: string; ref: string; legs: DisposalLeg[] }
  /** a treasury send paired with its receive: `units` move with their lots, `fees` are disposals at the sender */
  | { type: 'transfer'; walletId: string; toWalletId: string; currency: string; at: string; ref: string; units: bigint; fees: DisposalLeg[] }
) & { lateFrom?: string };

/** An opening lot (opening-lots file): a balance held before the snapshot's first event. */
export interface OpeningLot {
  walletId: string;
  currency: string;
  acquiredAt: string;
  units: bigint;
  cost: bigint | null;
  /** set when the row gives the basis of one deposit (its ledger ref) rather than an opening balance */
  ref: string | null;
}
