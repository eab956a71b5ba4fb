/**
 * The config file `init` writes: only what the answers decided (defaults stay out, so a later
 * payexport's better default reaches this installation too), never a secret — the key is named by
 * its environment variable or by a mode-600 file — and validated by loading it exactly as a job
 * does (config/load.ts) before it takes its place, so a file `init` wrote always loads.
 */
import { existsSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { loadConfig, type Env, type LoadedConfig } from '../config/load.js';
import { configSchema, type ConfigInput } from '../config/schema.js';
import { ensureFolderSync } from '../util/ensure-folder.js';
import type { NamedEnvironment } from './environment-names.js';
import type { ServiceAnswer } from './service-answer.js';

/** Where the key comes from: an environment variable, or a file only its owner can read. */
export type KeySource = { kind: 'env'; name: string } | { kind: 'file'; path: string };

/** Where the snapshot lives: the embedded engine in a folder, or Postgres (its URL from DATABASE_URL, or one without a password). */
export type SnapshotAnswer = { kind: 'embedded'; dataDir: string } | { kind: 'env' } | { kind: 'url'; url: string };

export interface InitAnswers {
  service: ServiceAnswer;
  organization: string;
  environments: readonly Pick<NamedEnvironment, 'id' | 'name' | 'kind'>[];
  key: KeySource;
  tz: string;
  snapshot: SnapshotAnswer;
  out: string;
  /** the journal, lots and prices sections (books-template.ts), when the books step was taken */
  books: { journal: Record<string, unknown>; lots: Record<string, unknown>; prices: Record<string, unknown> } | null;
}

const DEFAULT_BASE_URL = configSchema.shape.baseUrl.parse(undefined);

function comment(answers: InitAnswers, writtenAt: Date): string[] {
  const key = answers.key.kind === 'env' ? `the variable ${answers.key.name}` : `the file ${answers.key.path} (mode 600)`;
  return [
    `Written by \`payexport init\` on ${writtenAt.toISOString().slice(0, 10)}; every key is described in config/README.md.`,
    `No secret is in this file: the API key is read from ${key}.`,
    ...(answers.books === null
      ? ['No books section: add journal, lots and prices (docs/journal.md, docs/lots.md, docs/prices.md), or run payexport init again.']
      : [
          'journal: a chart of accounts to start from, every wallet mapped to an asset account of its own: rename the accounts to your chart (keep the keys the mapping uses).',
          `lots: first in, first out for every wallet; ${String(answers.books.lots.openingLots)} opens each BTC or asset wallet at its first deposit, cost unknown until you write it.`,
          'prices: nightly and month-end fetch the BTC closes they need into the price cache (prices next to this file).',
        ]),
  ];
}

export function configFromAnswers(answers: InitAnswers, writtenAt: Date): Record<string, unknown> {
  const keyRef = answers.key.kind === 'env' ? { apiKeyEnv: answers.key.name } : { apiKeyFile: answers.key.path };
  const config: ConfigInput & { $comment: string[] } = {
    $comment: comment(answers, writtenAt),
    ...(answers.service.baseUrl === DEFAULT_BASE_URL ? {} : { baseUrl: answers.service.baseUrl }),
    organization: answers.organization,
    environments: answers.environments.map((e) => ({ id: e.id, name: e.name, ...(e.kind === null ? {} : { kind: e.kind }), ...keyRef })),
    tz: answers.tz,
    out: answers.out,
    ...(answers.snapshot.kind === 'embedded' ? { dataDir: answers.snapshot.dataDir } : answers.snapshot.kind === 'url' ? { databaseUrl: answers.snapshot.url } : {}),
    ...(answers.books === null ? {} : (answers.books as unknown as Pick<ConfigInput, 'journal' | 'lots' | 'prices'>)),
  };
  return config;
}

/**
 * Writes the config under a temporary name, loads it as a job would (schema, secret references,
 * the key actually readable), then renames it into place: a config that would not load is never
 * left behind. Returns what the jobs will load.
 */
export function writeValidatedConfig(path: string, config: Record<string, unknown>, env: Env, cwd: string): LoadedConfig {
  const target = resolve(cwd, path);
  ensureFolderSync(dirname(target));
  const temporary = `${target}.init-${process.pid}`;
  writeFileSync(temporary, `${JSON.stringify(config, null, 2)}\n`, { mode: 0o644 });
  try {
    const loaded = loadConfig({ flags: { config: temporary }, env, cwd });
    renameSync(temporary, target);
    return { ...loaded, configFile: path, configChoice: { path, origin: 'flag' } };
  } finally {
    if (existsSync(temporary)) rmSync(temporary, { force: true });
  }
}
