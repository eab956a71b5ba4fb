/**
 * No function in src/ is longer than 80 lines (docs/style.md): a longer one holds several steps
 * that want names of their own. A parser's table or a generated file may be longer only where the
 * file says why, in a comment `function-length: <why>` on the line above the function. Lines are
 * counted from the function's first line to its last, comments included, as a reader sees them.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(fileURLToPath(new URL('.', import.meta.url)), '../../..');
const LIMIT = 80;

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? sources(join(dir, e.name)) : e.name.endsWith('.ts') ? [join(dir, e.name)] : []));
}

/** Every function, method, arrow and accessor longer than `limit` lines, with where it starts. */
function longFunctions(path: string, text: string, limit: number): string[] {
  const file = ts.createSourceFile(path, text, ts.ScriptTarget.Latest, true);
  const lines = text.split('\n');
  const found: string[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isFunctionLike(node) && 'body' in node && node.body !== undefined) {
      const first = file.getLineAndCharacterOfPosition(node.getStart(file)).line;
      const last = file.getLineAndCharacterOfPosition(node.getEnd()).line;
      const excused = /function-length:/.test(lines[first - 1] ?? '');
      if (last - first + 1 > limit && !excused) found.push(`${path}:${first + 1} (${last - first + 1} lines)`);
    }
    ts.forEachChild(node, visit);
  };
  visit(file);
  return found;
}

describe('functions in src/', () => {
  it(`are at most ${LIMIT} lines`, () => {
    const found = sources(join(ROOT, 'src')).flatMap((file) => longFunctions(file.slice(ROOT.length + 1), readFileSync(file, 'utf8'), LIMIT));
    expect(found).toEqual([]);
  });

  it('the count would catch a long one, and honours an excuse said in the file', () => {
    const body = Array.from({ length: 85 }, (_, i) => `  const a${i} = ${i};`).join('\n');
    expect(longFunctions('x.ts', `function long() {\n${body}\n}\n`, LIMIT)).toEqual(['x.ts:1 (87 lines)']);
    expect(longFunctions('x.ts', `const f = () => {\n${body}\n};\n`, LIMIT)).toHaveLength(1);
    expect(longFunctions('x.ts', `// function-length: a parser's table\nfunction table() {\n${body}\n}\n`, LIMIT)).toEqual([]);
    expect(longFunctions('x.ts', `function short() {\n  return 1;\n}\n`, LIMIT)).toEqual([]);
  });
});
