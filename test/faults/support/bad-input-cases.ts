/**
 * The generator of the bad-input suite (test/faults/bad-input.generated.test.ts): fast-check
 * arbitraries for one run of the CLI with one to three things wrong at once — flags, dates, zones,
 * windows, shard specs, numbers, config files, environment, output paths, base URLs, databases.
 * Each fault carries the exit codes the contract (docs/reliability.md, src/util/exit-codes.ts)
 * allows for it; a run with several faults must answer with one of theirs. Values that depend on
 * the test's servers and folders are symbolic here and resolved when the case runs.
 */
import fc from 'fast-check';

export const PLANTED_CONFIG_SECRET = 'vltg_PLANTEDinCONFIG_5e1b9d3f7a2c4e6b8d0f';
export const PLANTED_DB_PASSWORD = 'PLANTEDdbPASS-c4a8e2f6b0d1';
export const PLANTED_FLAG_SECRET = 'vltg_PLANTEDasFLAG_0a2c4e6b8d1f3a5c7e9b';
export const CASE_SECRETS = [PLANTED_CONFIG_SECRET, PLANTED_DB_PASSWORD, PLANTED_FLAG_SECRET] as const;

export type Command = 'export' | 'nightly' | 'month-end';

/** Where a symbolic value points; resolved by the runner. */
export type Place =
  | { kind: 'literal'; value: string }
  | { kind: 'cwd'; path: string }
  | { kind: 'closed-port' }
  | { kind: 'silent-port' }
  | { kind: 'junk-api'; route: JunkRoute }
  | { kind: 'full-disk' }
  | { kind: 'read-only' };

export type JunkRoute = 'html' | 'garbage' | 'wrong-shape' | 'always-500' | 'always-401';

export interface Fault {
  family: Family;
  label: string;
  /** the exit codes the contract allows for this fault alone */
  codes: readonly number[];
  args?: readonly string[];
  /** replaces the values of period flags (--from, --to, --date, --month) */
  period?: Readonly<Record<string, string>>;
  env?: Readonly<Record<string, string>>;
  /** merged into the config file, or the file's whole raw text */
  config?: { merge: Record<string, unknown> } | { raw: string } | { missing: true };
  out?: Place;
  baseUrl?: Place;
  databaseUrl?: { place: Place; password: boolean };
  /** a database fault: the run needs its database, so no --no-db */
  needsDb?: boolean;
}

export const FAMILIES = ['unknown-flag', 'bad-date', 'bad-window', 'bad-zone', 'bad-shard', 'bad-number', 'bad-format', 'config-file', 'environment', 'output-path', 'base-url', 'database'] as const;
export type Family = (typeof FAMILIES)[number];

export interface GeneratedCase {
  command: Command;
  jsonLogFlag: boolean;
  quiet: boolean;
  csvOnly: boolean;
  faults: Fault[];
}

/** Every option the job commands know (common-options.ts and the period flags): an invented flag must not be one. */
const KNOWN_OPTIONS = new Set([
  'config', 'base-url', 'organization', 'environment', 'wallet', 'shard', 'tz', 'out', 'format', 'database-url', 'db', 'schema', 'data-dir',
  'concurrency', 'page-size', 'lookback-days', 'dry-run', 'log-format', 'quiet', 'verbose', 'print-config', 'help', 'version',
  'from', 'to', 'date', 'month', 'allow-open', 'job',
]);

const USAGE = [64] as const;
const CONFIG = [78] as const;

