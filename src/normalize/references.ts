/**
 * What a payment's outflows (sends), receipts (receives) and exchanges point at: ledger ids (the join
 * to the wallet ledger's hold_id / credit_id), on-chain tx ids, Lightning payment hashes, swap steps
 * in the order reported, short-circuit offsets — plus the BTC amounts the receipts carry.
 */
import { SWAP_STEPS } from '../api/wire/enums.js';
import { satsToMsats } from '../money/units.js';
import { type Flags, token } from './flags.js';
import {
  ACH_RECEIPT_FIELDS,
  LIGHTNING_RECEIPT_FIELDS,
  ONCHAIN_RECEIPT_FIELDS,
  SHORTCIRCUIT_RECEIPT_FIELDS,
  SWAP_RECEIPT_FIELDS,
  TAGGED_FIELDS,
  USD_TRANSFER_FIELDS,
} from './known-fields.js';
import { asObject, at, flagUnknownFields, index, pushUnique, readLegacyInteger, type WireObject } from './read.js';

export interface References {
  ledger_ids: string[];
  tx_ids: string[];
  payment_hashes: string[];
  swap_steps: string[];
  offset_payment_ids: string[];
  /**
   * Σ of the receipts' own amounts in msats (on-chain `amount_sats` are WHOLE sats, short-circuit
   * `amount_msats` are msats); null when any receipt has no amount (Lightning) or there are none.
   */
  receipts_msats: bigint | null;
}

export function emptyReferences(): References {
  return { ledger_ids: [], tx_ids: [], payment_hashes: [], swap_steps: [], offset_payment_ids: [], receipts_msats: null };
}

const KNOWN_STEPS: ReadonlySet<string> = new Set(SWAP_STEPS);

interface Tally {
  msats: bigint;
  complete: boolean;
  count: number;
}

/**
 * Reads `items` (`data.outflows` or `data.receipts`): `{type, data}` tagged lowercase, or the
 * capitalised tags of `usdbatch` receipts (`OnChain`, `Lightning`, `ShortCircuit`, `Swap`, `Ach`).
 */
export function collectReceipts(items: readonly unknown[], path: string, refs: References, flags: Flags): void {
  const tally: Tally = { msats: 0n, complete: true, count: 0 };
  items.forEach((item, i) => readTagged(item, index(path, i), refs, flags, tally, true));
  if (tally.count > 0 && tally.complete) refs.receipts_msats = (refs.receipts_msats ?? 0n) + tally.msats;
}

function readTagged(item: unknown, path: string, refs: References, flags: Flags, tally: Tally, countAmounts: boolean): void {
  const obj = asObject(item);
  if (!obj) {
    flags.add('malformed_value', path);
    return;
  }
  flagUnknownFields(obj, TAGGED_FIELDS, path, flags);
  const data = asObject(obj['data']);
  const dataPath = at(path, 'data');
  if (!data) {
    flags.add('missing_field', dataPath);
    return;
  }
  const type = typeof obj['type'] === 'string' ? obj['type'].toLowerCase() : '';
  switch (type) {
    case 'onchain': {
      flagUnknownFields(data, ONCHAIN_RECEIPT_FIELDS, dataPath, flags);
      pushUnique(refs.ledger_ids, data['ledger_id']);
      pushUnique(refs.tx_ids, data['tx_id']);
      // On-chain receipts state `amount_sats` in WHOLE sats, not msats (docs/service-facts.md#payment-record).
      const sats = readLegacyInteger(data, 'amount_sats', dataPath, flags);
      if (countAmounts) addToTally(tally, sats === undefined || sats === null ? null : satsToMsats(sats));
      return;
    }
    case 'lightning':
      flagUnknownFields(data, LIGHTNING_RECEIPT_FIELDS, dataPath, flags);
      pushUnique(refs.ledger_ids, data['ledger_id']);
      pushUnique(refs.payment_hashes, data['payment_hash']);
      // A Lightning receipt carries no amount: the receipts cannot be summed.
      if (countAmounts) addToTally(tally, null);
      return;
    case 'shortcircuit': {
      flagUnknownFields(data, SHORTCIRCUIT_RECEIPT_FIELDS, dataPath, flags);
      pushUnique(refs.ledger_ids, data['ledger_id']);
      pushUnique(refs.offset_payment_ids, data['offset_payment_id']);
      // Settled internally against another payment; amount in msats.
      const msats = readLegacyInteger(data, 'amount_msats', dataPath, flags);
      if (countAmounts) addToTally(tally, msats ?? null);
      return;
    }
    case 'swap':
      readSwap(data, dataPath, refs, flags);
      // Swap steps repeat the same value across rails: never summed.
      if (countAmounts) addToTally(tally, null);
      return;
    case 'ach':
      readAch(data, dataPath, flags);
      if (countAmounts) addToTally(tally, null);
      return;
    default:
      flags.add('unknown_receipt_type', token(obj['type']));
      if (countAmounts) addToTally(tally, null);
  }
}

function addToTally(tally: Tally, msats: bigint | null): void {
  tally.count += 1;
  if (msats === null) tally.complete = false;
  else tally.msats += msats;
}

function readSwap(data: WireObject, path: string, refs: References, flags: Flags): void {
  flagUnknownFields(data, SWAP_RECEIPT_FIELDS, path, flags);
  const step = data['step'];
  if (typeof step === 'string') {
    // Steps are kept in the order reported, repeats included: they are a timeline.
    refs.swap_steps.push(step);
    if (!KNOWN_STEPS.has(step)) flags.add('unknown_swap_step', token(step));
  } else {
    flags.add('missing_field', at(path, 'step'));
  }
  const ignored: Tally = { msats: 0n, complete: false, count: 0 };
  // The rail receipt inside a swap step: both rails' tx ids and payment hashes end up in refs.
  readTagged(data['receipt'], at(path, 'receipt'), refs, flags, ignored, false);
}

function readAch(data: WireObject, path: string, flags: Flags): void {
  flagUnknownFields(data, ACH_RECEIPT_FIELDS, path, flags);
  const transfers = data['transfers'];
  if (!Array.isArray(transfers)) return;
  transfers.forEach((transfer, i) => {
    const t = asObject(transfer);
    if (t) flagUnknownFields(t, USD_TRANSFER_FIELDS, index(at(path, 'transfers'), i), flags);
  });
}
