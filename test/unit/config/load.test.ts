import { chmodSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { describeConfig, loadConfig } from '../../../src/config/load.js';
import { AppError } from '../../../src/util/errors.js';

const ORG = '0b6a9f4e-4a5e-4a53-9c52-1f2e3d4c5b6a';
const ENV_A = '6f1c2d3e-4b5a-4c6d-8e7f-9a0b1c2d3e4f';

function tempDir(): string {
  return mkdtempSync(join(tmpdir(), 'payexport-config-'));
}

function writeConfig(dir: string, value: unknown): string {
  const path = join(dir, 'payexport.json');
  writeFileSync(path, JSON.stringify(value));
  return path;
}

function failure(fn: () => unknown): AppError {
  try {
    fn();
  } catch (error) {
    if (error instanceof AppError) return error;
    throw error;
  }
  throw new Error('expected an AppError');
}

describe('loadConfig precedence: defaults < file < env < flags', () => {
  it('takes defaults when nothing is given', () => {
    const { config, sources } = loadConfig({ flags: {}, env: {}, cwd: tempDir() });
    expect(config.tz).toBe('UTC');
    expect(config.concurrency).toBe(8);
    expect(config.formats).toEqual(['csv', 'xlsx']);
    expect(sources.tz).toBe('default');
  });

  it('file < env < flag, and an absent flag never overrides', () => {
    const dir = tempDir();
    const file = writeConfig(dir, { tz: 'Europe/Berlin', out: 'from-file', concurrency: 4, organization: ORG });
    const env = { PAYEXPORT_TZ: 'America/New_York', PAYEXPORT_OUT: 'from-env' };
    const { config, sources } = loadConfig({ flags: { config: file, out: 'from-flag', tz: undefined }, env, cwd: dir });
    expect(config.tz).toBe('America/New_York');
    expect(sources.tz).toBe('env');
    expect(config.out).toBe('from-flag');
    expect(sources.out).toBe('flag');
    expect(config.concurrency).toBe(4);
    expect(sources.concurrency).toBe('file');
    expect(config.organization).toBe(ORG);
  });

  it('reads PAYEXPORT_CONFIG when --config is absent', () => {
    const dir = tempDir();
    const file = writeConfig(dir, { out: 'x' });
    expect(loadConfig({ flags: {}, env: { PAYEXPORT_CONFIG: file }, cwd: dir }).config.out).toBe('x');
  });

  it('derives the shard from a Kubernetes Indexed Job', () => {
    const { config } = loadConfig({ flags: {}, env: { JOB_COMPLETION_INDEX: '2', PAYEXPORT_SHARDS: '3' }, cwd: tempDir() });
    expect(config.shard).toBe('2/3');
  });
});

describe('loadConfig refusals (exit 78)', () => {
  it('names an unknown key with its path and a suggestion', () => {
    const dir = tempDir();
    const file = writeConfig(dir, { concurency: 3 });
    const error = failure(() => loadConfig({ flags: { config: file }, env: {}, cwd: dir }));
    expect(error.exitCode).toBe(78);
    expect(error.message).toContain("'concurency'");
    expect(error.message).toContain("did you mean 'concurrency'");
  });

  it('names a nested unknown key', () => {
    const dir = tempDir();
    const file = writeConfig(dir, { csv: { bom: true, eoll: 'lf' } });
    const error = failure(() => loadConfig({ flags: { config: file }, env: {}, cwd: dir }));
    expect(error.message).toContain("'csv.eoll'");
    expect(error.message).toContain("did you mean 'eol'");
  });

  it('refuses a secret in the config file without echoing it', () => {
    const dir = tempDir();
    const file = writeConfig(dir, { environments: [{ id: ENV_A, apiKey: 'vltg_planted_secret' }] });
    const error = failure(() => loadConfig({ flags: { config: file }, env: {}, cwd: dir }));
    expect(error.exitCode).toBe(78);
    expect(error.type).toBe('secret_in_config');
    expect(error.message).toContain('environments[0].apiKey');
    expect(error.message).not.toContain('vltg_planted_secret');
  });

  it('refuses a database password in the config file', () => {
    const dir = tempDir();
    const file = writeConfig(dir, { databaseUrl: 'postgres://u:hunter2@db/x' });
    const error = failure(() => loadConfig({ flags: { config: file }, env: {}, cwd: dir }));
    expect(error.exitCode).toBe(78);
    expect(error.message).not.toContain('hunter2');
  });

  it('reports invalid JSON and wrong types with the key', () => {
    const dir = tempDir();
    const bad = join(dir, 'bad.json');
    writeFileSync(bad, '{ "tz": ');
    expect(failure(() => loadConfig({ flags: { config: bad }, env: {}, cwd: dir })).type).toBe('config_file_invalid');
    const typed = writeConfig(dir, { concurrency: 'lots' });
    const error = failure(() => loadConfig({ flags: { config: typed }, env: {}, cwd: dir }));
    expect(error.message).toContain("'concurrency'");
  });

  it('refuses a secret file that others can read', () => {
    const dir = tempDir();
    const keyFile = join(dir, 'key');
    writeFileSync(keyFile, 'vltg_file_key\n');
    chmodSync(keyFile, 0o644);
    const file = writeConfig(dir, { environments: [{ id: ENV_A, apiKeyFile: keyFile }] });
    const error = failure(() => loadConfig({ flags: { config: file }, env: {}, cwd: dir }));
    expect(error.type).toBe('secret_file_permissions');
    chmodSync(keyFile, 0o600);
    const { secrets } = loadConfig({ flags: { config: file }, env: {}, cwd: dir });
    expect(secrets.credentials.get(ENV_A)).toEqual({ scheme: 'api_key', value: 'vltg_file_key' });
  });
});

describe('secrets', () => {
  it('come from env, are trimmed, and are listed for the scrubber', () => {
    const { secrets } = loadConfig({ flags: {}, env: { PAYEXPORT_API_KEY: ' vltg_abc\n', DATABASE_URL: 'postgres://u:pw%40x@h/db' }, cwd: tempDir() });
    expect(secrets.credentials.get('*')).toEqual({ scheme: 'api_key', value: 'vltg_abc' });
    expect(secrets.values).toContain('vltg_abc');
    expect(secrets.values).toContain('pw@x');
  });

  it('never show up in --print-config', () => {
    const loaded = loadConfig({ flags: {}, env: { PAYEXPORT_API_KEY: 'vltg_hidden', DATABASE_URL: 'postgres://u:topsecret@h/db' }, cwd: tempDir() });
    const text = JSON.stringify(describeConfig(loaded));
    expect(text).not.toContain('vltg_hidden');
    expect(text).not.toContain('topsecret');
    expect(text).toContain('postgres://u:***@h/db');
  });

  it('a named key variable that is unset is a credentials error (77)', () => {
    const dir = tempDir();
    const file = writeConfig(dir, { environments: [{ id: ENV_A, apiKeyEnv: 'KEY_FOR_A' }] });
    expect(failure(() => loadConfig({ flags: { config: file }, env: {}, cwd: dir })).exitCode).toBe(77);
  });
});