const unknownFlag: fc.Arbitrary<Fault> = fc.oneof(
  fc.constantFrom('--frmo', '--colour', '--dry', '--verbse', '--out-dir', '--timezone', '--concurency').map((flag): Fault => ({ family: 'unknown-flag', label: flag, codes: USAGE, args: [flag, 'x'] })),
  // a secret given as a flag must be refused without being echoed
  fc.constantFrom('--api-key', '--password', '--bearer-token').map((flag): Fault => ({ family: 'unknown-flag', label: `${flag} <secret>`, codes: USAGE, args: [`${flag}=${PLANTED_FLAG_SECRET}`] })),
  fc
    .stringMatching(/^[a-z][a-z-]{2,14}$/)
    .filter((name) => !KNOWN_OPTIONS.has(name) && !name.startsWith('no-') && !name.endsWith('-'))
    .map((name): Fault => ({ family: 'unknown-flag', label: `--${name}`, codes: USAGE, args: [`--${name}`] })),
);

const GARBAGE_DATES = ['31/10/2026', '2026-13-01', '2026-02-30', 'yesterday', '', ' ', '2026-10-01T00:00:00Z', '../../etc/cron.d', '२०२६-१०-०१', '2026-1-5', '20261001', '2026-10-01; rm -rf /'];
const GARBAGE_MONTHS = ['2026-13', '10/2026', 'October', '', '2026-10-01', '../2026-10', '2026-00'];

function badDate(command: Command): fc.Arbitrary<Fault> {
  const flag = command === 'export' ? fc.constantFrom('--from', '--to') : fc.constant(command === 'nightly' ? '--date' : '--month');
  const value = fc.oneof(
    fc.constantFrom(...(command === 'month-end' ? GARBAGE_MONTHS : GARBAGE_DATES)),
    // anything printable: never a real date, since a date needs digits in place
    fc.string({ minLength: 1, maxLength: 16 }).map((s) => `x${s}`),
  );
  return fc.tuple(flag, value).map(([f, v]): Fault => ({ family: 'bad-date', label: `${f} ${JSON.stringify(v)}`, codes: USAGE, period: { [f]: v } }));
}

function badWindow(command: Command): fc.Arbitrary<Fault> {
  if (command === 'export') {
    return fc.constantFrom(
      { label: 'reversed range', from: '2026-10-31', to: '2026-10-01' },
      { label: 'range in the future', from: '2099-01-01', to: '2099-01-31' },
    ).map((w): Fault => ({ family: 'bad-window', label: w.label, codes: USAGE, period: { '--from': w.from, '--to': w.to } }));
  }
  const value = command === 'nightly' ? '2099-01-01' : '2099-01';
  return fc.constant<Fault>({ family: 'bad-window', label: `${value} (future)`, codes: USAGE, period: { [command === 'nightly' ? '--date' : '--month']: value } });
}

const badZone: fc.Arbitrary<Fault> = fc
  .oneof(fc.constantFrom('Mars/Olympus_Mons', 'UTC+25', 'America/New York', 'Europe/../etc', 'EST5EDT,M3', '+25:00'), fc.string({ minLength: 1, maxLength: 12 }).map((s) => `Nowhere/${s}!`))
  .map((tz): Fault => ({ family: 'bad-zone', label: `--tz ${JSON.stringify(tz)}`, codes: USAGE, args: ['--tz', tz] }));

const badShard: fc.Arbitrary<Fault> = fc
  .oneof(fc.constantFrom('3/2', '2/2', 'a/b', '1/0', '0/0', '2', '1/2/3', '1/-2', ' 1/2x'), fc.tuple(fc.nat(20), fc.nat(20)).filter(([k, n]) => k >= n).map(([k, n]) => `${k}/${n}`))
  .map((shard): Fault => ({ family: 'bad-shard', label: `--shard ${shard}`, codes: USAGE, args: [`--shard=${shard}`] }));

const badNumber: fc.Arbitrary<Fault> = fc
  .oneof(
    fc.tuple(fc.constant('--concurrency'), fc.constantFrom('abc', '0', '65', '1.5', '1e3', '0x10', '', 'eight')),
    fc.tuple(fc.constant('--page-size'), fc.constantFrom('abc', '0', '5000', '2.5', '-3', '')),
    fc.tuple(fc.constant('--lookback-days'), fc.constantFrom('seven', '-1', '367', '1.5')),
  )
  .map(([flag, value]): Fault => ({ family: 'bad-number', label: `${flag} ${JSON.stringify(value)}`, codes: USAGE, args: [`${flag}=${value}`] }));

