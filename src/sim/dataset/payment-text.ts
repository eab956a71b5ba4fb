import { hashString, Stream } from '../core/prng.js';
import { DIR_SEND, KIND_BIP21, KIND_ONCHAIN, KIND_TAPROOT } from './codes.js';
import { HOSTILE_KEYS, HOSTILE_VALUES } from './hostile-text.js';
import type { GenContext, PaymentCore } from './payment-core.js';

/**
 * Free text and rail identifiers of a payment: memo, metadata, invoice, address, tx ids.
 * Separate from payment-core.ts so that a metadata filter never derives amounts.
 */

const NS_TEXT = hashString('text');
const NS_META = hashString('metadata');
const NS_RAIL = hashString('rail-ids');

const MEMOS = ['Invoice 2041', 'Coffee beans', 'Payroll', 'Refund order 5512', 'Hosting', 'Consulting Q4', 'Tip', 'Supplier settlement', 'Top-up', 'Ad spend'];

export function metadataOf(ctx: GenContext, i: number): Record<string, string> | null {
  const s = new Stream(ctx.options.seed, i, NS_META);
  const r = s.unit();
  if (r < 0.3) return null;
  const meta: Record<string, string> = { external_id: `ord-${i}`, tenant_id: `tenant-${s.int(1, 5)}` };
  if (s.chance(0.2)) meta['invoice'] = `INV-${s.int(1000, 9999)}`;
  if (ctx.options.hostileText && s.chance(0.03)) {
    const key = s.pick(HOSTILE_KEYS);
    Object.defineProperty(meta, key, { value: s.pick(HOSTILE_VALUES), enumerable: true, writable: true, configurable: true });
    meta['note'] = s.pick(HOSTILE_VALUES);
  }
  return meta;
}

export function memoOf(ctx: GenContext, i: number): string | null {
  const s = new Stream(ctx.options.seed, i, NS_TEXT);
  if (ctx.options.hostileText && s.chance(0.03)) return s.pick(HOSTILE_VALUES);
  return s.chance(0.45) ? s.pick(MEMOS) : null;
}

export interface RailIds {
  paymentRequest: string;
  address: string;
  txId: string;
  preimage: string;
  paymentHash: string;
  blockHeight: number;
}

const BECH32 = 'qpzry9x8gf2tvdw0s3jn54khce6mua7l';

/** All 1,024 pairs of bech32 characters, indexed by 10 bits. */
const BECH32_PAIRS = Array.from({ length: 1024 }, (_, v) => `${BECH32[v >>> 5] as string}${BECH32[v & 31] as string}`);

/** `length` (even) bech32 characters, six per 32-bit draw. */
function bech32Chars(s: Stream, length: number): string {
  let out = '';
  for (let produced = 0; produced < length; produced += 6) {
    const word = s.u32();
    out += `${BECH32_PAIRS[word & 1023] as string}${BECH32_PAIRS[(word >>> 10) & 1023] as string}${BECH32_PAIRS[(word >>> 20) & 1023] as string}`;
  }
  return out.length === length ? out : out.slice(0, length);
}

export function railIdsOf(seed: number, key: number, amountHint: bigint): RailIds {
  const s = new Stream(seed, key, NS_RAIL);
  const addr = `bc1q${bech32Chars(s, 38)}`;
  const invoiceTail = bech32Chars(s, 180);
  const sats = amountHint / 1_000n;
  return {
    paymentRequest: `lnbc${sats > 0n ? `${sats * 10n}n` : ''}1p${invoiceTail}`,
    address: addr,
    txId: s.hex(32),
    preimage: s.hex(32),
    paymentHash: s.hex(32),
    blockHeight: 915_000 + s.int(0, 12_000),
  };
}

/** The memo / metadata / invoice / address a payment shows, generated or client-supplied. */
export interface PaymentText {
  memo: string | null;
  metadata: Record<string, string> | null;
  paymentRequest: string | null;
  address: string | null;
  rail: RailIds;
}

export function textOf(ctx: GenContext, core: PaymentCore): PaymentText {
  const rail = railIdsOf(ctx.options.seed, core.handle, core.rail?.amountMsats ?? core.principal);
  if (core.written) return { ...core.written, rail };
  const needsAddress = core.kind === KIND_ONCHAIN || core.kind === KIND_BIP21 || (core.direction === DIR_SEND && core.railOnchain);
  const needsInvoice = core.kind !== KIND_ONCHAIN;
  return {
    memo: memoOf(ctx, core.handle),
    metadata: metadataOf(ctx, core.handle),
    paymentRequest: needsInvoice ? (core.kind === KIND_TAPROOT ? rail.paymentRequest.replace('lnbc', 'lnbcrt') : rail.paymentRequest) : null,
    address: needsAddress ? rail.address : null,
    rail,
  };
}
