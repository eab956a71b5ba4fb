/**
 * docs/design.md's layout (#layout) names the layers of src/ as the import checker knows them
 * (LAYERS, test/support/import-graph.ts), in the same order, and every folder of src/: a folder
 * added, moved or left out of the list fails here.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { LAYERS } from '../../support/import-graph.js';

const ROOT = resolve(fileURLToPath(new URL('.', import.meta.url)), '../../..');

/** Each bullet of the Layout section: the folders it opens with (`a/`, `b/`, … — before the dash). */
function documentedLayers(markdown: string): string[][] {
  const section = markdown.split(/^## Layout$/m)[1]?.split(/^## /m)[0] ?? '';
  return section
    .split('\n')
    .filter((line) => line.startsWith('- `'))
    .map((line) => [...(line.split(' — ')[0] ?? '').matchAll(/`([a-z-]+)\/`/g)].map((m) => m[1] as string));
}

describe("docs/design.md's layout", () => {
  const documented = documentedLayers(readFileSync(resolve(ROOT, 'docs/design.md'), 'utf8'));

  it('is read at all', () => {
    expect(documented.length).toBeGreaterThan(10);
  });

  it('lists the layers of the import checker, in its order', () => {
    expect(documented).toEqual(LAYERS.map((layer) => [...layer]));
  });

  it('names every folder of src/', () => {
    const folders = readdirSync(resolve(ROOT, 'src'), { withFileTypes: true })
      .filter((d) => d.isDirectory())
      .map((d) => d.name)
      .sort();
    expect(documented.flat().sort()).toEqual(folders);
  });
});
