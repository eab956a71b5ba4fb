/**
 * A set of ids held mostly off the collector's heap. A canonical lowercase UUID (what the service
 * sends for every id: `format: uuid` in its OpenAPI document) is packed into four 32-bit words of an
 * open-addressing table in typed arrays; any other text goes to a Set of its own, as it is.
 *
 * Why: the spool's orphan checks keep every payment id of the run (spool-reader.ts). At 1M payments
 * a Set of the id strings is a large mass of live objects that V8's collector marks at every full
 * collection, which it then makes more frequent. The table holds them in typed arrays (16 bytes an
 * id) that the collector never visits.
 *
 * Membership is exact on the text: packing is a bijection on canonical lowercase UUIDs, and an
 * uppercase or otherwise different spelling is another string, kept in the Set.
 */
import { ownCopy } from './own-copy.js';

const INITIAL_SLOTS = 1024;
/** the table doubles past this load, so a probe stays short */
const MAX_LOAD = 0.5;

export class IdSet {
  private slots: number;
  private words: Uint32Array;
  private used: Uint8Array;
  private packed = 0;
  private readonly others = new Set<string>();
  // the last id packed (no object per call)
  private w0 = 0;
  private w1 = 0;
  private w2 = 0;
  private w3 = 0;

  constructor(expected = 0) {
    let slots = INITIAL_SLOTS;
    while (slots * MAX_LOAD < expected) slots *= 2;
    this.slots = slots;
    this.words = new Uint32Array(slots * 4);
    this.used = new Uint8Array(slots);
  }

  get size(): number {
    return this.packed + this.others.size;
  }

  add(id: string): void {
    if (!this.pack(id)) {
      // the id may be a view of a page's body: a copy, so the set does not keep the page
      if (!this.others.has(id)) this.others.add(ownCopy(id));
      return;
    }
    const slot = this.find();
    if (this.used[slot] === 1) return;
    this.put(slot);
    if (this.packed > this.slots * MAX_LOAD) this.grow();
  }

  has(id: string): boolean {
    if (!this.pack(id)) return this.others.has(id);
    return this.used[this.find()] === 1;
  }

  /** The slot holding the packed id, or the empty slot where it would go. */
  private find(): number {
    const mask = this.slots - 1;
    const words = this.words;
    for (let slot = mix(this.w0, this.w1, this.w2, this.w3) & mask; ; slot = (slot + 1) & mask) {
      if (this.used[slot] === 0) return slot;
      const at = slot * 4;
      if (words[at] === this.w0 && words[at + 1] === this.w1 && words[at + 2] === this.w2 && words[at + 3] === this.w3) return slot;
    }
  }

  private put(slot: number): void {
    const at = slot * 4;
    this.words[at] = this.w0;
    this.words[at + 1] = this.w1;
    this.words[at + 2] = this.w2;
    this.words[at + 3] = this.w3;
    this.used[slot] = 1;
    this.packed += 1;
  }

  private grow(): void {
    const { words, used, slots } = this;
    this.slots = slots * 2;
    this.words = new Uint32Array(this.slots * 4);
    this.used = new Uint8Array(this.slots);
    this.packed = 0;
    for (let slot = 0; slot < slots; slot++) {
      if (used[slot] === 0) continue;
      const at = slot * 4;
      this.w0 = words[at] as number;
      this.w1 = words[at + 1] as number;
      this.w2 = words[at + 2] as number;
      this.w3 = words[at + 3] as number;
      this.put(this.find());
    }
  }

  /** Packs a canonical lowercase UUID (8-4-4-4-12 hex digits) into w0..w3; false for any other text. */
  private pack(id: string): boolean {
    if (id.length !== 36 || id.charCodeAt(8) !== 45 || id.charCodeAt(13) !== 45 || id.charCodeAt(18) !== 45 || id.charCodeAt(23) !== 45) return false;
    let word = 0;
    let digits = 0;
    for (let i = 0; i < 36; i++) {
      if (i === 8 || i === 13 || i === 18 || i === 23) continue;
      const c = id.charCodeAt(i);
      const v = c >= 48 && c <= 57 ? c - 48 : c >= 97 && c <= 102 ? c - 87 : -1;
      if (v < 0) return false;
      word = ((word << 4) | v) >>> 0;
      digits += 1;
      if (digits === 8) this.w0 = word;
      else if (digits === 16) this.w1 = word;
      else if (digits === 24) this.w2 = word;
      else if (digits === 32) this.w3 = word;
      if ((digits & 7) === 0) word = 0;
    }
    return true;
  }
}

/** A 32-bit mix of the four words (UUIDs of other versions than 4 are not random in every bit). */
function mix(a: number, b: number, c: number, d: number): number {
  let h = Math.imul(a ^ 0x9e3779b9, 0x85ebca6b);
  h = Math.imul(h ^ (h >>> 13) ^ b, 0xc2b2ae35);
  h = Math.imul(h ^ (h >>> 16) ^ c, 0x85ebca6b);
  h = Math.imul(h ^ (h >>> 13) ^ d, 0xc2b2ae35);
  return (h ^ (h >>> 16)) >>> 0;
}
