/**
 * The secret each destination needs (a signing secret, a Slack or ping URL, an SMTP password),
 * read from the variable or mode-600 file its config names, and registered with the run's scrubber
 * at once so no log line or error can carry it. A missing secret does not stop the run: it makes
 * that destination's delivery fail, with the reason, like any other delivery failure.
 */
import { resolve } from 'node:path';
import type { DestinationConfig } from '../config/notify-schema.js';
import { readSecretFile, secretFromEnv } from '../config/secrets.js';
import type { SecretScrubber } from '../util/secret-scrubber.js';

import type { Env } from '../util/env.js';

export interface ResolvedDestination {
  config: DestinationConfig;
  /** the secret, when the destination has one and it could be read */
  secret: string | undefined;
  /** why the secret could not be read (delivery then fails with this) */
  problem: string | null;
}

function reference(d: DestinationConfig): { env: string | undefined; file: string | undefined; what: string } | null {
  switch (d.kind) {
    case 'webhook':
      return { env: d.secretEnv, file: d.secretFile, what: 'webhook signing secret' };
    case 'slack':
      return { env: d.urlEnv, file: d.urlFile, what: 'Slack webhook URL' };
    case 'ping':
      return { env: d.urlEnv, file: d.urlFile, what: 'ping URL' };
    case 'email':
      return d.user === undefined ? null : { env: d.passwordEnv, file: d.passwordFile, what: 'SMTP password' };
  }
}

export function resolveDestinations(destinations: readonly DestinationConfig[], env: Env, cwd: string, scrubber: SecretScrubber): ResolvedDestination[] {
  return destinations.map((config) => {
    const ref = reference(config);
    if (ref === null) return { config, secret: undefined, problem: null };
    try {
      let secret: string | undefined;
      if (ref.env !== undefined) {
        secret = secretFromEnv(env, ref.env);
        if (secret === undefined) return { config, secret: undefined, problem: `the ${ref.what} variable ${ref.env} is not set` };
      } else if (ref.file !== undefined) {
        secret = readSecretFile(resolve(cwd, ref.file), ref.what);
      }
      scrubber.add(secret);
      return { config, secret, problem: null };
    } catch (error) {
      return { config, secret: undefined, problem: error instanceof Error ? error.message : String(error) };
    }
  });
}
