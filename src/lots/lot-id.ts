/**
 * Lot ids: `LOT-` and 12 base32 characters of SHA-256 over what created the lot (the wallet and
 * the acquiring movement; for a lot moved by a treasury transfer, the source lot and the
 * transfer). The same history gives the same ids in every run, so an identification file can name
 * a lot and a later run finds it.
 */
import { entryNumber } from '../journal/entry-number.js';

export function lotId(...identity: string[]): string {
  return entryNumber('LOT-', identity.join('|'));
}
