/**
 * Which exit codes a command's code can produce, read from the source: the modules its command file
 * reaches through runtime imports (static and dynamic; `import type` brings no code), and in each
 * the exits it names — `new AppError('tempFail', …)`, `usageError(…)` (64), `configError(…)` (78),
 * `ExitCode.dataErr`, `exitCode: … 65 …` — and the AppError subclasses it constructs, each with
 * the exit of its `super('x', …)` or, when the exit is decided at run time (`super(EXIT[kind], …)`),
 * every exit name its module's tables spell. An upper bound: a reachable throw may be caught on
 * the way (the reviewed exceptions live in the test).
 */
import { existsSync, readFileSync } from 'node:fs';
import { join, posix } from 'node:path';
import { ExitCode, type ExitCodeName } from '../../src/util/exit-codes.js';

const NAMES = Object.keys(ExitCode) as ExitCodeName[];
const NAME_ALTERNATION = NAMES.join('|');

/** Runtime imports only: `import type` / `export type` bring no code that can throw. */
const RUNTIME_IMPORT = /(?:^\s*import\s+(?!type\b)[^'"]*?from\s*|^\s*export\s+(?!type\b)[^'"]*?from\s*|\bimport\s*\(\s*|^\s*import\s+)(['"])(\.{1,2}\/[^'"]+)\1/gm;

export function runtimeImports(source: string): string[] {
  return [...source.matchAll(RUNTIME_IMPORT)].map((m) => m[2]!);
}

/** A class of AppError and the exits its constructor can carry: counted where it is constructed. */
interface ErrorClass {
  name: string;
  exits: Set<ExitCodeName>;
}

function literalExits(source: string): Set<ExitCodeName> {
  return new Set([...source.matchAll(new RegExp(`'(${NAME_ALTERNATION})'`, 'g'))].map((m) => m[1] as ExitCodeName));
}

/** The AppError subclasses a module defines: a literal `super('x', …)`, or an exit from its own tables. */
export function errorClassesIn(source: string): ErrorClass[] {
  const out: ErrorClass[] = [];
  for (const m of source.matchAll(/class (\w+) extends (\w*Error)\b[\s\S]*?super\(\s*([^,)]*)/g)) {
    const literal = new RegExp(`^'(${NAME_ALTERNATION})'$`).exec(m[3]!.trim());
    out.push({ name: m[1]!, exits: literal ? new Set([literal[1] as ExitCodeName]) : literalExits(source) });
  }
  return out;
}

/** The exit names one module raises or returns itself (its error classes count where they are built). */
export function exitNamesIn(source: string, classes: readonly ErrorClass[] = errorClassesIn(source)): Set<ExitCodeName> {
  const found = new Set<ExitCodeName>();
  for (const m of source.matchAll(new RegExp(`new AppError\\(\\s*'(${NAME_ALTERNATION})'`, 'g'))) found.add(m[1] as ExitCodeName);
  for (const m of source.matchAll(new RegExp(`\\bExitCode\\.(${NAME_ALTERNATION})\\b`, 'g'))) found.add(m[1] as ExitCodeName);
  // a job's result carries its exit as a number: `exitCode: exceptions ? 65 : 0` (a comparison is no exit)
  for (const m of source.matchAll(/\bexitCode\b\s*[:=](?!=)[^;\n]*/g)) for (const n of m[0].matchAll(/\b(\d{1,3})\b/g)) for (const name of NAMES) if (ExitCode[name] === Number(n[1])) found.add(name);
  if (/\busageError\(/.test(source)) found.add('usage');
  if (/\bconfigError\(/.test(source)) found.add('config');
  // an AppError whose exit is decided at run time, from this module's tables
  if (/new AppError\(\s*[a-z][\w.[\]]*\s*,/.test(source)) for (const name of literalExits(source)) found.add(name);
  for (const c of classes) if (new RegExp(`\\bnew ${c.name}\\(`).test(source)) for (const name of c.exits) found.add(name);
  return found;
}

/** Every module `entry` (a path under `root`, e.g. `src/cli/commands/init.ts`) reaches at run time. */
export function reachableModules(root: string, entry: string): string[] {
  const seen = new Set<string>();
  const queue = [entry];
  while (queue.length > 0) {
    const file = queue.pop()!;
    if (seen.has(file) || !existsSync(join(root, file))) continue;
    seen.add(file);
    for (const spec of runtimeImports(readFileSync(join(root, file), 'utf8'))) {
      queue.push(posix.normalize(posix.join(posix.dirname(file), spec)).replace(/\.js$/, '.ts'));
    }
  }
  return [...seen].sort();
}

/** Where the codes are defined, not raised: they name every code and raise none. */
const DEFINITIONS = new Set(['src/util/errors.ts', 'src/util/exit-codes.ts']);

/** exit code → the modules that can produce it, for everything `entries` reach. */
export function reachableExitCodes(root: string, entries: readonly string[]): Map<number, string[]> {
  const byCode = new Map<number, string[]>();
  const modules = [...new Set(entries.flatMap((entry) => reachableModules(root, entry)))].filter((f) => !DEFINITIONS.has(f)).sort();
  const sources = new Map(modules.map((file) => [file, readFileSync(join(root, file), 'utf8')]));
  const classes = [...sources.values()].flatMap((source) => errorClassesIn(source));
  for (const [file, source] of sources) {
    for (const name of exitNamesIn(source, classes)) {
      const code = ExitCode[name];
      byCode.set(code, [...(byCode.get(code) ?? []), file]);
    }
  }
  return byCode;
}
