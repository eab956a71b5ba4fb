/**
 * Entry numbers: a prefix and 12 base32 characters of SHA-256 over the posting unit's identity
 * (payment id + ledger entry, or wallet + period for a remeasurement). The same movement always
 * gets the same number, so a re-export never invents a new one, and with a prefix of at most 9
 * characters the number fits QuickBooks Online's 21-character Journal No.
 */
import { createHash } from 'node:crypto';

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';
export const ENTRY_NUMBER_HASH_CHARS = 12;

export function entryNumber(prefix: string, identity: string): string {
  const digest = createHash('sha256').update(identity, 'utf8').digest();
  let out = '';
  // 12 characters × 5 bits = 60 bits, read from the first 8 bytes
  let bits = digest.readBigUInt64BE(0);
  for (let i = 0; i < ENTRY_NUMBER_HASH_CHARS; i++) {
    out += ALPHABET[Number((bits >> 59n) & 31n)];
    bits = (bits << 5n) & 0xffffffffffffffffn;
  }
  return `${prefix}${out}`;
}
