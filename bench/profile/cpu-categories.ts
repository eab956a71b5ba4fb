/**
 * Where the main thread's busy time goes, from a `--cpu-prof` profile: each sample is charged to the
 * innermost frame on its stack that matches a category (so JSON.parse inside the spool's decoder is
 * the spool's decoding, not "JSON"), `(idle)` is left out. The categories are the cost centres of
 * docs/benchmarks.md "Issue 41": what the floor has (the API's JSON, csv-stringify, the XLSX writer
 * and its zip) and what it has not (the spool, normalization, rendering cells, the collector...).
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}

const CATEGORIES: ReadonlyArray<readonly [string, RegExp]> = [
  ['garbage collector', /^\(garbage collector\) /],
  ['csv-stringify', /csv-stringify/],
  ['exceljs, zip', /exceljs|archiver|zip-stream|crc-32|crc32|node:zlib|compress-commons|readable-stream/],
  ['XLSX row XML', /xlsx-row-xml|xlsx-table-sheets/],
  ['rendering cells', /render-cells|zoned-time|sinks\/cells|column-spec|model\/instant/],
  ['spool: decode', /^(decodeRow|decodeJson|decodeRowText|restore|untag|decodeStreamLine|decode|row|split|build|readShapeLine) .*spool/],
  ['spool: encode', /^(encodeRow|rowJson|tagged|nothingToTag|encodeStreamLine|encodeStreamPage|withoutRaw|head|rawMark|valuesOf|hasShape|shapeKeysOf|untouched|plain) .*spool/],
  ['spool: files, journal', /spool-store|checkpoint-journal|spool-files/],
  ['spool: reads', /stream-reader|spool-reader|spool-snapshot/],
  ['normalization', /dist\/normalize\//],
  ['API: JSON', /dist\/api\/json/],
  ['API: HTTP', /undici|dist\/api\/client|dist\/api\/paginate|node:net|llhttp/],
  ['reconciliation', /dist\/reconcile\//],
  ['journal, lots', /dist\/(lots|journal)\//],
  ['output files', /output-file|csv-table-writer|folder-table/],
  ['module loading', /node:internal\/modules|compileSourceTextModule|wrapSafe/],
];

export interface CategoryShare {
  category: string;
  seconds: number;
  share: number;
}

/** The busy seconds of the main thread by category (largest first), from the largest profile in `dir`. */
export function cpuCategories(dir: string): { busySeconds: number; categories: CategoryShare[] } {
  const files = readdirSync(dir).filter((f) => f.endsWith('.cpuprofile'));
  if (files.length === 0) throw new Error(`no .cpuprofile in ${dir}`);
  const largest = files.map((f) => path.join(dir, f)).sort((a, b) => readFileSync(b).length - readFileSync(a).length)[0] as string;
  const profile = JSON.parse(readFileSync(largest, 'utf8')) as { nodes: ProfileNode[]; samples: number[]; timeDeltas: number[] };
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const categoryOf = new Map<number, string>();
  const categorize = (id: number): string => {
    const known = categoryOf.get(id);
    if (known !== undefined) return known;
    const frame = (byId.get(id) as ProfileNode).callFrame;
    const label = `${frame.functionName || '(anonymous)'} ${frame.url}:${frame.lineNumber + 1}`;
    const own = CATEGORIES.find(([, pattern]) => pattern.test(label))?.[0];
    const up = parent.get(id);
    const category = own ?? (up === undefined ? 'other' : categorize(up));
    categoryOf.set(id, category);
    return category;
  };
  const micros = new Map<string, number>();
  let busy = 0;
  for (let i = 0; i < profile.samples.length; i++) {
    const id = profile.samples[i] as number;
    if ((byId.get(id) as ProfileNode).callFrame.functionName === '(idle)') continue;
    const dt = profile.timeDeltas[i] ?? 0;
    busy += dt;
    const category = categorize(id);
    micros.set(category, (micros.get(category) ?? 0) + dt);
  }
  const categories = [...micros].map(([category, us]) => ({ category, seconds: us / 1e6, share: busy === 0 ? 0 : us / busy })).sort((a, b) => b.seconds - a.seconds);
  return { busySeconds: busy / 1e6, categories };
}
