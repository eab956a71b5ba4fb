import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { COMMON_OPTIONS, OPTION_SETS, type CommonOption, type OptionSet } from '../../src/cli/common-options.js';
import { assertBuilt, describeRun, ROOT, runCli } from '../support/cli/cli.js';
import { workspace } from '../support/cli/workspace.js';

/**
 * Every registered command's `--help` shows only the options its code reads — found generically:
 * the commands are those the top-level help lists (a new command module is held without touching
 * this file), each command's options are those its own help prints, and what its code reads is
 * read from its module's source: its own flags as `args.x` / `args['x']`, the shared ones through
 * the option set it names (src/cli/common-options.ts), which reach the code only through
 * flagsFromArgs (run-job.ts' runJob / loadCliConfig). And an unknown command is exit 64, with or
 * without --help.
 */

const ws = workspace('help-options');
const COMMANDS_DIR = join(ROOT, 'src/cli/commands');
const sources = readdirSync(COMMANDS_DIR).filter((f) => f.endsWith('.ts')).map((f) => ({ file: f, text: readFileSync(join(COMMANDS_DIR, f), 'utf8') }));
const kebab = (name: string): string => name.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);
const commonSource = readFileSync(join(ROOT, 'src/cli/common-options.ts'), 'utf8');
/** What the flags layer reads (for every command that loads a config) and what runJob reads besides (for job commands). */
const flagsLayerReads = ownReads(commonSource.slice(commonSource.indexOf('export function flagsFromArgs')));
const runJobReads = ownReads(readFileSync(join(ROOT, 'src/cli/run-job.ts'), 'utf8'));

/** `--name` at the start of an option line of a yargs help page (`--help` and `--version` are yargs' own). */
function shownOptions(help: string): string[] {
  const names = [...help.matchAll(/^ {2}(?:-\w, )?--([a-z][a-z0-9-]*)/gm)].map((m) => m[1]!);
  return [...new Set(names)].filter((n) => n !== 'help' && n !== 'version');
}

/** The module that registers `name` (`command: 'name'` or `command: 'name <positional>'`). */
function moduleOf(name: string): { file: string; text: string } {
  // a CommandModule: `command: '…'` followed by its `describe:` (a job spec's `command:` is not one)
  const found = sources.filter((s) => new RegExp(`command:\\s*'${name}(?: [^']*)?',\\s*describe:`).test(s.text));
  expect(found.map((s) => s.file), `one module registers ${name}`).toHaveLength(1);
  return found[0]!;
}

/** Flags a module's code reads from its parsed arguments (`args.fooBar`, `args['foo-bar']`). */
function ownReads(text: string): Set<string> {
  const reads = new Set<string>();
  for (const m of text.matchAll(/\bargs(?:\[\s*'([a-z0-9-]+)'\s*\]|\.([A-Za-z][A-Za-z0-9]*))/g)) reads.add(m[1] ?? kebab(m[2]!));
  return reads;
}

/** The module declares the flag itself (`.option('name'`), as demo does for --tz or --out. */
function ownDeclares(text: string, name: string): boolean {
  return text.includes(`.option('${name}'`);
}

/** The shared options a module takes: the sets it names in its withCommonOptions calls (default `pull`). */
function commonOptionsOf(text: string): Set<CommonOption> {
  const calls = [...text.matchAll(/withCommonOptions\(/g)].length;
  if (calls === 0) return new Set();
  const named = [...text.matchAll(/withCommonOptions\((?:[^()]|\([^()]*(?:\([^()]*\))*[^()]*\))*?,\s*'(\w+)'/g)].map((m) => m[1] as OptionSet);
  const sets: OptionSet[] = named.length < calls ? [...named, 'pull'] : named;
  return new Set(sets.flatMap((s) => OPTION_SETS[s] ?? []));
}

let commands: string[] = [];
beforeAll(async () => {
  assertBuilt();
  const top = await runCli(['--help'], { cwd: ws.root });
  commands = [...top.stdout.matchAll(/^ {2}payexport ([a-z][a-z-]*)/gm)].map((m) => m[1]!).filter((c, i, all) => all.indexOf(c) === i);
});
afterAll(() => ws.remove());

describe("each command's --help", () => {
  it('finds the registered commands', () => {
    expect(commands.length).toBeGreaterThanOrEqual(11);
    expect(commands).toEqual(expect.arrayContaining(['export', 'report', 'listen', 'webhooks', 'sim', 'demo']));
  });

  it('shows only options its code reads, for every registered command', async () => {
    expect(commands.length).toBeGreaterThan(0);
    for (const command of commands) {
      const result = await runCli([command, '--help'], { cwd: ws.root });
      expect(result.code, describeRun([command, '--help'], result)).toBe(0);
      const { file, text } = moduleOf(command);
      const common = commonOptionsOf(text);
      const reads = new Set([
        ...ownReads(text),
        ...(/\b(runJob|loadCliConfig)\(/.test(text) ? flagsLayerReads : []),
        ...(/\brunJob\(/.test(text) ? runJobReads : []),
      ]);
      for (const option of shownOptions(result.stdout)) {
        expect(reads.has(option), `${command} --help shows --${option}, which ${file} never reads`).toBe(true);
        if ((COMMON_OPTIONS as readonly string[]).includes(option) && !ownDeclares(text, option)) expect(common.has(option as CommonOption), `${command}: --${option} comes from its option set`).toBe(true);
      }
    }
  }, 120_000);

  it('listen shows no report, period or sharding options (a listener writes no report)', async () => {
    const result = await runCli(['listen', '--help'], { cwd: ws.root });
    for (const flag of ['tz', 'out', 'format', 'lookback-days', 'dry-run', 'shard']) expect(shownOptions(result.stdout)).not.toContain(flag);
    for (const flag of ['secrets-file', 'port', 'organization', 'schema']) expect(shownOptions(result.stdout)).toContain(flag);
  });
});

describe('a mistyped option', () => {
  // unknown commands got "Did you mean …?" from yargs; unknown options got nothing (issue 52)
  for (const [args, near] of [[['month-end', '--form', 'csv'], 'format'], [['doctor', '--verbos'], 'verbose'], [['export', '--form', 'csv'], 'format']] as const) {
    it(`payexport ${args.join(' ')} → 64, one line on stderr naming --${near}`, async () => {
      const result = await runCli(args, { cwd: ws.root });
      expect(result.code, describeRun(args, result)).toBe(64);
      expect(result.stdout).toBe('');
      expect(result.stderr.trim().split('\n')).toHaveLength(1);
      expect(result.stderr).toMatch(new RegExp(`^payexport: Unknown argument: ${args[1].slice(2)} — did you mean --${near}\\? \\(see \`payexport ${args[0]} --help\`\\)$`, 'm'));
    });
  }
});

describe('an unknown command', () => {
  for (const args of [['nonsense'], ['nonsense', '--help'], ['nonsense', '-h'], ['expor', '--help', '--from', '2026-10-01']]) {
    it(`payexport ${args.join(' ')} → 64, one line on stderr`, async () => {
      const result = await runCli(args, { cwd: ws.root });
      expect(result.code, describeRun(args, result)).toBe(64);
      expect(result.stdout).toBe('');
      expect(result.stderr.trim().split('\n')).toHaveLength(1);
      expect(result.stderr).toMatch(/^payexport: (Unknown argument: nonsense|Did you mean export\?)/);
    });
  }

  it('a known command with --help still prints its help (exit 0)', async () => {
    const result = await runCli(['sim', '--help'], { cwd: ws.root });
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('--profile');
  });
});
