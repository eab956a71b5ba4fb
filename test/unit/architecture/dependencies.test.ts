import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { describeCycles, folderEdges, importEdges, importSpecifiers, LAYERS, upwardImports, type ImportEdge } from '../../support/import-graph.js';

/**
 * The layering of src/ (docs/design.md#layout): every relative import of src/ goes to the same
 * folder or a lower layer of LAYERS, and neither folders nor files import each other in a cycle.
 * A failure prints the offending edges.
 */

const ROOT = resolve(fileURLToPath(new URL('.', import.meta.url)), '../../..');

describe('the import graph of src/', () => {
  const edges = importEdges(ROOT, 'src');

  it('is read at all (the scan sees the model files and their importers)', () => {
    expect(edges.some((e) => e.to === 'src/model/rows.ts' && e.from.startsWith('src/normalize/'))).toBe(true);
    expect(edges.length).toBeGreaterThan(500);
  });

  it('lands only in folders the layer table names', () => {
    const folders = new Set(LAYERS.flat());
    const outside = edges.filter((e) => !folders.has(e.to.split('/')[1] ?? '')).map((e) => `${e.from} -> ${e.to}`);
    expect(outside).toEqual([]);
  });

  it('imports only from its own layer or lower ones', () => {
    expect(upwardImports(edges).join('\n')).toBe('');
  });

  it('has no cycle between folders', () => {
    expect(describeCycles(folderEdges(edges)).join('\n')).toBe('');
  });

  it('has no cycle between files', () => {
    expect(describeCycles(edges).join('\n')).toBe('');
  });
});

describe('the import graph of the whole repository', () => {
  // A cycle outside src/ is as hard to follow (and to split) as one inside it: the helpers, the
  // suites, the scripts and the benchmarks are held to the same rule (bench/'s shared types live in
  // bench/types.ts, so run.ts and targets.ts no longer import each other).
  const folders = ['src', 'test', 'scripts', 'bench'];
  const edges = folders.flatMap((folder) => importEdges(ROOT, folder));

  it('is read in every folder (test/ imports src/, scripts/ are seen)', () => {
    expect(edges.some((e) => e.from.startsWith('test/') && e.to.startsWith('src/'))).toBe(true);
    expect(edges.filter((e) => e.from.startsWith('test/')).length).toBeGreaterThan(1000);
    expect(edges.some((e) => e.from === 'bench/run.ts')).toBe(true);
  });

  it('has no cycle between files', () => {
    expect(describeCycles(edges).join('\n')).toBe('');
  });
});

describe('the checker itself', () => {
  const layers = [['util'], ['model'], ['store']];

  it('reads static, type-only, re-export, side-effect and dynamic specifiers, and only relative ones', () => {
    const source = [
      "import { a } from './a.js';",
      "import type { B } from '../b/b.js';",
      "export * from './c.js';",
      "export { d } from \"./d.js\";",
      "import './e.js';",
      "const f = await import('./f.js');",
      "import { z } from 'zod';",
    ].join('\n');
    expect(importSpecifiers(source)).toEqual(['./a.js', '../b/b.js', './c.js', './d.js', './e.js', './f.js']);
  });

  it('catches an upward import and names its edge', () => {
    const graph: ImportEdge[] = [
      { from: 'src/store/db/db.ts', to: 'src/model/rows.ts' },
      { from: 'src/util/time.ts', to: 'src/model/rows.ts' },
      { from: 'src/model/rows.ts', to: 'src/model/window.ts' },
    ];
    expect(upwardImports(graph, layers)).toEqual(['src/util/time.ts -> src/model/rows.ts (util is below model)']);
  });

  it('catches a folder cycle and a file cycle, and passes a graph without one', () => {
    const graph: ImportEdge[] = [
      { from: 'src/store/a.ts', to: 'src/model/b.ts' },
      { from: 'src/model/b.ts', to: 'src/model/c.ts' },
      { from: 'src/model/c.ts', to: 'src/store/a.ts' },
      { from: 'src/util/x.ts', to: 'src/util/y.ts' },
    ];
    expect(describeCycles(folderEdges(graph))).toEqual(['cycle of 2: model, store\n  store -> model\n  model -> store']);
    expect(describeCycles(graph)).toEqual([
      'cycle of 3: src/model/b.ts, src/model/c.ts, src/store/a.ts\n  src/store/a.ts -> src/model/b.ts\n  src/model/b.ts -> src/model/c.ts\n  src/model/c.ts -> src/store/a.ts',
    ]);
    expect(describeCycles(graph.slice(0, 2))).toEqual([]);
  });
});
