import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/**
 * The repository stands alone: a newcomer who clones it can follow every reference a comment or a
 * doc makes. Nothing may point outside the repository (a sibling `shared` folder, research notes,
 * the service's interface notes), every `*.md` a file names must exist here, and every `#anchor`
 * into one of our markdown files must name one of its headings (docs/style.md#smaller-conventions).
 *
 * This file is the one exemption from the scan: its detectors' own examples name what they forbid.
 */

const ROOT = resolve(fileURLToPath(new URL('.', import.meta.url)), '../../..');
const SELF = relative(ROOT, fileURLToPath(import.meta.url)).split(sep).join('/');
const SCANNED = ['src', 'test', 'bench', 'docs', 'README.md', 'config', 'deploy', 'scripts'];
/** Generated or installed trees, never part of the sources. */
const SKIPPED_DIRS = new Set(['node_modules', 'dist', 'data', 'coverage', 'out', 'reports', '.git']);

const OUTSIDE_DOCUMENTS = ['api-notes', 'deps-probe', 'reliability-anchors', 'payments-service-interface'];
const OUTSIDE_PATTERNS: ReadonlyArray<{ what: string; re: RegExp }> = [
  { what: 'a path into the shared folder beside the repository', re: /(?:\.\.\/|\/work\/)shared\b/g },
  ...OUTSIDE_DOCUMENTS.map((name) => ({ what: 'an outside document', re: new RegExp(String.raw`\b${name}\b`, 'g') })),
  // The service's interface notes were cited by section name or number: spec "Errors", interface "Limits", spec endpoint 11, spec §12.
  { what: 'a section of an outside specification', re: /\b(?:spec|interface)[ ,]+(?:"[A-Z][^"\n]*"|endpoint \d+|§\s*\d+)/g },
];

/** `docs/x.md`, `../y/z.md#anchor`, `x.md` — never the tail of a URL or of a longer path. */
const MARKDOWN_REF = /(?<![\w./-])((?:[\w.-]+\/)*[\w-][\w.-]*\.md)(?!\w)(?:#([\w-]+))?/g;
/** A repository path in backticks inside a markdown file: `src/x.ts`, `test/unit/*.test.ts`, `scripts/y.sh <args>`. */
const REPO_PATH = /`((?:src|test|bench|scripts|deploy|config|docs)\/[^`\s#:]*)[^`]*`/g;
/** Lines that cite another codebase's files (docs/style.md's "Model:" notes): their paths are not ours. */
const CITES_OTHER_CODEBASE = /Model:|in the manner of|graphile|stripe-node|octokit/;

/**
 * Files the docs name that live in a user's folder, not in this repository: what `init` writes and
 * every command finds by itself (src/config/config-file-choice.ts).
 */
const USER_FOLDER_FILES: ReadonlySet<string> = new Set(['config/payexport.json']);

/** A path that exists, or a glob (`*`, or the placeholder `NNN` of a numbered file) that matches a file in its folder. */
function repoPathExists(path: string): boolean {
  const clean = path.replace(/\/$/, '').replace(/NNN[\w-]*/g, '*');
  if (!clean.includes('*')) return existsSync(join(ROOT, clean)) || existsSync(join(ROOT, clean.replace(/\.js$/, '.ts')));
  const folder = dirname(clean);
  const pattern = new RegExp(`^${clean.slice(folder.length + 1).replace(/[.+?^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '.*')}$`);
  return existsSync(join(ROOT, folder)) && readdirSync(join(ROOT, folder)).some((name) => pattern.test(name));
}

/** `](#anchor)` inside a markdown file: a link to one of its own headings. */
const LOCAL_ANCHOR_LINK = /\]\(#([\w-]+)\)/g;

interface Finding {
  file: string;
  line: number;
  text: string;
}

function lineOf(text: string, index: number): number {
  let line = 1;
  for (let i = 0; i < index; i += 1) if (text.charCodeAt(i) === 10) line += 1;
  return line;
}

function walk(relativePath: string, into: string[]): void {
  const absolute = join(ROOT, relativePath);
  if (!existsSync(absolute)) return;
  if (statSync(absolute).isDirectory()) {
    for (const entry of readdirSync(absolute).sort()) if (!SKIPPED_DIRS.has(entry)) walk(join(relativePath, entry), into);
    return;
  }
  into.push(relativePath);
}

/** Every text file under the scanned roots, as [repo-relative path, content]. Binary files (a NUL byte) are left out. */
function scannedFiles(): Array<[string, string]> {
  const paths: string[] = [];
  for (const root of SCANNED) walk(root, paths);
  return paths
    .map((path): [string, string] => [path.split(sep).join('/'), readFileSync(join(ROOT, path), 'utf8')])
    .filter(([path, text]) => path !== SELF && !text.includes('\0'));
}

function outsideReferences(text: string): Array<{ index: number; text: string; what: string }> {
  const found: Array<{ index: number; text: string; what: string }> = [];
  for (const { what, re } of OUTSIDE_PATTERNS) for (const match of text.matchAll(re)) found.push({ index: match.index, text: match[0], what });
  return found.sort((a, b) => a.index - b.index);
}

function markdownReferences(text: string): Array<{ index: number; ref: string; anchor: string | null }> {
  return [...text.matchAll(MARKDOWN_REF)].map((match) => ({ index: match.index, ref: match[1] as string, anchor: match[2] ?? null }));
}

/**
 * The file a reference names, if it is inside the repository: relative to the citing file, to the
 * repository root, or (a bare name) to docs/. Null when none exists — or when the path leaves the
 * repository, even if something is there.
 */
function resolveReference(citingFile: string, ref: string): string | null {
  const candidates = [resolve(ROOT, dirname(citingFile), ref), resolve(ROOT, ref)];
  if (!ref.includes('/')) candidates.push(resolve(ROOT, 'docs', ref));
  for (const candidate of candidates) {
    const inside = relative(ROOT, candidate);
    if (inside.startsWith('..') || resolve(ROOT, inside) !== candidate) continue;
    if (existsSync(candidate) && statSync(candidate).isFile()) return inside.split(sep).join('/');
  }
  return null;
}

/** GitHub's heading ids: lower case, punctuation dropped, each space a hyphen; repeats get `-1`, `-2`, … */
function headingAnchors(markdown: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  let fenced = false;
  for (const line of markdown.split('\n')) {
    if (/^\s*(```|~~~)/.test(line)) fenced = !fenced;
    if (fenced) continue;
    for (const match of line.matchAll(/<a\s+(?:id|name)="([^"]+)"/g)) anchors.add(match[1] as string);
    const heading = /^#{1,6}\s+(.+?)\s*#*\s*$/.exec(line);
    if (!heading) continue;
    const slug = (heading[1] as string)
      .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\s_-]/gu, '')
      .replace(/\s/g, '-');
    const count = seen.get(slug) ?? 0;
    seen.set(slug, count + 1);
    anchors.add(count === 0 ? slug : `${slug}-${count}`);
  }
  return anchors;
}

const anchorsCache = new Map<string, Set<string>>();
function anchorsOf(repoPath: string): Set<string> {
  let anchors = anchorsCache.get(repoPath);
  if (!anchors) {
    anchors = headingAnchors(readFileSync(join(ROOT, repoPath), 'utf8'));
    anchorsCache.set(repoPath, anchors);
  }
  return anchors;
}

const format = (findings: Finding[]): string[] => findings.map((f) => `${f.file}:${f.line}: ${f.text}`);

describe('the detectors', () => {
  it('flag references outside the repository, and nothing of ours', () => {
    const flagged = (text: string) => outsideReferences(text).map((f) => f.text);
    expect(flagged('see ../shared/docs/style.md and /work/shared/spec')).toEqual(['../shared', '/work/shared']);
    expect(flagged('(api-notes "Webhooks"), deps-probe §2, research/reliability-anchors.md')).toEqual(['api-notes', 'deps-probe', 'reliability-anchors']);
    expect(flagged('(spec "Conventions"), (interface "Errors"), spec endpoint 11, spec §12')).toHaveLength(4);
    expect(flagged('docs/style.md#6-money; encodeStored(spec, row); interface Window {; shared_secret; a shared p-limit; the fault spec "503"')).toEqual([]);
  });

  it('find markdown references with their anchors, but not URLs', () => {
    const refs = (text: string) => markdownReferences(text).map((r) => `${r.ref}${r.anchor ? `#${r.anchor}` : ''}`);
    expect(refs('(docs/style.md#6-money; see contracts.md, [x](service-facts.md#amounts-and-fees).')).toEqual([
      'docs/style.md#6-money',
      'contracts.md',
      'service-facts.md#amounts-and-fees',
    ]);
    expect(refs('https://github.com/owner/repo/blob/main/docs/guide.md and README.mdx')).toEqual([]);
  });

  it('resolve only files inside the repository', () => {
    expect(resolveReference('src/util/log.ts', 'docs/style.md')).toBe('docs/style.md');
    expect(resolveReference('src/util/log.ts', 'style.md')).toBe('docs/style.md');
    expect(resolveReference('docs/design.md', 'contracts.md')).toBe('docs/contracts.md');
    expect(resolveReference('README.md', 'config/README.md')).toBe('config/README.md');
    expect(resolveReference('src/util/log.ts', 'docs/architecture.md')).toBeNull();
    // The sibling folder exists on the build machine; it still does not count.
    expect(resolveReference('README.md', '../shared/docs/style.md')).toBeNull();
  });

  it('find repository paths in backticks, globs included', () => {
    const paths = (text: string) => [...text.matchAll(REPO_PATH)].map((m) => m[1]);
    expect(paths('see `src/util/log.ts`, `test/cli/jobs-*.test.ts`, `scripts/render-workbook.sh <a> <b>` and `docs/x.md#y`')).toEqual(['src/util/log.ts', 'test/cli/jobs-*.test.ts', 'scripts/render-workbook.sh', 'docs/x.md']);
    expect(repoPathExists('test/cli/jobs-*.test.ts')).toBe(true);
    expect(repoPathExists('src/util/log.ts')).toBe(true);
    expect(repoPathExists('src/store/ports.ts')).toBe(false);
    expect(repoPathExists('test/nowhere/*.test.ts')).toBe(false);
    expect(repoPathExists('src/store/db/migrations/NNN_name.sql')).toBe(true);
  });

  it('compute heading anchors as GitHub does', () => {
    const anchors = headingAnchors(['# Title', '## 6. Money', '### `payments.csv` — sheet "Payments"', '### API misbehaviour (API)', '```', '## not a heading', '```', '## 6. Money', '<a id="custom"></a>'].join('\n'));
    expect([...anchors].sort()).toEqual(['6-money', '6-money-1', 'api-misbehaviour-api', 'custom', 'paymentscsv--sheet-payments', 'title']);
  });
});

describe('the repository stands alone', () => {
  const files = scannedFiles();

  it('scans the real tree', () => {
    const paths = files.map(([path]) => path);
    expect(paths).toContain('src/util/exit-codes.ts');
    expect(paths).toContain('README.md');
    expect(paths).toContain('docs/style.md');
    expect(paths.length).toBeGreaterThan(300);
  });

  it('no file points outside the repository or names an outside document', () => {
    const findings: Finding[] = [];
    for (const [file, text] of files) for (const found of outsideReferences(text)) findings.push({ file, line: lineOf(text, found.index), text: `${found.what}: ${found.text}` });
    expect(format(findings)).toEqual([]);
  });

  it('every markdown file a file names exists in the repository', () => {
    const findings: Finding[] = [];
    for (const [file, text] of files) {
      for (const ref of markdownReferences(text)) if (resolveReference(file, ref.ref) === null) findings.push({ file, line: lineOf(text, ref.index), text: ref.ref });
    }
    expect(format(findings)).toEqual([]);
  });

  it('every repository path a markdown file names in backticks exists', () => {
    const findings: Finding[] = [];
    let checked = 0;
    for (const [file, text] of files) {
      if (!file.endsWith('.md')) continue;
      for (const match of text.matchAll(REPO_PATH)) {
        const lineStart = text.lastIndexOf('\n', match.index) + 1;
        const lineEnd = text.indexOf('\n', match.index);
        if (CITES_OTHER_CODEBASE.test(text.slice(lineStart, lineEnd === -1 ? undefined : lineEnd))) continue;
        checked += 1;
        if (!USER_FOLDER_FILES.has(match[1] as string) && !repoPathExists(match[1] as string)) findings.push({ file, line: lineOf(text, match.index), text: match[1] as string });
      }
    }
    expect(format(findings)).toEqual([]);
    expect(checked).toBeGreaterThan(50);
  });

  it('every #anchor into a markdown file names one of its headings', () => {
    const findings: Finding[] = [];
    let checked = 0;
    for (const [file, text] of files) {
      for (const ref of markdownReferences(text)) {
        const target = ref.anchor === null ? null : resolveReference(file, ref.ref);
        if (target === null || ref.anchor === null) continue;
        checked += 1;
        if (!anchorsOf(target).has(ref.anchor)) findings.push({ file, line: lineOf(text, ref.index), text: `${ref.ref}#${ref.anchor}` });
      }
      if (!file.endsWith('.md')) continue;
      for (const link of text.matchAll(LOCAL_ANCHOR_LINK)) {
        checked += 1;
        if (!anchorsOf(file).has(link[1] as string)) findings.push({ file, line: lineOf(text, link.index), text: `#${link[1] as string}` });
      }
    }
    expect(format(findings)).toEqual([]);
    expect(checked).toBeGreaterThan(50);
  });
});