const badFormat: fc.Arbitrary<Fault> = fc
  .constantFrom('pdf', 'csv;xlsx', 'xls', 'csv,pdf', ',')
  .map((format): Fault => ({ family: 'bad-format', label: `--format ${format}`, codes: USAGE, args: ['--format', format] }));

const KNOWN_CONFIG_KEYS = new Set(['baseUrl', 'organization', 'environments', 'wallets', 'tz', 'out', 'formats', 'databaseUrl', 'databaseUrlFile', 'db', 'dbSchema', 'dataDir', 'concurrency', 'pageSize', 'lookbackDays', 'requestTimeoutMs', 'retry', 'csv', 'logFormat', 'logLevel', 'shard']);

const configFile: fc.Arbitrary<Fault> = fc.oneof(
  fc.constantFrom('{ "tz": "UTC", }', 'tz = "UTC"', '', '[1, 2]', 'null', '{"tz": "UTC"', '\u0000\u0001binary').map((raw): Fault => ({ family: 'config-file', label: `not a JSON object: ${JSON.stringify(raw)}`, codes: CONFIG, config: { raw } })),
  fc
    .constantFrom<Record<string, unknown>>({ concurrency: 'eight' }, { tz: 5 }, { formats: 'csv' }, { retry: { maxAttempts: '3' } }, { db: 'yes' }, { pageSize: -1 }, { environments: {} }, { organization: 'acme' })
    .map((merge): Fault => ({ family: 'config-file', label: `wrong type ${JSON.stringify(merge)}`, codes: CONFIG, config: { merge } })),
  fc
    .oneof(
      fc.constantFrom<Record<string, unknown>>({ concurency: 4 }, { retry: { maxAttemps: 3 } }, { csv: { delimiter: ';' } }, { Tz: 'UTC' }),
      fc.stringMatching(/^[a-z][a-zA-Z]{2,12}$/).filter((key) => !KNOWN_CONFIG_KEYS.has(key)).map((key) => ({ [key]: true })),
    )
    .map((merge): Fault => ({ family: 'config-file', label: `unknown key ${JSON.stringify(merge)}`, codes: CONFIG, config: { merge } })),
  fc
    .constantFrom<Record<string, unknown>>(
      { apiKey: PLANTED_CONFIG_SECRET },
      { bearerToken: PLANTED_CONFIG_SECRET },
      { environments: [{ id: '3f099f72-e10f-44ad-89e5-5ff532e2572d', apiKey: PLANTED_CONFIG_SECRET }] },
      { databaseUrl: `postgres://payexport:${PLANTED_DB_PASSWORD}@127.0.0.1:1/books` },
    )
    .map((merge): Fault => ({ family: 'config-file', label: `a secret inside (${Object.keys(merge)[0]})`, codes: CONFIG, config: { merge } })),
  fc.constant<Fault>({ family: 'config-file', label: 'a config file that is not there', codes: CONFIG, config: { missing: true } }),
);


const environment: fc.Arbitrary<Fault> = fc
  .constantFrom<Record<string, string>>(
    { PAYEXPORT_TZ: 'Mars/Base' },
    { PAYEXPORT_CONCURRENCY: 'abc' },
    { PAYEXPORT_CONCURRENCY: '0' },
    { PAYEXPORT_SHARD: '9/2' },
    { PAYEXPORT_LOG_FORMAT: 'xml' },
    { PAYEXPORT_ORGANIZATION_ID: 'not-a-uuid' },
    { PAYEXPORT_BASE_URL: 'ftp://example.com/v1' },
  )
  .map((env): Fault => ({ family: 'environment', label: Object.entries(env).map(([k, v]) => `${k}=${v}`).join(' '), codes: CONFIG, env }));

