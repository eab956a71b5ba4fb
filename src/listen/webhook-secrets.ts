/**
 * The candidate secrets of each webhook registration, `{ "<webhook id>": ["<secret>", …] }`:
 * several per registration while a rotation is handed over (old and new both verify). They come
 * from PAYEXPORT_WEBHOOK_SECRETS (the JSON itself, e.g. from a Kubernetes Secret) or a file
 * (PAYEXPORT_WEBHOOK_SECRETS_FILE / --secrets-file, mode 0600 like every secret file here) —
 * never the config file or the database. A file is re-read when it changes, so `webhooks rotate`
 * takes effect without a restart. Every secret is registered with the scrubber.
 */
import { statSync } from 'node:fs';
import { readSecretFile } from '../config/secrets.js';
import { configError } from '../util/errors.js';

export type SecretMap = ReadonlyMap<string, readonly string[]>;

export function parseSecretMap(text: string, where: string): SecretMap {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw configError('bad_webhook_secrets', `${where} is not JSON of the form {"<webhook id>": ["<secret>", …]}`);
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) throw configError('bad_webhook_secrets', `${where} must be an object {"<webhook id>": ["<secret>", …]}`);
  const map = new Map<string, string[]>();
  for (const [id, value] of Object.entries(parsed)) {
    const list = typeof value === 'string' ? [value] : value;
    if (!Array.isArray(list) || list.length === 0 || !list.every((s) => typeof s === 'string' && s !== '')) {
      throw configError('bad_webhook_secrets', `${where}: webhook ${id} needs a non-empty list of secrets`);
    }
    map.set(id.toLowerCase(), list as string[]);
  }
  return map;
}

export interface WebhookSecretSource {
  /** the candidates of a registration, undefined when unknown */
  secretsFor(webhookId: string): readonly string[] | undefined;
  readonly registrations: number;
}

export interface SecretSourceOptions {
  env: Readonly<Record<string, string | undefined>>;
  /** --secrets-file, over PAYEXPORT_WEBHOOK_SECRETS_FILE */
  file?: string | undefined;
  /** every secret loaded (now and on a reload) goes through here, for the scrubber */
  onSecret(secret: string): void;
  /** how often a file's mtime is checked at most, ms (default 1000) */
  recheckMs?: number;
  now?: () => number;
}

export function loadWebhookSecrets(options: SecretSourceOptions): WebhookSecretSource {
  const inline = options.env.PAYEXPORT_WEBHOOK_SECRETS;
  const file = options.file ?? options.env.PAYEXPORT_WEBHOOK_SECRETS_FILE;
  const register = (map: SecretMap): SecretMap => {
    for (const list of map.values()) list.forEach(options.onSecret);
    return map;
  };
  if (file === undefined || file === '') {
    if (inline === undefined || inline.trim() === '') {
      throw configError('missing_webhook_secrets', 'no webhook secrets: set PAYEXPORT_WEBHOOK_SECRETS_FILE (or --secrets-file) to the file `payexport webhooks register` wrote, or PAYEXPORT_WEBHOOK_SECRETS to its JSON');
    }
    const map = register(parseSecretMap(inline, 'PAYEXPORT_WEBHOOK_SECRETS'));
    return { secretsFor: (id) => map.get(id), registrations: map.size };
  }
  const mtime = (): number => statSync(file).mtimeMs;
  let map = register(parseSecretMap(readSecretFile(file, 'webhook secrets'), `webhook secrets file '${file}'`));
  let seen = mtime();
  let checkedAt = 0;
  const now = options.now ?? Date.now;
  const recheckMs = options.recheckMs ?? 1_000;
  return {
    secretsFor(id) {
      if (now() - checkedAt >= recheckMs) {
        checkedAt = now();
        try {
          const current = mtime();
          if (current !== seen) {
            // A half-written or broken file keeps the previous secrets: verification must not stop.
            map = register(parseSecretMap(readSecretFile(file, 'webhook secrets'), `webhook secrets file '${file}'`));
            seen = current;
          }
        } catch {
          /* keep the last good map */
        }
      }
      return map.get(id);
    },
    get registrations() {
      return map.size;
    },
  };
}
