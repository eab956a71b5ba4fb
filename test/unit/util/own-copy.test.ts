import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { parseExact } from '../../../src/api/json.js';
import { ownCopy } from '../../../src/util/own-copy.js';

/** A forced full collection (the flag may be set at run time; `gc` then exists in a new context). */
function collect(): void {
  setFlagsFromString('--expose-gc');
  (runInNewContext('gc') as () => void)();
}

/**
 * Heap bytes still held after keeping one id from each of 40 page bodies of ~1 MB, parsed by the
 * exact parser (the fallback of api/json.ts for a page whose marker check fails), which cuts
 * string literals out of the body as views. JSON.parse, the common path, makes flat strings.
 */
function heldByIds(keep: (id: string) => string): { ids: string[]; held: number } {
  collect();
  const before = process.memoryUsage().heapUsed;
  const ids: string[] = [];
  for (let i = 0; i < 40; i++) {
    const body = `{"items":[{"id":"payment-${i}-${'0'.repeat(24)}","amount_msats":1152921504606846976,"memo":"${'x'.repeat(1 << 20)}"}]}`;
    const page = parseExact(body) as { items: Array<{ id: string }> };
    ids.push(keep(page.items[0]!.id));
  }
  collect();
  return { ids, held: process.memoryUsage().heapUsed - before };
}

describe('ownCopy', () => {
  it('is the same text, whatever its characters', () => {
    for (const text of ['', 'a', 'payment-0000000000000000', 'é€𝄞\u0000\n"\\', 'x'.repeat(10_000)]) expect(ownCopy(text)).toBe(text);
  });

  it('keeps only its own characters: ids kept from parsed pages do not keep the pages', () => {
    const copied = heldByIds(ownCopy);
    expect(copied.ids).toHaveLength(40);
    // 40 ids of ~35 characters, plus what the test's own code allocates: far below the 40 MB of bodies
    expect(copied.held).toBeLessThan(8 << 20);
  });

  it('is needed: the id as the parser hands it out can keep its page (the control)', () => {
    const kept = heldByIds((id) => id);
    expect(kept.ids).toHaveLength(40);
    // V8 hands out long substrings as views of the text they were cut from (the exact parser cuts
    // string literals out of the body, the spool's readers cut hints out of a file's text); if a
    // future V8 copies them, this control fails and ownCopy is no longer needed
    expect(kept.held).toBeGreaterThan(20 * (1 << 20));
  });
});