export interface OutputAbilities {
  /** a 64 KiB tmpfs could be mounted (root and a kernel that lets us) */
  fullDisk: boolean;
  /** a read-only folder exists: a read-only tmpfs, or chmod 0500 when not root */
  readOnly: boolean;
}

function outputPath(abilities: OutputAbilities): fc.Arbitrary<Fault> {
  const places: Array<{ label: string; place: Place }> = [
    { label: '/proc/…', place: { kind: 'literal', value: '/proc/payexport-forbidden' } },
    { label: '/proc/…/deeper', place: { kind: 'literal', value: '/proc/payexport-forbidden/a/b' } },
    { label: '/sys/…', place: { kind: 'literal', value: '/sys/payexport-forbidden' } },
    { label: '/dev/null/x', place: { kind: 'literal', value: '/dev/null/x' } },
    { label: 'a file as the folder', place: { kind: 'cwd', path: 'a-file' } },
    { label: 'below a file', place: { kind: 'cwd', path: 'a-file/reports' } },
    ...(abilities.fullDisk ? [{ label: 'a full disk (64 KiB tmpfs)', place: { kind: 'full-disk' } as Place }] : []),
    ...(abilities.readOnly ? [{ label: 'a read-only folder', place: { kind: 'read-only' } as Place }] : []),
  ];
  return fc.constantFrom(...places).map(({ label, place }): Fault => ({ family: 'output-path', label: `--out ${label}`, codes: [74], out: place }));
}

const baseUrl: fc.Arbitrary<Fault> = fc.constantFrom<Fault>(
  { family: 'base-url', label: 'a closed port', codes: [69], baseUrl: { kind: 'closed-port' } },
  { family: 'base-url', label: 'a port that never answers', codes: [69], baseUrl: { kind: 'silent-port' } },
  { family: 'base-url', label: 'an HTML page for every request', codes: [69], baseUrl: { kind: 'junk-api', route: 'html' } },
  { family: 'base-url', label: 'random bytes for every request', codes: [69], baseUrl: { kind: 'junk-api', route: 'garbage' } },
  // well-formed JSON of the wrong shape: the API sent data that cannot be booked (65) or the service is unusable (69)
  { family: 'base-url', label: 'JSON of the wrong shape', codes: [65, 69], baseUrl: { kind: 'junk-api', route: 'wrong-shape' } },
  { family: 'base-url', label: '500 for every request', codes: [69], baseUrl: { kind: 'junk-api', route: 'always-500' } },
  { family: 'base-url', label: '401 for every request', codes: [77], baseUrl: { kind: 'junk-api', route: 'always-401' } },
  { family: 'base-url', label: 'the real API over plain http', codes: [78], baseUrl: { kind: 'literal', value: 'http://voltageapi.com/v1' } },
  { family: 'base-url', label: 'not a URL', codes: [64], baseUrl: { kind: 'literal', value: 'not a url' } },
);

const database: fc.Arbitrary<Fault> = fc.constantFrom<Fault>(
  { family: 'database', label: 'a closed port', codes: [75], databaseUrl: { place: { kind: 'closed-port' }, password: true }, needsDb: true },
  { family: 'database', label: 'a server that never answers', codes: [75], databaseUrl: { place: { kind: 'silent-port' }, password: true }, needsDb: true },
  { family: 'database', label: 'a host that does not resolve', codes: [75], databaseUrl: { place: { kind: 'literal', value: 'db.payexport.invalid:5432' }, password: true }, needsDb: true },
  { family: 'database', label: 'a password in --database-url', codes: [78], args: ['--database-url', `postgres://payexport:${PLANTED_DB_PASSWORD}@127.0.0.1:1/books`], needsDb: true },
  { family: 'database', label: 'an SQL identifier as --schema', codes: [64], args: ['--schema', 'books; DROP TABLE x'], needsDb: true },
);

