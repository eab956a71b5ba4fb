/**
 * Small integer codes for the per-payment attributes kept in typed arrays (one byte each per
 * payment), and their wire spellings. Order matters: codes index these arrays.
 */
export const DIRECTION_NAMES = ['send', 'receive'] as const;
export const DIR_SEND = 0;
export const DIR_RECEIVE = 1;

export const KIND_NAMES = ['bolt11', 'onchain', 'bip21', 'taprootasset', 'usdbatch'] as const;
export const KIND_BOLT11 = 0;
export const KIND_ONCHAIN = 1;
export const KIND_BIP21 = 2;
export const KIND_TAPROOT = 3;
export const KIND_USDBATCH = 4;

/** OpenAPI `PaymentStatus` order, then the unknown value used behind the `unknownFields` flag. */
export const STATUS_NAMES = ['sending', 'receiving', 'approved', 'generating', 'expired', 'failed', 'completed', 'settling_v2'] as const;
export const ST_SENDING = 0;
export const ST_RECEIVING = 1;
export const ST_APPROVED = 2;
export const ST_GENERATING = 3;
export const ST_EXPIRED = 4;
export const ST_FAILED = 5;
export const ST_COMPLETED = 6;
export const ST_SETTLING_V2 = 7;

export const CATEGORY_NAMES = ['standard', 'treasury'] as const;
export const CAT_STANDARD = 0;
export const CAT_TREASURY = 1;

/** Bit flags of a payment's variant. */
export const F_LEGACY = 1; // deprecated fields only, uppercase BTC, old ledger events
export const F_SWAP = 2; // route swap
export const F_CHECK = 4; // policy-check-only send (approved | failed), no money moves
export const F_SHORTCIRCUIT = 8; // settled internally against another payment
export const F_HUGE = 16; // amount above 2^53 base units
export const F_REJECTED = 32; // failed send rejected before any hold
export const F_OVERPAID = 64; // receive that settled more than requested (terms ≠ settled fee)
export const F_NO_BREAKDOWN = 128; // completed with fee terms but no payment_breakdown yet
