/**
 * Where `init` gets the API key, in the order a person expects: the variable named by --key-env
 * (default PAYEXPORT_API_KEY), PAYEXPORT_API_KEY_FILE, a key file an earlier init saved (not under
 * `--force` at a terminal: that asks for the key again, issue 52), or typed at the terminal without echo (saved where key-location.ts says, outside the checkout by
 * default). The key itself is only ever held here and sent to the service; the config names
 * where it is.
 */
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Credential, Env } from '../config/load.js';
import { readSecretFile, secretFromEnv } from '../config/secrets.js';
import { AppError } from '../util/errors.js';
import type { KeySource } from './init-config.js';
import { typedKeySaid } from './init-refusals.js';
import type { Prompter } from './prompter.js';

export interface ObtainedKey {
  credential: Credential;
  source: KeySource;
  /** typed at the terminal: saved to the key file once every answer passed */
  typed: boolean;
  /** how a message names it: `the key you typed (36 characters)`, `the key in PAYEXPORT_API_KEY` */
  said: string;
  /** read from the key file an earlier init saved (kept under `--force --yes`, which can ask nothing) */
  saved?: true;
}

export async function obtainKey(input: { env: Env; keyEnv: string; keyFile: string; cwd: string; prompter: Prompter | null; retype?: boolean; replaceSaved?: boolean }): Promise<ObtainedKey> {
  const fromEnv = secretFromEnv(input.env, input.keyEnv);
  if (fromEnv !== undefined) return { credential: { scheme: 'api_key', value: fromEnv }, source: { kind: 'env', name: input.keyEnv }, typed: false, said: `the key in ${input.keyEnv}` };
  const file = input.env.PAYEXPORT_API_KEY_FILE;
  if (file !== undefined && file !== '') {
    return { credential: { scheme: 'api_key', value: readSecretFile(resolve(input.cwd, file), 'API key') }, source: { kind: 'file', path: file }, typed: false, said: `the key in PAYEXPORT_API_KEY_FILE (${file})` };
  }
  // a key an earlier init saved: kept (a refused one is asked again and replaced; --force at a terminal asks again)
  const savedExists = existsSync(resolve(input.cwd, input.keyFile));
  const replacing = input.replaceSaved === true && input.prompter !== null;
  if (!input.retype && !replacing && savedExists) {
    return { credential: { scheme: 'api_key', value: readSecretFile(resolve(input.cwd, input.keyFile), 'API key') }, source: { kind: 'file', path: input.keyFile }, typed: false, said: `the key saved in ${input.keyFile}`, saved: true };
  }
  if (input.prompter === null) {
    throw new AppError('noPerm', 'missing_credentials', `no API key: set ${input.keyEnv} (or PAYEXPORT_API_KEY_FILE), or run init at a terminal to type it`);
  }
  for (;;) {
    const place = replacing && savedExists ? `replaces the key saved in ${input.keyFile}` : `saved to ${input.keyFile}`;
    const typed = await input.prompter.askSecret(`API key (${place}, mode 600, never into the config)`);
    if (typed !== '') return { credential: { scheme: 'api_key', value: typed }, source: { kind: 'file', path: input.keyFile }, typed: true, said: typedKeySaid(typed) };
  }
}

