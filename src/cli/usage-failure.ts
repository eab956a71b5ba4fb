/**
 * yargs' usage failures, said as what the person did. yargs checks required options before
 * unknown ones, so `export --bogus-flag` would say "Missing required arguments: from, to" — the
 * typo is the thing to fix, so an option the command does not know is named first. A command
 * given without the word that says what to do (`prices`, `notify`) names the words it takes
 * instead of "Not enough non-option arguments". A mistyped option gets the "did you mean" an
 * unknown command gets from yargs (`--form` → `--format`), which yargs' strict mode does not give.
 */
import { closestOption } from '../util/did-you-mean.js';
import { AppError } from '../util/errors.js';

interface ParserView {
  getOptions(): { key: Record<string, unknown>; alias: Record<string, string[]>; choices: Record<string, unknown[]> };
  getInternalMethods?(): { getCommandInstance(): { getCommands(): string[] } };
}

/** `--bogus-flag=x` → `bogus-flag`; `--no-db` → `db`; a short `-x` → `x`. */
function optionName(token: string): string {
  return token.replace(/^--?/, '').split('=')[0]!.replace(/^no-/, '');
}

const camel = (name: string): string => name.replace(/-([a-z])/g, (_m, c: string) => c.toUpperCase());

/** The options in `argv` that the command's parser does not know. */
export function unknownOptions(argv: readonly string[], parser: ParserView): string[] {
  const options = parser.getOptions();
  const known = new Set<string>(['help', 'h', 'version']);
  for (const key of Object.keys(options.key)) known.add(key);
  for (const [key, aliases] of Object.entries(options.alias)) {
    known.add(key);
    for (const alias of aliases) known.add(alias);
  }
  const out: string[] = [];
  for (const token of argv) {
    if (token === '--') break;
    if (!token.startsWith('-') || /^-\d/.test(token)) continue;
    const name = optionName(token);
    if (name !== '' && !known.has(name) && !known.has(camel(name))) out.push(name);
  }
  return out;
}

/** The command's own long option names, as a person types them (`--format`, not yargs' camelCase twins). */
function longOptions(parser: ParserView): string[] {
  const options = parser.getOptions();
  const names = [...Object.keys(options.key), ...Object.values(options.alias).flat()];
  return [...new Set(names.filter((name) => name.length > 1 && !/[A-Z]/.test(name)))];
}

/** `Unknown argument: form — did you mean --format?`; with several, each its own suggestion. */
function unknownOptionsMessage(unknown: readonly string[], parser: ParserView): string {
  const known = longOptions(parser);
  const suggested = unknown.map((name) => ({ name, near: closestOption(name, known) }));
  if (suggested.length === 1) return `Unknown argument: ${unknown[0]!}${suggested[0]!.near === undefined ? '' : ` — did you mean --${suggested[0]!.near}?`}`;
  return `Unknown arguments: ${suggested.map((s) => (s.near === undefined ? s.name : `${s.name} (did you mean --${s.near}?)`)).join(', ')}`;
}

/** The AppError for a yargs failure message (usage, exit 64). */
export function usageFailure(message: string, argv: readonly string[], parser: ParserView | undefined): AppError {
  if (parser !== undefined && /^(Missing required argument|Unknown arguments?:)/.test(message)) {
    const unknown = unknownOptions(argv, parser);
    if (unknown.length > 0) return new AppError('usage', 'unknown_option', unknownOptionsMessage(unknown, parser));
  }
  if (parser !== undefined && /^Not enough non-option arguments/.test(message)) {
    const command = argv.find((a) => !a.startsWith('-')) ?? '';
    const choices = Object.values(parser.getOptions().choices)[0] ?? parser.getInternalMethods?.().getCommandInstance().getCommands().map((c) => c.split(' ')[0]) ?? [];
    if (choices.length > 0) return new AppError('usage', 'bad_usage', `name what to do: ${choices.map((c) => `payexport ${command} ${String(c)}`).join(', or ')}`);
  }
  return new AppError('usage', 'bad_usage', message);
}