function faultOf(family: Family, command: Command, abilities: OutputAbilities): fc.Arbitrary<Fault> {
  switch (family) {
    case 'unknown-flag':
      return unknownFlag;
    case 'bad-date':
      return badDate(command);
    case 'bad-window':
      return badWindow(command);
    case 'bad-zone':
      return badZone;
    case 'bad-shard':
      return badShard;
    case 'bad-number':
      return badNumber;
    case 'bad-format':
      return badFormat;
    case 'config-file':
      return configFile;
    case 'environment':
      return environment;
    case 'output-path':
      return outputPath(abilities);
    case 'base-url':
      return baseUrl;
    case 'database':
      return database;
  }
}

/**
 * Usage and config faults answer first and hide the rest, so most runs have one fault, and the
 * faults that need the disk, the network or a database (rarer to reach, slower to answer) are
 * drawn more often than their share.
 */
const DEEP: ReadonlySet<Family> = new Set(['output-path', 'base-url', 'database']);
const familyArbitrary: fc.Arbitrary<Family> = fc.oneof(...FAMILIES.map((family) => ({ weight: DEEP.has(family) ? 3 : 1, arbitrary: fc.constant(family) })));

/** One CLI run with one to three faults of different families (mostly one, see above). */
export function caseArbitrary(abilities: OutputAbilities): fc.Arbitrary<GeneratedCase> {
  return fc
    .record({
      command: fc.constantFrom<Command>('export', 'nightly', 'month-end'),
      jsonLogFlag: fc.boolean(),
      quiet: fc.boolean(),
      csvOnly: fc.boolean(),
      families: fc
        .oneof({ weight: 6, arbitrary: fc.constant(1) }, { weight: 3, arbitrary: fc.constant(2) }, { weight: 1, arbitrary: fc.constant(3) })
        .chain((count) => fc.uniqueArray(familyArbitrary, { minLength: count, maxLength: count })),
    })
    .chain(({ families, ...rest }) =>
      fc.tuple(...families.map((family) => faultOf(family, rest.command, abilities))).map((faults): GeneratedCase => ({ ...rest, faults })),
    );
}

/** A one-line title: `export · --tz "Mars/…" + --out /proc/… → 64|74`. */
export function describeCase(c: GeneratedCase): string {
  const codes = [...new Set(c.faults.flatMap((f) => f.codes))].sort().join('|');
  return `${c.command} · ${c.faults.map((f) => `${f.family}: ${f.label}`).join(' + ')} → ${codes}`;
}

/**
 * Run before the generated cases every time (fast-check's `examples`, for a sampled suite): the
 * inputs of issue 15, what the generator found, and a database fault no usage error hides, so
 * they can never drift out of the sample.
 */
export const PINNED_CASES: readonly GeneratedCase[] = [
  { command: 'export', jsonLogFlag: false, quiet: false, csvOnly: false, faults: [{ family: 'output-path', label: '--out /proc/… (issue 15: spun a core, ignored SIGTERM)', codes: [74], out: { kind: 'literal', value: '/proc/payexport-forbidden' } }] },
  { command: 'nightly', jsonLogFlag: true, quiet: false, csvOnly: false, faults: [{ family: 'bad-number', label: '--concurrency "abc" (issue 15: echoed NaN)', codes: USAGE, args: ['--concurrency', 'abc'] }] },
  { command: 'month-end', jsonLogFlag: false, quiet: true, csvOnly: true, faults: [{ family: 'bad-format', label: '--format given twice (found by this suite: exit 1)', codes: USAGE, args: ['--format', 'pdf'] }] },
  // usage faults mask a database fault in most draws: one run that reaches the database, every time
  { command: 'nightly', jsonLogFlag: true, quiet: false, csvOnly: false, faults: [{ family: 'database', label: 'a closed port (a password planted in DATABASE_URL)', codes: [75], databaseUrl: { place: { kind: 'closed-port' }, password: true }, needsDb: true }] },
];
