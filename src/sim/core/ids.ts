import { hash32, hashString, hex32 } from './prng.js';

/**
 * Deterministic identifiers. Every UUID is a version-4-shaped string derived from (seed, namespace, key).
 *
 * Payment ids are also INVERTIBLE: their first 32 bits are a keyed Feistel permutation of the
 * payment's index, so `GET /payments/{id}` finds payment i without an id → index map (a map of
 * 1,000,000 strings would cost ~100 MB; see docs/simulator.md "Memory").
 */

const NS_PAYMENT_HEAD = hashString('payment-head');
const NS_PAYMENT_TAIL = hashString('payment-tail');

function formatUuid(w0: number, w1: number, w2: number, w3: number): string {
  // version nibble 4 (bits 12-15 of the third group), variant bits 10xx (top of the fourth)
  const b = hex32(((w1 & 0xffff0fff) | 0x00004000) >>> 0);
  const c = hex32(((w2 & 0x3fffffff) | 0x80000000) >>> 0);
  return `${hex32(w0)}-${b.slice(0, 4)}-${b.slice(4, 8)}-${c.slice(0, 4)}-${c.slice(4, 8)}${hex32(w3)}`;
}

/** A UUID for (seed, namespace, key): namespaces are salts named in code, e.g. `uuidOf(seed, NS.hold, i)`. */
export function uuidOf(seed: number, namespace: number, key: number, sub = 0): string {
  return formatUuid(
    hash32(seed, key, namespace, sub * 4),
    hash32(seed, key, namespace, sub * 4 + 1),
    hash32(seed, key, namespace, sub * 4 + 2),
    hash32(seed, key, namespace, sub * 4 + 3),
  );
}

function roundKey(seed: number, half: number, round: number): number {
  return hash32(seed, half, NS_PAYMENT_HEAD, round) & 0xffff;
}

function permute32(seed: number, value: number): number {
  let left = (value >>> 16) & 0xffff;
  let right = value & 0xffff;
  for (let round = 0; round < 4; round++) {
    const next = (left ^ roundKey(seed, right, round)) & 0xffff;
    left = right;
    right = next;
  }
  return ((left << 16) | right) >>> 0;
}

function unpermute32(seed: number, value: number): number {
  let left = (value >>> 16) & 0xffff;
  let right = value & 0xffff;
  for (let round = 3; round >= 0; round--) {
    const previous = (right ^ roundKey(seed, left, round)) & 0xffff;
    right = left;
    left = previous;
  }
  return ((left << 16) | right) >>> 0;
}

/** The id of generated payment `index` (0 ≤ index < 2^32). */
export function paymentIdOf(seed: number, index: number): string {
  return formatUuid(permute32(seed, index), hash32(seed, index, NS_PAYMENT_TAIL, 1), hash32(seed, index, NS_PAYMENT_TAIL, 2), hash32(seed, index, NS_PAYMENT_TAIL, 3));
}

const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** The index of a generated payment id, or null when `id` is not one (checked by re-deriving it). */
export function paymentIndexOf(seed: number, id: string, count: number): number | null {
  const lower = id.toLowerCase();
  if (!UUID_RE.test(lower)) return null;
  const index = unpermute32(seed, parseInt(lower.slice(0, 8), 16));
  if (index >= count) return null;
  return paymentIdOf(seed, index) === lower ? index : null;
}

export function isUuid(text: string): boolean {
  return UUID_RE.test(text.toLowerCase());
}
