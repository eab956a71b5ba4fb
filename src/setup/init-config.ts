/**
 * The config file `init` writes: only what the answers decided (defaults stay out, so a later
 * payexport's better default reaches this installation too), never a secret — the key is named by
 * its environment variable or by a mode-600 file — and validated by loading it exactly as a job
 * does (config/load.ts) before it takes its place, so a file `init` wrote always loads.
 */
import { chmodSync, existsSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { environmentKindOfHost } from '../api/environment-guard.js';
import { loadConfig, type Env, type LoadedConfig } from '../config/load.js';
import { configSchema, type ConfigInput } from '../config/schema.js';
import { ensureFolderSync } from '../util/ensure-folder.js';

/** Where the key comes from: an environment variable, or a file only its owner can read. */
export type KeySource = { kind: 'env'; name: string } | { kind: 'file'; path: string };

/** Where the snapshot lives: the embedded engine in a folder, or Postgres (its URL from DATABASE_URL, or one without a password). */
export type SnapshotAnswer = { kind: 'embedded'; dataDir: string } | { kind: 'env' } | { kind: 'url'; url: string };

export interface InitAnswers {
  baseUrl: string;
  organization: string;
  environments: readonly string[];
  key: KeySource;
  tz: string;
  snapshot: SnapshotAnswer;
  out: string;
}

const DEFAULT_BASE_URL = configSchema.shape.baseUrl.parse(undefined);

export function configFromAnswers(answers: InitAnswers, writtenAt: Date): Record<string, unknown> {
  const kind = environmentKindOfHost(answers.baseUrl) ?? 'production';
  const keyRef = answers.key.kind === 'env' ? { apiKeyEnv: answers.key.name } : { apiKeyFile: answers.key.path };
  const config: ConfigInput & { $comment: string } = {
    $comment: `written by \`payexport init\` on ${writtenAt.toISOString().slice(0, 10)}; every key is described in config/README.md. No secret is in this file: the API key is read from ${answers.key.kind === 'env' ? `the variable ${answers.key.name}` : `the file ${answers.key.path} (mode 600)`}.`,
    ...(answers.baseUrl === DEFAULT_BASE_URL ? {} : { baseUrl: answers.baseUrl }),
    organization: answers.organization,
    environments: answers.environments.map((id) => ({ id, ...(kind === 'production' ? {} : { kind }), ...keyRef })),
    tz: answers.tz,
    out: answers.out,
    ...(answers.snapshot.kind === 'embedded' ? { dataDir: answers.snapshot.dataDir } : answers.snapshot.kind === 'url' ? { databaseUrl: answers.snapshot.url } : {}),
  };
  return config;
}

/** Writes the key file: created for its owner only (0600), and made so if it already existed wider. */
export function writeKeyFile(path: string, key: string): void {
  ensureFolderSync(dirname(path));
  writeFileSync(path, `${key}\n`, { mode: 0o600 });
  chmodSync(path, 0o600);
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
    return { ...loaded, configFile: path };
  } finally {
    if (existsSync(temporary)) rmSync(temporary, { force: true });
  }
}
