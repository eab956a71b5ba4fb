/**
 * The import graph of src/ and the two rules docs/design.md#layout states about it: a folder
 * imports only from its own layer or lower ones, and neither folders nor files form a cycle.
 * Pure functions over a list of edges, so the architecture test can also feed them a synthetic
 * graph and prove that they catch what they claim to catch.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, posix, relative, sep } from 'node:path';

/** One relative import: `from` and `to` are paths under the scanned root, e.g. `src/model/rows.ts`. */
export interface ImportEdge {
  from: string;
  to: string;
}

/** The src folders, lowest first; a folder may import from its own layer and any layer before it. */
export const LAYERS: readonly (readonly string[])[] = [
  ['util'],
  ['platform'],
  ['money'],
  ['model'],
  ['api', 'config', 'sim'],
  ['normalize'],
  ['prices'],
  ['store'],
  ['reconcile'],
  ['audit'],
  ['sinks'],
  ['journal'],
  ['lots'],
  ['extract'],
  ['jobs'],
  ['notify'],
  ['delivery'],
  ['listen'],
  ['setup'],
  ['cli'],
];

// Static `import`/`export ... from '...'` (type-only ones included), side-effect `import '...'`
// and dynamic `import('...')`; only relative specifiers are part of the graph.
const SPECIFIER = /(?:\bfrom\s*|\bimport\s*\(\s*|^\s*import\s+)(['"])(\.{1,2}\/[^'"]+)\1/gm;

export function importSpecifiers(source: string): string[] {
  return [...source.matchAll(SPECIFIER)].map((m) => m[2]!);
}

function listFiles(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) out.push(...listFiles(path));
    else if (/\.(ts|mts|mjs)$/.test(name) && !name.endsWith('.d.ts')) out.push(path);
  }
  return out;
}

/** Every relative import edge of the .ts files under `root/folder`, paths relative to `root` with `/`. */
export function importEdges(root: string, folder: string): ImportEdge[] {
  const edges: ImportEdge[] = [];
  for (const file of listFiles(join(root, folder)).sort()) {
    const from = relative(root, file).split(sep).join('/');
    for (const spec of importSpecifiers(readFileSync(file, 'utf8'))) {
      // NodeNext: the specifier names the emitted `.js`; the source is the `.ts` beside it (a plain
      // `.mjs` script, as in scripts/, is its own source).
      const named = posix.normalize(posix.join(posix.dirname(from), spec));
      const to = named.replace(/\.js$/, '.ts').replace(/\.mjs$/, '.mts');
      edges.push({ from, to: !existsSync(join(root, to)) && existsSync(join(root, named)) ? named : to });
    }
  }
  return edges;
}

/** `src/<folder>/...` → `<folder>`; null for files outside a src folder. */
export function folderOf(path: string): string | null {
  const m = /^src\/([^/]+)\//.exec(path);
  return m ? m[1]! : null;
}

/** Edges that import from a higher layer, or from a folder the layer table does not name. */
export function upwardImports(edges: readonly ImportEdge[], layers: readonly (readonly string[])[] = LAYERS): string[] {
  const rank = new Map<string, number>();
  layers.forEach((folders, i) => folders.forEach((f) => rank.set(f, i)));
  const problems: string[] = [];
  for (const { from, to } of edges) {
    const a = folderOf(from);
    const b = folderOf(to);
    if (a === null || b === null || a === b) continue;
    const ra = rank.get(a);
    const rb = rank.get(b);
    if (ra === undefined || rb === undefined) problems.push(`${from} -> ${to} (folder not in the layer table)`);
    else if (rb > ra) problems.push(`${from} -> ${to} (${a} is below ${b})`);
  }
  return problems;
}

/** The strongly connected components with more than one node (Tarjan), each sorted. */
export function cycles(edges: readonly { from: string; to: string }[]): string[][] {
  const next = new Map<string, string[]>();
  for (const { from, to } of edges) {
    if (from === to) continue;
    next.set(from, [...(next.get(from) ?? []), to]);
    if (!next.has(to)) next.set(to, []);
  }
  let counter = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (v: string): void => {
    index.set(v, counter);
    low.set(v, counter);
    counter += 1;
    stack.push(v);
    onStack.add(v);
    for (const w of next.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) {
        low.set(v, Math.min(low.get(v)!, index.get(w)!));
      }
    }
    if (low.get(v) === index.get(v)) {
      const component: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        onStack.delete(w);
        component.push(w);
      } while (w !== v);
      if (component.length > 1) found.push(component.sort());
    }
  };
  for (const v of [...next.keys()].sort()) if (!index.has(v)) visit(v);
  return found;
}

/** Each cycle as the edges inside it, one line per edge, so a failure names what to cut. */
export function describeCycles(edges: readonly { from: string; to: string }[]): string[] {
  return cycles(edges).map((component) => {
    const members = new Set(component);
    const inside = edges.filter((e) => e.from !== e.to && members.has(e.from) && members.has(e.to)).map((e) => `  ${e.from} -> ${e.to}`);
    return [`cycle of ${component.length}: ${component.join(', ')}`, ...new Set(inside)].join('\n');
  });
}

/** File edges folded to folder edges (`src/a/x.ts -> src/b/y.ts` becomes `a -> b`). */
export function folderEdges(edges: readonly ImportEdge[]): ImportEdge[] {
  const out = new Map<string, ImportEdge>();
  for (const { from, to } of edges) {
    const a = folderOf(from);
    const b = folderOf(to);
    if (a !== null && b !== null && a !== b) out.set(`${a} ${b}`, { from: a, to: b });
  }
  return [...out.values()];
}
